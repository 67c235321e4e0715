/**
 * Card art: faces (rank and suit corners, pips, court panels), the back and a soft shadow, drawn
 * with Graphics + Text and baked once into textures at the current card size. Faces are baked on
 * first use and kept until the card size changes or the scene is destroyed.
 */
import { Container, Graphics, Rectangle, type Renderer, Text, type Texture } from './pixi.ts';
import type { CardCode, Rank, Suit } from '../../shared/cards.ts';
import { CARD, SERIF } from './palette.ts';
import { drawSuit, isRed } from './suits.ts';

/** Pip positions for 2–10 in a unit box (x 0..1 left→right, y 0..1 top→bottom). */
const PIPS: Readonly<Record<string, readonly (readonly [number, number])[]>> = {
  '2': [
    [0.5, 0],
    [0.5, 1],
  ],
  '3': [
    [0.5, 0],
    [0.5, 0.5],
    [0.5, 1],
  ],
  '4': [
    [0, 0],
    [1, 0],
    [0, 1],
    [1, 1],
  ],
  '5': [
    [0, 0],
    [1, 0],
    [0.5, 0.5],
    [0, 1],
    [1, 1],
  ],
  '6': [
    [0, 0],
    [1, 0],
    [0, 0.5],
    [1, 0.5],
    [0, 1],
    [1, 1],
  ],
  '7': [
    [0, 0],
    [1, 0],
    [0.5, 0.25],
    [0, 0.5],
    [1, 0.5],
    [0, 1],
    [1, 1],
  ],
  '8': [
    [0, 0],
    [1, 0],
    [0.5, 0.25],
    [0, 0.5],
    [1, 0.5],
    [0.5, 0.75],
    [0, 1],
    [1, 1],
  ],
  '9': [
    [0, 0],
    [1, 0],
    [0, 1 / 3],
    [1, 1 / 3],
    [0.5, 0.5],
    [0, 2 / 3],
    [1, 2 / 3],
    [0, 1],
    [1, 1],
  ],
  T: [
    [0, 0],
    [1, 0],
    [0.5, 1 / 6],
    [0, 1 / 3],
    [1, 1 / 3],
    [0, 2 / 3],
    [1, 2 / 3],
    [0.5, 5 / 6],
    [0, 1],
    [1, 1],
  ],
};

const RANK_TEXT: Readonly<Record<Rank, string>> = {
  A: 'A',
  '2': '2',
  '3': '3',
  '4': '4',
  '5': '5',
  '6': '6',
  '7': '7',
  '8': '8',
  '9': '9',
  T: '10',
  J: 'J',
  Q: 'Q',
  K: 'K',
};

/** Bakes and caches card textures for one renderer. */
export class CardArt {
  private readonly renderer: Renderer;
  private readonly faces = new Map<string, Texture>();
  private backTexture: Texture | null = null;
  private shadowTexture: Texture | null = null;
  private w = 0;
  private h = 0;

  constructor(renderer: Renderer) {
    this.renderer = renderer;
  }

  get width(): number {
    return this.w;
  }

  get height(): number {
    return this.h;
  }

  /** Sets the upright card size in CSS pixels; drops textures baked at another size. */
  setSize(w: number, h: number): void {
    const W = Math.round(w);
    const H = Math.round(h);
    if (W === this.w && H === this.h) return;
    this.clear();
    this.w = W;
    this.h = H;
  }

  face(code: CardCode): Texture {
    let tex = this.faces.get(code);
    if (!tex) {
      tex = this.bake(drawFace(code, this.w, this.h), 0);
      this.faces.set(code, tex);
    }
    return tex;
  }

  back(): Texture {
    this.backTexture ??= this.bake(drawBack(this.w, this.h), 0);
    return this.backTexture;
  }

  /** A blurred rounded shadow, `SHADOW_PAD` larger than the card on every side. */
  shadow(): Texture {
    this.shadowTexture ??= this.bake(drawShadow(this.w, this.h), SHADOW_PAD);
    return this.shadowTexture;
  }

