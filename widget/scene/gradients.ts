/**
 * The few gradients the table uses, made once per page and shared by every scene. They are tiny
 * (a strip texture each) and never destroyed: destroying a gradient still referenced by a Graphics'
 * GPU data makes Pixi warn, and a new renderer re-uploads them to its own context anyway.
 */
import { FillGradient } from './pixi.ts';
import { FELT } from './palette.ts';

const made = new Map<string, FillGradient>();

function once(key: string, make: () => FillGradient): FillGradient {
  let g = made.get(key);
  if (!g) {
    g = make();
    made.set(key, g);
  }
  return g;
}

/** The padded rail: lit top edge, dark below. */
export const railGradient = (): FillGradient =>
  once(
    'rail',
    () =>
      new FillGradient({
        type: 'linear',
        start: { x: 0, y: 0 },
        end: { x: 0, y: 1 },
        colorStops: [
          { offset: 0, color: FELT.railLight },
          { offset: 0.06, color: FELT.rail },
          { offset: 1, color: FELT.railDark },
        ],
        textureSpace: 'local',
      }),
  );

/** The cloth, lit from above the middle of the table. */
export const clothGradient = (): FillGradient =>
  once(
    'cloth',
    () =>
      new FillGradient({
        type: 'radial',
        center: { x: 0.5, y: 0.42 },
        innerRadius: 0,
        outerCenter: { x: 0.5, y: 0.42 },
        outerRadius: 0.72,
        colorStops: [
          { offset: 0, color: FELT.centre },
          { offset: 0.55, color: FELT.mid },
          { offset: 1, color: FELT.edge },
        ],
        textureSpace: 'local',
      }),
  );

/** Smoked acrylic of the shoe and the discard tray. */
export const acrylicGradient = (): FillGradient =>
  once(
    'acrylic',
    () =>
      new FillGradient({
        type: 'linear',
        start: { x: 0, y: 0 },
        end: { x: 0, y: 1 },
        colorStops: [
          { offset: 0, color: '#3b3f47' },
          { offset: 0.5, color: '#1f2227' },
          { offset: 1, color: '#111316' },
        ],
        textureSpace: 'local',
      }),
  );

/** The sheen over a chip: light top-left, shade bottom-right. */
export const chipSheen = (): FillGradient =>
  once(
    'sheen',
    () =>
      new FillGradient({
        type: 'linear',
        start: { x: 0.15, y: 0.05 },
        end: { x: 0.85, y: 0.95 },
        colorStops: [
          { offset: 0, color: 'rgba(255,255,255,0.30)' },
          { offset: 0.45, color: 'rgba(255,255,255,0.04)' },
          { offset: 1, color: 'rgba(0,0,0,0.22)' },
        ],
        textureSpace: 'local',
      }),
  );
