/**
 * What a table's layout must keep, measured on rectangles, independent of how layout.ts computes
 * them: used by the pure layout test (the layout's own rects) and by the Chromium matrix (the DOM
 * boxes and the scene's drawn rects). Every check returns the problems it found, as sentences.
 */
import { SECTORS } from '../../shared/table.ts';
import { type ArcGeometry, type Rect, sectorDisc, type TableLayout, type Wedge } from '../../widget/layout.ts';

/** The layout matrix's screens (CSS px) and languages: the Chromium matrix and the screenshots. */
export const VIEWPORTS: readonly (readonly [number, number])[] = [
  [1280, 720],
  [1366, 768],
  [1440, 900],
  [390, 844],
  [844, 390],
  [360, 640],
  [640, 360],
];
export const LANGUAGES = ['en', 'ru', 'it', 'el'] as const;

/**
 * The table's width in the /embed frame (FRAME_STYLE of worker/embed/frame.ts): the width of the
 * frame, capped so that a wide, short screen shows the whole table, except on a phone held sideways.
 */
export function frameWidth(width: number, height: number): number {
  if (width > height && height <= 520) return width;
  return Math.min(width, Math.max(660, (height - 140) * 1.6));
}

export interface Quad extends Rect {
  /** Radians about the centre (CSS rotate); 0 when missing. */
  angle?: number;
}

/** Rects overlap by more than `slack` px (touching edges do not count). */
export function overlaps(a: Rect, b: Rect, slack = 0): boolean {
  return a.x < b.x + b.w - slack && b.x < a.x + a.w - slack && a.y < b.y + b.h - slack && b.y < a.y + a.h - slack;
}