  /** How many textures are baked now (for tests). */
  get baked(): number {
    return this.faces.size + (this.backTexture ? 1 : 0) + (this.shadowTexture ? 1 : 0);
  }

  destroy(): void {
    this.clear();
  }

  private clear(): void {
    for (const t of this.faces.values()) t.destroy(true);
    this.faces.clear();
    this.backTexture?.destroy(true);
    this.shadowTexture?.destroy(true);
    this.backTexture = null;
    this.shadowTexture = null;
  }

  private bake(art: Container, pad: number): Texture {
    const tex = this.renderer.generateTexture({
      target: art,
      frame: new Rectangle(-pad, -pad, this.w + 2 * pad, this.h + 2 * pad),
      resolution: this.renderer.resolution,
      antialias: true,
    });
    art.destroy({ children: true });
    return tex;
  }
}

export const SHADOW_PAD = 6;

function drawShadow(w: number, h: number): Container {
  const g = new Graphics();
  const r = w * 0.08;
  for (let i = SHADOW_PAD; i >= 0; i--) g.roundRect(-i, -i, w + 2 * i, h + 2 * i, r + i).fill({ color: 0x000000, alpha: 0.055 });
  const root = new Container();
  root.addChild(g);
  return root;
}

function drawFace(code: CardCode, w: number, h: number): Container {
  const rank = code[0] as Rank;
  const suit = code[1] as Suit;
  const colour = isRed(suit) ? CARD.red : CARD.black;
  const root = new Container();
  const g = new Graphics();
  root.addChild(g);
  const r = w * 0.08;
  g.roundRect(0.5, 0.5, w - 1, h - 1, r)
    .fill(CARD.face)
    .stroke({ width: 1, color: CARD.edge });

  // Corner indices: rank over a small suit, top-left and (turned) bottom-right.
  const rankSize = Math.max(9, h * 0.17);
  const small = w * 0.13;
  const cx = w * 0.125;
  for (const flip of [false, true]) {
    const t = new Text({
      text: RANK_TEXT[rank],
      style: { fontFamily: SERIF, fontWeight: 'bold', fontSize: rankSize, fill: colour, letterSpacing: rank === 'T' ? -1.5 : 0 },
    });
    t.anchor.set(0.5, 0);
    const top = h * 0.035;
    if (rank === 'T') t.scale.x = 0.82;
    if (flip) {
      t.rotation = Math.PI;
      t.position.set(w - cx, h - top);
    } else {
      t.position.set(cx, top);
    }
    root.addChild(t);
    const sy = top + rankSize * 1.05 + small / 2;
    drawSuit(g, suit, flip ? w - cx : cx, flip ? h - sy : sy, small, colour, flip);
  }

  if (rank === 'A') {
    drawSuit(g, suit, w / 2, h / 2, w * 0.46, colour);
    // A fine ring around the ace's big suit, as on casino decks.
    g.circle(w / 2, h / 2, w * 0.34).stroke({ width: 0.8, color: colour, alpha: 0.25 });
  } else if (rank === 'J' || rank === 'Q' || rank === 'K') {
    drawCourt(root, g, rank, suit, colour, w, h);
  } else {
    const pips = PIPS[rank]!;
    const x0 = w * 0.3;
    const x1 = w * 0.7;
    const y0 = h * 0.2;
    const y1 = h * 0.8;
    const size = rank === 'T' || rank === '9' ? w * 0.19 : w * 0.21;
    for (const [u, v] of pips) drawSuit(g, suit, x0 + u * (x1 - x0), y0 + v * (y1 - y0), size, colour, v > 0.5);
  }
  return root;
}

