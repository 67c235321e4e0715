/**
 * Casino chips: a baked texture per denomination (edge stripes, dashed ring, inlay with the value)
 * and chip stacks built from those textures, with the stack's amount on a small pill.
 */
import { Container, Graphics, Rectangle, type Renderer, Sprite, Text, type Texture } from './pixi.ts';
import { chipSheen } from './gradients.ts';
import { type ChipColours, chipColours, chipLabel, chipPalette, SANS } from './palette.ts';

/** Bakes and caches chip textures for one renderer. */
export class ChipArt {
  private readonly renderer: Renderer;
  private readonly cache = new Map<number, Texture>();
  private d = 0;
  private denominations: readonly number[] = [];
  private palette: ReadonlyMap<number, ChipColours> = new Map();
  /** The value printed on a chip (the element's money unit: play money by default, a wallet session's currency). */
  private label: (minor: number) => string = chipLabel;

  constructor(renderer: Renderer) {
    this.renderer = renderer;
  }

  get diameter(): number {
    return this.d;
  }

  /** Sets the chip diameter (CSS px) and the room's chips (ascending); drops stale textures. */
  configure(diameter: number, denominations: readonly number[]): void {
    const d = Math.round(diameter);
    const same = d === this.d && denominations.length === this.denominations.length && denominations.every((c, i) => c === this.denominations[i]);
    if (same) return;
    this.clear();
    this.d = d;
    this.denominations = [...denominations];
    this.palette = chipPalette(denominations);
  }

  /** Prints chip values with `label` from now on; true when that changed the room's chips (their textures are dropped). */
  relabel(label: (minor: number) => string): boolean {
    const changed = this.denominations.some((c) => label(c) !== this.label(c));
    this.label = label;
    if (changed) this.clear();
    return changed;
  }

  /** The colours a chip of `minor` is drawn in (the shared palette's entry for this room). */
  coloursOf(minor: number): ChipColours {
    return this.palette.get(minor) ?? chipColours(minor, this.denominations);
  }

  get chips(): readonly number[] {
    return this.denominations;
  }

  texture(minor: number): Texture {
    let tex = this.cache.get(minor);
    if (!tex) {
      const art = this.draw(minor, this.coloursOf(minor));
      tex = this.renderer.generateTexture({
        target: art,
        frame: new Rectangle(0, 0, this.d, this.d),
        resolution: this.renderer.resolution,
        antialias: true,
      });
      art.destroy({ children: true });
      this.cache.set(minor, tex);
    }
    return tex;
  }

  destroy(): void {
    this.clear();
  }

  private clear(): void {
    for (const t of this.cache.values()) t.destroy(true);
    this.cache.clear();
  }

  private draw(minor: number, c: ChipColours): Container {
    const d = this.d;
    const r = d / 2;
    const root = new Container();
    const g = new Graphics();
    root.addChild(g);
    g.circle(r, r, r - 0.5).fill(c.base);
    // Six edge inserts, as on real clay chips.
    const inserts = 6;
    const half = Math.PI / inserts / 2.2;
    for (let i = 0; i < inserts; i++) {
      const a = (i * 2 * Math.PI) / inserts - Math.PI / 2;
      g.moveTo(r + (r - 0.5) * Math.cos(a - half), r + (r - 0.5) * Math.sin(a - half))
        .arc(r, r, r - 0.5, a - half, a + half)
        .arc(r, r, r * 0.76, a + half, a - half, true)
        .closePath();
    }
    g.fill(c.stripe);
    g.circle(r, r, r - 0.5).fill(chipSheen());
    g.circle(r, r, r - 0.75).stroke({ width: 1, color: 0x000000, alpha: 0.45 });
    // A dashed ring inside the inserts.
    const dashes = 16;
    for (let i = 0; i < dashes; i++) {
      const a = (i * 2 * Math.PI) / dashes;
      g.moveTo(r + r * 0.7 * Math.cos(a), r + r * 0.7 * Math.sin(a)).arc(r, r, r * 0.7, a, a + (Math.PI / dashes) * 1.1);
    }
    g.stroke({ width: Math.max(1, d * 0.035), color: c.stripe, alpha: 0.9 });
    g.circle(r, r, r * 0.58)
      .fill(c.inlay)
      .stroke({ width: Math.max(1, d * 0.03), color: c.base });
    const label = this.label(minor);
    const t = new Text({
      text: label,
      style: { fontFamily: SANS, fontWeight: 'bold', fontSize: d * (label.length > 3 ? 0.22 : 0.28), fill: c.text },
    });
    t.anchor.set(0.5);
    t.position.set(r, r + d * 0.01);
    if (t.width > d * 0.52) t.scale.set((d * 0.52) / t.width);
    root.addChild(t);
    return root;
  }
}

