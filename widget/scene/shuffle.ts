/**
 * The shuffle and the player's cut, seen from the side: the shoe's cards as a long brick of card
 * edges in the middle of the table. The brick splits in two halves for the riffle; then a yellow cut
 * card marks where the player cut, the brick parts there and the two parts swap. Drawn once per
 * layout; the choreography (shoe-moves.ts) only moves the parts.
 */
import { Container, Graphics } from './pixi.ts';
import type { Rect } from '../layout.ts';

/** The plastic cut card's colour. */
export const CUT_CARD = { face: 0xf2c230, edge: 0x8a6a08 } as const;

/** Draws a run of card edges `w` × `h` with its top-left at (0, 0). */
export function brick(g: Graphics, w: number, h: number): void {
  g.clear();
  if (w <= 0) return;
  g.roundRect(0, 0, w, h, 2).fill(0xece3cc).stroke({ width: 1, color: 0x8d8068, alpha: 0.9 });
  for (let x = 2; x < w - 1; x += 3) g.moveTo(x, 1).lineTo(x, h - 1);
  g.stroke({ width: 0.6, color: 0x8d8068, alpha: 0.55 });
  g.rect(0, 0, w, Math.max(1, h * 0.12)).fill({ color: 0xffffff, alpha: 0.25 });
}

export class ShuffleView extends Container {
  /** The two parts of the stack: `front` is dealt first. */
  readonly front = new Graphics();
  readonly back = new Graphics();
  /** The player's cut card, standing in the stack where it was cut. */
  readonly marker = new Graphics();
  private w = 0;
  private h = 0;

  constructor() {
    super();
    this.addChild(this.back, this.front, this.marker);
    this.visible = false;
  }

  /** The brick's full width and height for a table whose result area is `rect`. */
  layout(rect: Rect): void {
    this.w = Math.round(Math.min(rect.w * 0.8, 420));
    this.h = Math.round(Math.max(12, Math.min(rect.h * 0.6, 34)));
    this.position.set(rect.x + rect.w / 2, rect.y + rect.h / 2);
  }

  get size(): { w: number; h: number } {
    return { w: this.w, h: this.h };
  }

  /**
   * Splits the brick at `fraction` of its width (0 < fraction < 1): the front part on the left, the
   * back part on the right, the marker between them; returns the parts' resting x (their left edges).
   */
  split(fraction: number): { front: number; back: number; at: number } {
    const cut = Math.round(this.w * Math.min(0.95, Math.max(0.05, fraction)));
    brick(this.front, cut, this.h);
    brick(this.back, this.w - cut, this.h);
    const left = -this.w / 2;
    this.front.position.set(left, -this.h / 2);
    this.back.position.set(left + cut, -this.h / 2);
    this.marker.clear();
    this.marker
      .rect(-1.5, -this.h * 0.75, 3, this.h * 1.5)
      .fill(CUT_CARD.face)
      .stroke({ width: 0.8, color: CUT_CARD.edge });
    this.marker.position.set(left + cut, 0);
    this.marker.alpha = 0;
    return { front: left, back: left + cut, at: left + cut };
  }
}
