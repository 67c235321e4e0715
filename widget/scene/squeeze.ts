/**
 * The squeeze (a table's `squeeze` attribute): the backed side's cards stay face down until the
 * player peels them. Display only — the Worker's receipt has decided the round already; the squeeze
 * only holds back the moment its cards are shown, and with them the totals, the banner, the payouts
 * and the voice. A card turns when a drag lifts its corner past SQUEEZE_TURN_AT, on a tap or a key,
 * on "Reveal", or by itself after SQUEEZE_TIMEOUT_MS, so no squeeze ever stalls a table.
 *
 * The peel is drawn without masks (the table's renderer has none, pixi.ts): the card's rectangle is
 * cut along the fold line into polygons filled with the card's own textures — the back where the
 * card still lies, the face where it is lifted, and the lifted flap (the back, mirrored over the fold).
 */
import type { Bet } from '../../shared/table.ts';
import type { CardArt } from './cards.ts';
import type { Hand, SceneMotion } from './motion.ts';
import type { CardView } from './pieces.ts';
import { Graphics, Matrix } from './pixi.ts';
import type { SqueezeCard } from './types.ts';

/** A squeezed card not turned this long after it was dealt turns by itself. */
export const SQUEEZE_TIMEOUT_MS = 6000;
/** A card turns once its corner is lifted this share of its diagonal. */
export const SQUEEZE_TURN_AT = 0.5;

export interface Point {
  x: number;
  y: number;
}

/**
 * The side whose cards the player squeezes: the one with the larger stake of Player and Banker (all
 * sectors together); Player when they are equal, when none was staked, or only Tie.
 */
export function squeezedHand(bets: readonly Pick<Bet, 'box' | 'amount'>[]): Hand {
  let player = 0;
  let banker = 0;
  for (const b of bets) {
    if (b.box === 'player') player += b.amount;
    else if (b.box === 'banker') banker += b.amount;
  }
  return banker > player ? 'banker' : 'player';
}

/** A card of `w` × `h` (centred on 0, 0) peeled along a drag from `from` to `to` (card-local px). */
export interface Peel {
  /** How far the corner is lifted, as a share of the diagonal (0–1). */
  progress: number;
  /** Where the card still lies (its back shows). */
  back: Point[];
  /** Where it is lifted (its face shows). */
  under: Point[];
  /** The lifted flap folded over the card. */
  flap: Point[];
  /** The fold's mirror as an affine map [a, b, c, d, tx, ty] (x' = a x + c y + tx, y' = b x + d y + ty). */
  mirror: [number, number, number, number, number, number];
}

/**
 * The peel of a drag: the corner nearest where it began is pulled towards the card's centre, as far
 * as the drag went that way; the fold lies halfway, so the lifted corner stays under the pointer.
 */
export function peelOf(w: number, h: number, from: Point, to: Point): Peel {
  const corner = { x: from.x < 0 ? -w / 2 : w / 2, y: from.y < 0 ? -h / 2 : h / 2 };
  const diagonal = Math.hypot(w, h);
  const d = { x: -corner.x / (diagonal / 2), y: -corner.y / (diagonal / 2) };
  const lift = Math.min(diagonal, Math.max(0, (to.x - from.x) * d.x + (to.y - from.y) * d.y));
  const fold = corner.x * d.x + corner.y * d.y + lift / 2;
  const side = (p: Point): number => p.x * d.x + p.y * d.y - fold;
  const card = [
    { x: -w / 2, y: -h / 2 },
    { x: w / 2, y: -h / 2 },
    { x: w / 2, y: h / 2 },
    { x: -w / 2, y: h / 2 },
  ];
  const under = clip(card, (p) => -side(p));
  const [a, b, c, dd] = [1 - 2 * d.x * d.x, -2 * d.x * d.y, -2 * d.x * d.y, 1 - 2 * d.y * d.y];
  const mirror: Peel['mirror'] = [a, b, c, dd, 2 * fold * d.x, 2 * fold * d.y];
  return {
    progress: lift / diagonal,
    back: clip(card, side),
    under,
    flap: under.map((p) => ({ x: a * p.x + c * p.y + mirror[4], y: b * p.x + dd * p.y + mirror[5] })),
    mirror,
  };
}

/** The part of a convex polygon where `f` ≥ 0 (f linear). */
function clip(poly: readonly Point[], f: (p: Point) => number): Point[] {
  const out: Point[] = [];
  poly.forEach((p, i) => {
    const q = poly[(i + 1) % poly.length]!;
    const fp = f(p);
    const fq = f(q);
    if (fp >= 0) out.push(p);
    if (fp >= 0 !== fq >= 0) {
      const t = fp / (fp - fq);
      out.push({ x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t });
    }
  });
  return out;
}

const flat = (points: readonly Point[]): number[] => points.flatMap((p) => [p.x, p.y]);

/** The squeezed cards of the round on the felt: which wait for the player, their peel, their turn. */
export class CardSqueeze {
  /** Resolves after `ms` of real time (not the animator's: reduced motion still waits). Tests put their own clock here. */
  clock: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  readonly #motion: SceneMotion;
  readonly #art: CardArt;
  readonly #cards: readonly CardView[];
  readonly #turn: (v: CardView) => Promise<void>;
  /** The cards waiting to be turned, and what their hold resolves. */
  readonly #waiting = new Map<CardView, () => void>();
  readonly #peels = new Map<CardView, Graphics>();
  /** Bumped by release: a timeout of an earlier hold turns nothing. */
  #generation = 0;