/** Splits an amount into chips, largest first (greedy; the room's chips all divide the step). */
export function chipsFor(amount: number, chips: readonly number[]): number[] {
  const out: number[] = [];
  let left = amount;
  const desc = [...chips].sort((a, b) => b - a);
  for (const c of desc) {
    while (left >= c && out.length < 64) {
      out.push(c);
      left -= c;
    }
  }
  // Whatever no chip covers (amounts off the chip grid) still shows as one smallest chip.
  if (left > 0 && desc.length > 0) out.push(desc[desc.length - 1]!);
  return out;
}

/** How many chips a stack shows at most (low, so a stack never hides its box's name); the pill shows the exact amount. */
export const MAX_STACK = 5;

/** How many chips a stack of `amount` shows. */
export function stackChips(amount: number, chips: readonly number[]): number {
  return Math.min(MAX_STACK, chipsFor(amount, chips).length);
}

/** How far each chip of a stack stands above the one under it. */
export function chipRise(diameter: number): number {
  return Math.max(2, diameter * 0.085);
}

/** What a stack's pill says: a bet, a payout ("+6.65") or a stake a tie hands back. */
export type PillKind = 'bet' | 'win' | 'returned';

const PILL: Readonly<Record<PillKind, { fill: number; line: number; text: number }>> = {
  bet: { fill: 0x0b1a12, line: 0xd9b55e, text: 0xffffff },
  win: { fill: 0x1f5a2e, line: 0xf3dc9a, text: 0xfff4c8 },
  returned: { fill: 0x26303a, line: 0xb8c4cf, text: 0xe3eaf0 },
};

/** One stack of chips with its amount: bottom chip at the container's origin. */
export class ChipStack extends Container {
  private readonly sprites: Sprite[] = [];
  private readonly pill = new Graphics();
  private readonly amountText: Text;
  amount = 0;
  /** The text on the pill. */
  caption = '';
  /** What the pill says (its colours). */
  kind: PillKind = 'bet';

  constructor() {
    super();
    this.amountText = new Text({ text: '', style: { fontFamily: SANS, fontWeight: 'bold', fontSize: 11, fill: 0xffffff } });
    this.amountText.anchor.set(0.5);
    this.addChild(this.pill, this.amountText);
  }

  /**
   * Lays the pill along its box: turned by the box's `angle`, under the stack (outwards) or, where
   * that would cross the ring's outer edge, against it, and slid along the box so that both ends
   * stay on it.
   * `frame` is the stack's place in its box: `along` and `across` (outwards) from the box's centre
   * line and middle radius, and the box's half length (at the pill) and half thickness.
   */
  keepPillWithin(frame: { angle: number; along: number; across: number; halfAlong: (across: number) => number; halfAcross: number }): void {
    if (!this.pill.visible) return;
    const pad = 5;
    const { pw, ph } = this;
    const under = this.diameter / 2 + ph / 2 + 2;
    // Where that crosses the ring's outer edge (a thin ring), it stands against the edge, over the
    // stack's foot: never above the stack, where the box's name is printed.
    const v = Math.min(under, frame.halfAcross - pad - ph / 2 - frame.across);
    const half = Math.max(pw / 2, frame.halfAlong(frame.across + v) - pad);
    const u = Math.min(half - pw / 2, Math.max(-half + pw / 2, frame.along + this.pillAlong)) - frame.along;
    this.placePill(u, v, frame.angle);
  }