function drawCourt(root: Container, g: Graphics, rank: Rank, suit: Suit, colour: number, w: number, h: number): void {
  const fx = w * 0.22;
  const fy = h * 0.16;
  const fw = w - 2 * fx;
  const fh = h - 2 * fy;
  const tint = isRed(suit) ? 0xfbe7e2 : 0xe6e9f2;
  g.roundRect(fx, fy, fw, fh, w * 0.04)
    .fill(tint)
    .stroke({ width: 1, color: colour, alpha: 0.75 });
  g.roundRect(fx + 2.5, fy + 2.5, fw - 5, fh - 5, w * 0.03).stroke({ width: 0.6, color: 0xb8923a, alpha: 0.9 });
  // A crown for K and Q, a plain band for J, above the letter.
  const cx = w / 2;
  const crownY = fy + fh * 0.22;
  const cw = fw * 0.5;
  if (rank === 'J') {
    g.roundRect(cx - cw / 2, crownY - fh * 0.02, cw, fh * 0.05, 1).fill(0xc9a13f);
  } else {
    const ch = fh * 0.1;
    const peaks = rank === 'K' ? 3 : 2;
    const pts: number[] = [cx - cw / 2, crownY + ch * 0.4];
    for (let i = 0; i <= peaks * 2; i++) {
      const x = cx - cw / 2 + (cw * i) / (peaks * 2);
      pts.push(x, i % 2 === 0 ? crownY - ch * 0.6 : crownY);
    }
    pts.push(cx + cw / 2, crownY + ch * 0.4);
    g.poly(pts).fill(0xd4ab45).stroke({ width: 0.6, color: 0x8a6a1c });
  }
  const letter = new Text({
    text: rank,
    style: { fontFamily: SERIF, fontWeight: 'bold', fontSize: fh * 0.42, fill: colour },
  });
  letter.anchor.set(0.5);
  letter.position.set(cx, fy + fh * 0.55);
  root.addChild(letter);
  drawSuit(g, suit, cx, fy + fh * 0.87, fw * 0.2, colour);
}

function drawBack(w: number, h: number): Container {
  const root = new Container();
  const g = new Graphics();
  root.addChild(g);
  const r = w * 0.08;
  g.roundRect(0.5, 0.5, w - 1, h - 1, r)
    .fill(CARD.face)
    .stroke({ width: 1, color: CARD.edge });
  const m = Math.max(3, w * 0.07);
  const x0 = m;
  const y0 = m;
  const x1 = w - m;
  const y1 = h - m;
  g.roundRect(x0, y0, x1 - x0, y1 - y0, r * 0.6).fill(CARD.back);
  // A fine gold lattice, clipped by hand to the inner panel.
  const step = Math.max(4, w * 0.1);
  for (let c = -(y1 - x0); c <= x1 - y0; c += step) {
    // y = x - c
    const a = Math.max(x0, y0 + c);
    const b = Math.min(x1, y1 + c);
    if (b > a) g.moveTo(a, a - c).lineTo(b, b - c);
  }
  for (let c = x0 + y0; c <= x1 + y1; c += step) {
    // y = -x + c
    const a = Math.max(x0, c - y1);
    const b = Math.min(x1, c - y0);
    if (b > a) g.moveTo(a, c - a).lineTo(b, c - b);
  }
  g.stroke({ width: 0.8, color: CARD.backGold, alpha: 0.32 });
  g.roundRect(x0 + 2.5, y0 + 2.5, x1 - x0 - 5, y1 - y0 - 5, r * 0.5).stroke({ width: 1, color: CARD.backGold, alpha: 0.85 });
  // The medallion.
  const mw = (x1 - x0) * 0.36;
  const mh = (y1 - y0) * 0.22;
  g.ellipse(w / 2, h / 2, mw, mh)
    .fill(CARD.backDark)
    .stroke({ width: 1.2, color: CARD.backGold });
  g.ellipse(w / 2, h / 2, mw - 3, mh - 3).stroke({ width: 0.6, color: CARD.backGold, alpha: 0.6 });
  drawSuit(g, 'S', w / 2, h / 2, Math.min(mw, mh) * 1.05, CARD.backGold);
  return root;
}