  constructor(motion: SceneMotion, art: CardArt, cards: readonly CardView[], turn: (v: CardView) => Promise<void>) {
    this.#motion = motion;
    this.#art = art;
    this.#cards = cards;
    this.#turn = turn;
  }

  /** Waits until each of `views` (dealt face down) has been turned: by the player, Reveal or the timeout. */
  async hold(views: readonly CardView[]): Promise<void> {
    const generation = this.#generation;
    const turned = views.map((v) => new Promise<void>((resolve) => this.#waiting.set(v, resolve)));
    // The squeeze turned off during the deal: these turn as any card does.
    if (!this.#motion.opts.squeeze) this.turn('all');
    this.tell();
    void this.clock(SQUEEZE_TIMEOUT_MS).then(() => {
      if (generation === this.#generation) for (const v of views) this.#turnCard(v);
    });
    await Promise.all(turned);
  }

  /** The cards waiting now, by their index among the round's cards, with their rect (table px). */
  waiting(): SqueezeCard[] {
    const out: SqueezeCard[] = [];
    this.#cards.forEach((v, card) => {
      if (!this.#waiting.has(v)) return;
      const b = v.face.getBounds();
      out.push({ card, hand: v.hand, slot: v.slot, rect: { x: b.x, y: b.y, w: b.width, h: b.height } });
    });
    return out;
  }

  /** Tells the element which cards wait (after a change). */
  tell(): void {
    this.#motion.opts.onSqueeze?.(this.waiting());
  }

  /** A new layout: a lifted corner falls back (the card is another size now), and the cards' new places are told. */
  relayout(): void {
    for (const v of [...this.#peels.keys()]) this.#unpeel(v);
    this.tell();
  }

  /** How many cards are lifted now, for tests. */
  get peeling(): number {
    return this.#peels.size;
  }

  /**
   * A drag on card `card` from `from` to `to` (table px): its corner lifts; past SQUEEZE_TURN_AT the
   * card turns. `done` (the pointer let go) short of it: the corner falls back, or under reduced motion
   * (nothing is drawn) the card turns.
   */
  peel(card: number, from: Point, to: Point, done: boolean): void {
    const v = this.#cards[card];
    if (!v || !this.#waiting.has(v)) return;
    const tex = v.face.texture;
    const peel = peelOf(tex.width, tex.height, v.toLocal(from), v.toLocal(to));
    const drawn = this.#motion.speed > 0;
    if (peel.progress >= SQUEEZE_TURN_AT || (done && !drawn)) {
      this.#turnCard(v);
      return;
    }
    if (done || !drawn || peel.progress === 0) {
      this.#unpeel(v);
      return;
    }
    let g = this.#peels.get(v);
    if (!g) {
      g = new Graphics();
      this.#peels.set(v, g);
      v.addChild(g);
    }
    this.#draw(g, v, peel);
    v.face.visible = false;
    this.#motion.invalidate();
  }

  /** Turns card `card`, or every card waiting. */
  turn(card: number | 'all'): void {
    for (const v of card === 'all' ? [...this.#waiting.keys()] : [this.#cards[card]]) if (v) this.#turnCard(v);
  }

  /** The round leaves the felt: nothing waits any more (the holds resolve; the deal sees the round is over). */
  release(): void {
    this.#generation++;
    const waiting = [...this.#waiting.values()];
    this.#waiting.clear();
    for (const v of [...this.#peels.keys()]) this.#unpeel(v);
    for (const resolve of waiting) resolve();
    this.tell();
  }

  #turnCard(v: CardView): void {
    const resolve = this.#waiting.get(v);
    if (!resolve) return;
    this.#waiting.delete(v);
    this.#unpeel(v);
    this.tell();
    void this.#turn(v).then(resolve);
  }

  #unpeel(v: CardView): void {
    const g = this.#peels.get(v);
    if (!g) return;
    this.#peels.delete(v);
    g.destroy();
    v.face.visible = true;
    this.#motion.invalidate();
  }

  #draw(g: Graphics, v: CardView, peel: Peel): void {
    const { width: w, height: h } = v.face.texture;
    // Texture fills in the card's own frame (centred): the matrix maps texture px onto it.
    const place = new Matrix(1, 0, 0, 1, -w / 2, -h / 2);
    const [a, b, c, d, tx, ty] = peel.mirror;
    const mirrored = new Matrix(a, b, c, d, tx + w / 2, ty + h / 2).invert();
    const back = this.#art.back();
    g.clear();
    if (peel.back.length > 2) g.poly(flat(peel.back)).fill({ texture: back, matrix: place, textureSpace: 'global' });
    if (peel.under.length > 2) {
      g.poly(flat(peel.under)).fill({ texture: this.#art.face(v.code), matrix: place, textureSpace: 'global' });
      g.poly(flat(peel.flap.map((p) => ({ x: p.x + 2, y: p.y + 3 })))).fill({ color: 0x000000, alpha: 0.3 });
      // The flap is the back's underside: the back, mirrored over the fold, in shade and outlined (its lattice would run on unbroken).
      g.poly(flat(peel.flap))
        .fill({ texture: back, matrix: mirrored, textureSpace: 'global', color: 0xa8a8a8 })
        .stroke({ width: 1, color: 0x000000, alpha: 0.35 });
    }
  }
}