  /** Puts the pill (and its text) at (`u`, `v`) of the frame turned by `angle`, about the stack's base. */
  private placePill(u: number, v: number, angle: number): void {
    const c = Math.cos(angle);
    const n = Math.sin(angle);
    const x = u * c - v * n;
    const y = u * n + v * c;
    this.pill.position.set(x, y);
    this.pill.rotation = angle;
    this.amountText.position.set(x, y);
    this.amountText.rotation = angle;
    this.pillAt = { x, y, angle };
  }

  private pw = 0;
  private ph = 0;
  private pillAlong = 0;
  private diameter = 0;
  private pillAt = { x: 0, y: 0, angle: 0 };

  /** The pill's centred, unturned rect and its turn in the parent's coordinates (null when hidden): for the layout tests. */
  pillRect(): { x: number; y: number; w: number; h: number; angle: number } | null {
    if (!this.visible || !this.pill.visible || this.alpha <= 0) return null;
    const { x, y, angle } = this.pillAt;
    return { x: this.x + x - this.pw / 2, y: this.y + y - this.ph / 2, w: this.pw, h: this.ph, angle };
  }

  /** The y of the top chip's centre, relative to the stack's origin. */
  topChipY(): number {
    let y = 0;
    for (const s of this.sprites) if (s.visible) y = s.y;
    return y;
  }

  /** Rebuilds the stack for `amount` (instant). `label` is the formatted amount; '' hides the pill. */
  /**
   * `away`: which way the pill reaches from under the chip (-1 left, 1 right, 0 centred), so that it
   * points away from the box's printed name.
   */
  show(art: ChipArt, amount: number, label: string, kind: PillKind = 'bet', away: -1 | 0 | 1 = 0): void {
    this.amount = amount;
    this.caption = label;
    this.kind = kind;
    const pill = PILL[kind];
    const d = art.diameter;
    const list = chipsFor(amount, art.chips).slice(0, MAX_STACK);
    const rise = chipRise(d);
    for (let i = 0; i < list.length; i++) {
      let s = this.sprites[i];
      if (!s) {
        s = new Sprite();
        s.anchor.set(0.5);
        this.sprites.push(s);
        this.addChildAt(s, i);
      }
      s.texture = art.texture(list[list.length - 1 - i]!);
      s.visible = true;
      s.position.set(0, -i * rise);
      // Lower chips a touch darker: reads as depth.
      s.tint = i === list.length - 1 ? 0xffffff : 0xd8d8d8;
    }
    for (let i = list.length; i < this.sprites.length; i++) this.sprites[i]!.visible = false;
    this.amountText.text = label;
    this.amountText.style.fontSize = Math.max(10, Math.round(d * 0.36));
    this.amountText.style.fill = pill.text;
    const pw = this.amountText.width + 10;
    const ph = this.amountText.height + 2;
    this.pw = pw;
    this.ph = ph;
    this.diameter = d;
    this.pillAlong = away * Math.max(0, pw / 2 - d / 2);
    this.pill.clear();
    this.pill.visible = label !== '';
    if (label) {
      this.pill
        .roundRect(-pw / 2, -ph / 2, pw, ph, ph / 2)
        .fill({ color: pill.fill, alpha: 0.82 })
        .stroke({ width: 1, color: pill.line, alpha: 0.8 });
    }
    // Under the stack until the scene lays it along its box (keepPillWithin).
    this.placePill(this.pillAlong, d / 2 + ph / 2 + 2, 0);
    this.amountText.visible = label !== '';
  }
}