/** The four corners of a rect turned about its centre. */
export function corners(s: Quad): [number, number][] {
  const cx = s.x + s.w / 2;
  const cy = s.y + s.h / 2;
  const a = s.angle ?? 0;
  const c = Math.cos(a);
  const n = Math.sin(a);
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

/** Separating-axis test for two convex quads: they overlap by more than `slack` px (touching does not count). */
export function quadsOverlap(a: [number, number][], b: [number, number][], slack = 0): boolean {
  for (const poly of [a, b]) {
    for (let i = 0; i < 4; i++) {
      const [x1, y1] = poly[i]!;
      const [x2, y2] = poly[(i + 1) % 4]!;
      const nx = y2 - y1;
      const ny = x1 - x2;
      const len = Math.hypot(nx, ny) || 1;
      const pa = a.map(([x, y]) => (x * nx + y * ny) / len);
      const pb = b.map(([x, y]) => (x * nx + y * ny) / len);
      if (Math.max(...pa) <= Math.min(...pb) + slack || Math.max(...pb) <= Math.min(...pa) + slack) return false;
    }
  }
  return true;
}

/** The rect lies inside `bounds` (half a pixel of rounding allowed) and is not empty. */
export function inside(r: Rect, bounds: Rect): boolean {
  return (
    r.w > 0 && r.h > 0 && r.x >= bounds.x - 0.5 && r.y >= bounds.y - 0.5 && r.x + r.w <= bounds.x + bounds.w + 0.5 && r.y + r.h <= bounds.y + bounds.h + 0.5
  );
}

/** Does any point of the rect (turned by its angle; sampled every ~2 px) fall on the printed wedge, grown by `pad` px? */
export function rectOnWedge(r: Quad, arc: Pick<ArcGeometry, 'cx' | 'cy'>, w: Wedge, pad: number): boolean {
  const nx = Math.max(2, Math.ceil(r.w / 2));
  const ny = Math.max(2, Math.ceil(r.h / 2));
  const padAngle = (rad: number): number => pad / Math.max(1, rad);
  const c = Math.cos(r.angle ?? 0);
  const n = Math.sin(r.angle ?? 0);
  for (let i = 0; i <= nx; i++) {
    for (let j = 0; j <= ny; j++) {
      const u = (r.w * i) / nx - r.w / 2;
      const v = (r.h * j) / ny - r.h / 2;
      const x = r.x + r.w / 2 + u * c - v * n - arc.cx;
      const y = r.y + r.h / 2 + u * n + v * c - arc.cy;
      const rad = Math.hypot(x, y);
      if (rad < w.r0 - pad || rad > w.r1 + pad) continue;
      const a = Math.atan2(y, x);
      if (a <= w.a0 + padAngle(rad) && a >= w.a1 - padAngle(rad)) return true;
    }
  }
  return false;
}

/** Does the rect touch the disc? */
export function rectOnDisc(r: Rect, d: { x: number; y: number; r: number }): boolean {
  const nx = Math.max(r.x, Math.min(d.x, r.x + r.w));
  const ny = Math.max(r.y, Math.min(d.y, r.y + r.h));
  return Math.hypot(nx - d.x, ny - d.y) < d.r;
}

/** What stands above the arc, by name, and what it must not touch. */
export interface FeltPicture {
  width: number;
  height: number;
  arc: Pick<ArcGeometry, 'cx' | 'cy'>;
  wedges: (Wedge & { name: string })[];
  discs: { x: number; y: number; r: number }[];
  /** The bet boxes' buttons (rotated quads). */
  boxes: (Quad & { name: string })[];
  /** Card areas, banner, pills, plaque…: none may sit on a box, a printed wedge or a disc, or leave the felt. */
  pieces: (Quad & { name: string; /** A piece that belongs to this box may sit on it (a bet's pill). */ of?: string })[];
}

/** Every overlap or overflow in the picture, as sentences (empty: all clear). */
export function feltProblems(p: FeltPicture, pad = 2): string[] {
  const out: string[] = [];
  const felt: Rect = { x: 0, y: 0, w: p.width, h: p.height };
  for (const piece of p.pieces) {
    const xs = corners(piece).map(([x]) => x);
    const ys = corners(piece).map(([, y]) => y);
    const outline = { x: Math.min(...xs), y: Math.min(...ys), w: Math.max(...xs) - Math.min(...xs), h: Math.max(...ys) - Math.min(...ys) };
    if (!inside(outline, felt)) out.push(`${piece.name} leaves the felt: ${fmt(piece)}`);
    for (const w of p.wedges) if (w.name !== piece.of && rectOnWedge(piece, p.arc, w, pad)) out.push(`${piece.name} ${fmt(piece)} on the printed ${w.name}`);
    for (const b of p.boxes)
      if (b.name !== piece.of && quadsOverlap(corners(piece), corners(b), 0.5)) out.push(`${piece.name} ${fmt(piece)} on the ${b.name} button`);
    p.discs.forEach((d, i) => rectOnDisc(outline, d) && out.push(`${piece.name} ${fmt(piece)} on sector ${i + 1}'s number`));
  }
  for (const b of p.boxes) if (!inside(b, felt)) out.push(`${b.name} leaves the felt: ${fmt(b)}`);
  return out;
}

function fmt(r: Rect): string {
  return `[${[r.x, r.y, r.w, r.h].map((v) => Math.round(v)).join(' ')}]`;
}

/** The layout's own picture: its boxes, wedges and discs, and the pieces it places above the arc. */
export function layoutPicture(L: TableLayout): FeltPicture {
  const name = (s: { sector: number; box: string }): string => `sector ${s.sector + 1} ${s.box}`;
  return {
    width: L.width,
    height: L.height,
    arc: L.arc,
    wedges: L.boxes.map((b) => ({ ...b.wedge, name: name(b) })),
    discs: Array.from({ length: SECTORS }, (_, s) => sectorDisc(L, s)),
    boxes: L.boxes.map((b) => ({ ...b, name: name(b) })),
    pieces: [
      { ...L.playerHand, name: 'Player hand' },
      { ...L.bankerHand, name: 'Banker hand' },
      { ...L.result, name: 'result banner' },
      { ...L.plaque, name: 'plaque' },
      { ...L.shoe, name: 'shoe' },
      { ...L.discard, name: 'discard tray' },
      // The payout legend, printed only where it has room (felt.ts: at least 8 px high).
      ...(L.legend.h >= 8 ? [{ ...L.legend, name: 'payout legend' }] : []),
    ],
  };
}

/**
 * Every visible element under `root` (and the shadow roots inside it) whose words are cut: an
 * element that clips (`overflow` other than visible, or `text-overflow: ellipsis`) with more in it
 * than it shows (scrollWidth > clientWidth), and words that run out of the host (`host`) itself.
 * Words kept for screen readers only (clipped to nothing on purpose) do not count.
 */
export function cutTexts(root: ShadowRoot, host: Element): string[] {
  const out: string[] = [];
  const edge = host.getBoundingClientRect();
  // Shown, and not kept for screen readers only (styles/visually-hidden.ts: one pixel, clipped to nothing).
  const seen = (el: HTMLElement, style: CSSStyleDeclaration): boolean =>
    el.checkVisibility({ visibilityProperty: true }) && style.clipPath === 'none' && el.clientWidth > 1;
  const walk = (node: ShadowRoot): void => {
    for (const el of node.querySelectorAll<HTMLElement>('*')) {
      if (el.shadowRoot) walk(el.shadowRoot);
      const style = getComputedStyle(el);
      const clips = style.textOverflow === 'ellipsis' || style.overflowX !== 'visible';
      if (clips && el.scrollWidth > el.clientWidth + 1 && seen(el, style) && words(el))
        out.push(`"${words(el)}" cut (${el.scrollWidth} > ${el.clientWidth} px, ${el.tagName.toLowerCase()}.${el.className})`);
      // Words of its own out of the host's box (a page or frame cuts them there).
      if (![...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim() !== '')) continue;
      const r = el.getBoundingClientRect();
      if ((r.left < edge.left - 0.5 || r.right > edge.right + 0.5) && seen(el, style))
        out.push(`"${words(el)}" out of the table [${Math.round(r.left)} ${Math.round(r.right)}]`);
    }
  };
  walk(root);
  return out;
}

/** An element's words as a reader sees them (its own, and its children's unless they are hidden). */
function words(el: HTMLElement): string {
  return (el.innerText || '').replace(/\s+/g, ' ').trim().slice(0, 80);
}
