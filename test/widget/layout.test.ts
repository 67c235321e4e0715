/** The table geometry shared by canvas and DOM overlay (pure; runs in the browser with the others). */
import { expect } from 'chai';
import { BOXES, SECTORS } from '../../shared/table.ts';
import { cardSpot, type Rect, tableLayout } from '../../widget/layout.ts';

const SIZES: [number, number][] = [
  [960, 600],
  [1280, 720],
  [800, 500],
  [390, 700],
  [360, 640],
  [414, 896],
  [640, 480],
];

function inside(r: Rect, W: number, H: number): boolean {
  return r.x >= 0 && r.y >= 0 && r.x + r.w <= W + 0.01 && r.y + r.h <= H + 0.01 && r.w > 0 && r.h > 0;
}

function overlaps(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/** The four corners of a spot's button once rotated by its angle. */
function corners(s: Rect & { angle: number }): [number, number][] {
  const cx = s.x + s.w / 2;
  const cy = s.y + s.h / 2;
  const c = Math.cos(s.angle);
  const n = Math.sin(s.angle);
  return [
    [-1, -1],
    [1, -1],
    [1, 1],
    [-1, 1],
  ].map(([u, v]) => {
    const dx = (u! * s.w) / 2;
    const dy = (v! * s.h) / 2;
    return [cx + dx * c - dy * n, cy + dx * n + dy * c];
  });
}

/** Separating-axis test for two convex quads. */
function quadsOverlap(a: [number, number][], b: [number, number][]): boolean {
  for (const poly of [a, b]) {
    for (let i = 0; i < 4; i++) {
      const [x1, y1] = poly[i]!;
      const [x2, y2] = poly[(i + 1) % 4]!;
      const nx = y2 - y1;
      const ny = x1 - x2;
      const pa = a.map(([x, y]) => x * nx + y * ny);
      const pb = b.map(([x, y]) => x * nx + y * ny);
      if (Math.max(...pa) <= Math.min(...pb) || Math.max(...pb) <= Math.min(...pa)) return false;
    }
  }
  return true;
}

describe('tableLayout', () => {
  for (const [W, H] of SIZES) {
    it(`${W}×${H}: 15 boxes in table order, inside the canvas, none overlapping (rotated or not)`, () => {
      const L = tableLayout(W, H);
      expect(L.boxes.map((b) => `${b.sector}${b.box}`)).to.deep.equal(Array.from({ length: SECTORS }, (_, s) => BOXES.map((b) => `${s}${b}`)).flat());
      for (const b of L.boxes) expect(inside(b, W, H), `${b.sector} ${b.box}`).to.equal(true);
      for (let i = 0; i < L.boxes.length; i++) {
        for (let j = i + 1; j < L.boxes.length; j++) {
          const a = L.boxes[i]!;
          const b = L.boxes[j]!;
          expect(overlaps(a, b), `${a.sector}${a.box} × ${b.sector}${b.box}`).to.equal(false);
          expect(quadsOverlap(corners(a), corners(b)), `rotated ${a.sector}${a.box} × ${b.sector}${b.box}`).to.equal(false);
        }
      }
    });

    it(`${W}×${H}: shoe, tray, hands, result and chip tray are inside and apart from the boxes`, () => {
      const L = tableLayout(W, H);
      for (const r of [L.shoe, L.discard, L.playerHand, L.bankerHand, L.result, L.chipTray]) expect(inside(r, W, H)).to.equal(true);
      for (const r of [L.shoe, L.discard, L.playerHand, L.bankerHand, L.result]) {
        for (const b of L.boxes) expect(overlaps(r, b), JSON.stringify(r)).to.equal(false);
      }
      expect(overlaps(L.playerHand, L.bankerHand)).to.equal(false);
      expect(overlaps(L.shoe, L.playerHand) || overlaps(L.shoe, L.bankerHand)).to.equal(false);
      for (const b of L.boxes) expect(b.y + b.h <= L.chipTray.y).to.equal(true);
      // The printed name and limits (and their flourishes) stay clear of the shoe and the tray.
      expect(overlaps(L.plaque, L.shoe) || overlaps(L.plaque, L.discard), JSON.stringify(L.plaque)).to.equal(false);
    });

    it(`${W}×${H}: every card slot lies inside its hand`, () => {
      const L = tableLayout(W, H);
      for (const hand of ['player', 'banker'] as const) {
        const r = hand === 'player' ? L.playerHand : L.bankerHand;
        for (const slot of [0, 1, 2]) {
          const p = cardSpot(L, hand, slot);
          const sideways = Math.abs(p.rotation) > 0.1;
          const w = sideways ? L.card.h : L.card.w;
          const h = sideways ? L.card.w : L.card.h;
          expect(inside({ x: p.x - w / 2, y: p.y - h / 2, w, h }, W, H)).to.equal(true);
          expect(p.x - w / 2 >= r.x - 0.5 && p.x + w / 2 <= r.x + r.w + 0.5, `${hand} ${slot}`).to.equal(true);
        }
      }
    });
  }

  it('uses the compact arrangement on phones in portrait, the wide one on desktops', () => {
    expect(tableLayout(390, 700).compact).to.equal(true);
    expect(tableLayout(960, 600).compact).to.equal(false);
    expect(tableLayout(600, 900).compact).to.equal(true);
  });

  it('is deterministic', () => {
    expect(tableLayout(777, 555)).to.deep.equal(tableLayout(777, 555));
  });
});
