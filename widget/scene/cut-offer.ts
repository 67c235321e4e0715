/**
 * The dealer's offer of the cut, drawn on the felt: the shuffled stack seen from the side (the same
 * brick of card edges the shuffle uses) and the yellow cut card the player pushes into it. The
 * element's DOM lays the offer out and gives the place: a transparent slider over the stack takes
 * the pointer and the keys (drawer-view.ts), and this only draws where it says. The card hovers
 * over the stack at the chosen place until it is dropped; then it stands in the stack, sticking out
 * of its top, until the shuffle and cut take over (shoe-moves.ts). Drawn on each change, never per frame.
 */
import { Container, Graphics } from './pixi.ts';
import type { Rect } from '../layout.ts';
import { brick, CUT_CARD } from './shuffle.ts';

/** What the offer draws: its place (table CSS px), where the card is (0–1 of the stack, from its top) and how. */
export interface CutOfferView {
  place: Rect;
  /** The dark mat under the stack and its hint (the DOM slider's box); none: no mat. */
  mat?: Rect;
  fraction: number;
  /** `hover`: waiting over the stack; `held`: being moved (pointer or keys); `placed`: dropped in, the cut sent. */
  state: 'hover' | 'held' | 'placed';
}

/** The brick's height for a place `h` px high: the card above it is 1.6 bricks tall, with a gap. */
export function cutOfferBrickHeight(h: number): number {
  return Math.round(Math.max(10, Math.min(30, (h - 4) / 2.6)));
}

export class CutOffer extends Container {
  private readonly mat = new Graphics();
  private readonly stack = new Graphics();
  private readonly glow = new Graphics();
  private readonly card = new Graphics();
  /** The last view drawn (null: hidden). */
  private view: CutOfferView | null = null;

  constructor() {
    super();
    this.addChild(this.mat, this.stack, this.glow, this.card);
    this.visible = false;
  }

  /** Draws the offer (null: hides it). */
  show(view: CutOfferView | null): void {
    this.view = view;
    this.visible = view !== null;
    if (!view) return;
    const { place, state, mat } = view;
    // The mat hides what the felt prints there (the plaque, the legend) under the stack.
    this.mat.clear();
    if (mat) this.mat.roundRect(mat.x, mat.y, mat.w, mat.h, 10).fill({ color: 0x081c12, alpha: 0.94 }).stroke({ width: 1, color: 0xd8b45a, alpha: 0.45 });
    const h = cutOfferBrickHeight(place.h);
    const w = Math.max(20, place.w);
    const top = place.y + place.h - h;
    this.stack.position.set(place.x, top);
    brick(this.stack, w, h);
    const x = place.x + this.cardX(view);
    const cardH = h * 1.6;
    const cardW = Math.max(5, Math.round(h * 0.32));
    // Hovering: its foot just over the stack. Placed: down in it, its top still out.
    const cardTop = state === 'placed' ? top - h * 0.6 : top - cardH - 3;
    this.card.clear();
    this.card.roundRect(-cardW / 2 + 1.5, 2.5, cardW, cardH, 2).fill({ color: 0x000000, alpha: 0.3 });
    this.card
      .roundRect(-cardW / 2, 0, cardW, cardH, 2)
      .fill(CUT_CARD.face)
      .stroke({ width: 1, color: CUT_CARD.edge });
    // A grip: three lines across its top.
    for (let i = 0; i < 3; i++) this.card.moveTo(-cardW / 2 + 1.5, 4 + i * 3).lineTo(cardW / 2 - 1.5, 4 + i * 3);
    this.card.stroke({ width: 0.8, color: CUT_CARD.edge, alpha: 0.8 });
    this.card.position.set(x, cardTop);
    this.glow.clear();
    if (state === 'held') {
      this.glow.roundRect(x - cardW / 2 - 4, cardTop - 4, cardW + 8, cardH + 8, 5).fill({ color: CUT_CARD.face, alpha: 0.28 });
      // Where it goes in: a notch on the stack under the card.
      this.glow.rect(x - 1, top, 2, h).fill({ color: CUT_CARD.face, alpha: 0.9 });
    }
  }

  /** The card's x from the place's left edge. */
  private cardX(view: CutOfferView): number {
    return Math.min(1, Math.max(0, view.fraction)) * Math.max(20, view.place.w);
  }

  /** What is drawn, for the scene's inspect() and drawnRects(): the stack, and the card with its state. */
  drawn(): { fraction: number; state: CutOfferView['state']; stack: Rect; card: Rect } | null {
    if (!this.view || !this.visible) return null;
    const s = this.stack.getBounds();
    const c = this.card.getBounds();
    return {
      fraction: this.view.fraction,
      state: this.view.state,
      stack: { x: s.x, y: s.y, w: s.width, h: s.height },
      card: { x: c.x, y: c.y, w: c.width, h: c.height },
    };
  }
}
