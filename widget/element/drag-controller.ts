/**
 * Dragging on the felt, as a reactive controller: a chip from the selector dropped on a box, or a
 * box's bet moved to another box (or off the table, which removes it). A press becomes a drag past
 * a few pixels; until then it stays a tap, and the click that ends a drag is not taken for one.
 * It owns the ghost under the pointer and the box it would land on; the bets change through the
 * table (its limits and balance checks, its announcements).
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Box } from '../../shared/table.ts';
import type { Spot } from './bets.ts';

/** Pointer travel (CSS px) that turns a press into a drag. */
const DRAG_THRESHOLD = 6;
/** How long after a drag a click still belongs to it. */
const CLICK_AFTER_DRAG_MS = 400;

/** What the drag needs of its table. */
export interface DragLink {
  /** Whether bets may change now. */
  canBet(): boolean;
  amountAt(at: Spot): number;
  /** The room's chips (minor units), smallest first. */
  chips(): readonly number[];
  /** Lights the box a drop would land on (null: none). */
  highlight(at: Spot | null): void;
  /** A chip of `amount` dropped on a box. */
  dropChip(at: Spot, amount: number): void;
  /** A box's bet dropped on another box. */
  move(from: Spot, to: Spot): void;
  /** A box's bet dropped off the table. */
  remove(from: Spot): void;
}

export interface DragHost extends ReactiveControllerHost {
  readonly renderRoot: HTMLElement | DocumentFragment;
}

/** The chip drawn under the pointer, in stage coordinates, with its colour tone (1–6). */
export interface Ghost {
  x: number;
  y: number;
  amount: number;
  tone: number;
}

interface Press {
  pointerId: number;
  x0: number;
  y0: number;
  chip?: number;
  from?: Spot;
  dragging: boolean;
  target: HTMLElement;
}

export class DragController implements ReactiveController {
  readonly #host: DragHost;
  readonly #link: DragLink;
  #press: Press | null = null;
  #suppressClickUntil = 0;
  #ghost: Ghost | null = null;
  #dropTarget: string | null = null;

  constructor(host: DragHost, link: DragLink) {
    this.#host = host;
    this.#link = link;
    host.addController(this);
  }

  hostDisconnected(): void {
    this.#endPress();
  }

  /** The dragged chip, if a drag is under way. */
  get ghost(): Ghost | null {
    return this.#ghost;
  }

  /** The box (`sector:box`) a drop would land on. */
  get dropTarget(): string | null {
    return this.#dropTarget;
  }

  /** The click that follows a drag's pointerup belongs to the drag, not to a tap. */
  get clickSuppressed(): boolean {
    return performance.now() < this.#suppressClickUntil;
  }

  /** A press on a chip of the selector (`chip`) or on a box with a bet (`from`). */
  pointerDown(e: PointerEvent, source: { chip?: number; from?: Spot }): void {
    if (e.button !== 0 || e.ctrlKey || e.metaKey || !this.#link.canBet()) return;
    if (source.from && this.#link.amountAt(source.from) === 0) return;
    this.#endPress();
    const target = e.currentTarget as HTMLElement;
    this.#press = { pointerId: e.pointerId, x0: e.clientX, y0: e.clientY, ...source, dragging: false, target };
    try {
      target.setPointerCapture(e.pointerId); // keeps the drag when the finger leaves the chip
    } catch {
      // a pointer the browser does not track (synthetic events): moves still reach the target
    }
    target.addEventListener('pointermove', this.#onPointerMove);
    target.addEventListener('pointerup', this.#onPointerUp);
    target.addEventListener('pointercancel', this.#onPointerCancel);
  }

  #onPointerMove = (e: PointerEvent): void => {
    const press = this.#press;
    if (!press || e.pointerId !== press.pointerId) return;
    if (!press.dragging && Math.hypot(e.clientX - press.x0, e.clientY - press.y0) < DRAG_THRESHOLD) return;
    press.dragging = true;
    const stage = this.#host.renderRoot.querySelector('.stage')!.getBoundingClientRect();
    const amount = press.chip ?? (press.from ? this.#link.amountAt(press.from) : 0);
    const chips = this.#link.chips();
    const tone = press.chip !== undefined ? chips.indexOf(press.chip) + 1 : toneOf(amount, chips);
    this.#ghost = { x: e.clientX - stage.left, y: e.clientY - stage.top, amount, tone };
    const over = this.#spotAt(e.clientX, e.clientY);
    const key = over ? `${over.sector}:${over.box}` : null;
    if (key !== this.#dropTarget) {
      this.#dropTarget = key;
      this.#link.highlight(over);
    }
    this.#host.requestUpdate();
  };

  #onPointerUp = (e: PointerEvent): void => {
    const press = this.#press;
    if (!press || e.pointerId !== press.pointerId) return;
    this.#endPress();
    if (!press.dragging) return;
    this.#suppressClickUntil = performance.now() + CLICK_AFTER_DRAG_MS;
    const over = this.#spotAt(e.clientX, e.clientY);
    if (press.chip !== undefined) {
      if (over) this.#link.dropChip(over, press.chip);
    } else if (press.from) {
      const from = press.from;
      if (!over)
        this.#link.remove(from); // dragged off the table
      else if (over.sector !== from.sector || over.box !== from.box) this.#link.move(from, over);
    }
  };

  #onPointerCancel = (): void => this.#endPress();

  #endPress(): void {
    const press = this.#press;
    this.#press = null;
    if (press) {
      press.target.removeEventListener('pointermove', this.#onPointerMove);
      press.target.removeEventListener('pointerup', this.#onPointerUp);
      press.target.removeEventListener('pointercancel', this.#onPointerCancel);
      if (press.target.hasPointerCapture?.(press.pointerId)) press.target.releasePointerCapture(press.pointerId);
    }
    if (this.#ghost || this.#dropTarget) {
      this.#ghost = null;
      this.#dropTarget = null;
      this.#link.highlight(null);
      this.#host.requestUpdate();
    }
  }

  /** The betting box under a viewport point, if any. */
  #spotAt(x: number, y: number): Spot | null {
    const root = this.#host.renderRoot as ShadowRoot;
    const hit = root.elementsFromPoint?.(x, y).find((el) => el instanceof HTMLElement && el.classList.contains('box')) as HTMLElement | undefined;
    if (!hit) return null;
    return { sector: Number(hit.dataset.sector), box: hit.dataset.box as Box };
  }
}

/** The tone (1–6) of the largest chip not above `amount`, for a dragged stack. */
function toneOf(amount: number, chips: readonly number[]): number {
  let tone = 1;
  chips.forEach((chip, index) => {
    if (chip <= amount) tone = index + 1;
  });
  return tone;
}
