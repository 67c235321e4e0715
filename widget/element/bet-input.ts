/**
 * The bet boxes' and the chip tray's input, as a reactive controller of <punto-banco-table>: a
 * click, a key or a drag on a box places, removes or moves a bet; the tray picks the chip in hand.
 * Every change goes through one gate (`#change`): allowed only while the table takes bets, refused
 * with the reason, said in the live region when made. It owns the bets (bet-state.ts) and the
 * dragging (drag-controller.ts); the element's public bet methods call it.
 */
import type { ReactiveControllerHost } from 'lit';
import { type Bet, type TableLimits, totalStake } from '../../shared/table.ts';
import { type BetChange, BetState } from './bet-state.ts';
import type { BetProblem, Spot } from './bets.ts';
import { DragController } from './drag-controller.ts';
import { emit } from './emit.ts';
import type { TableScene } from '../scene/types.ts';
import { boxAfterKey } from './view.ts';

/** What the element lends the input. */
export interface BetInputLink {
  /** The table takes bets now (a session open, no round in play, no question asked). */
  canBet(): boolean;
  limits(): TableLimits | null;
  balance(): number;
  scene(): TableScene | null;
  t(key: string, values?: Record<string, string | number>): string;
  money(minor: number): string;
  /** A refused change: the reason goes up as a toast. */
  refuse(error: BetProblem | { code: string; message: string }): void;
  /** A change went through: the refusal on screen goes, the session hears of it. */
  changed(): void;
  announce(text: string): void;
}

export interface BetInputHost extends ReactiveControllerHost, HTMLElement {
  readonly renderRoot: HTMLElement | DocumentFragment;
}

export class BetInput {
  readonly bets: BetState;
  readonly drag: DragController;
  /** The box in the Tab order (the arrow keys move it). */
  activeBox: Spot = { sector: 0, box: 'player' };
  #host: BetInputHost;
  #link: BetInputLink;

  constructor(host: BetInputHost, link: BetInputLink) {
    this.#host = host;
    this.#link = link;
    const bets = (this.bets = new BetState(host, (all) => this.#betsChanged(all)));
    this.drag = new DragController(host, {
      canBet: () => link.canBet(),
      amountAt: (at) => bets.amountAt(at),
      chips: () => link.limits()?.chips ?? [],
      highlight: (at) => this.highlight(at),
      dropChip: (at, chip) =>
        this.#change(
          (l, b) => bets.addChip(at, chip, l, b),
          () => link.t('betPlaced', this.#spotText(at)),
        ),
      move: (from, to) =>
        this.#change(
          (l, b) => bets.move(from, to, l, b),
          () => link.t('betPlaced', this.#spotText(to)),
        ),
      remove: (from) => this.remove(from),
    });
  }

  // ---- the element's bet methods -------------------------------------------------------------

  /** Adds the selected chip (or the minimum) to a box. */
  place(at: Spot): boolean {
    return this.#change(
      (l, b) => this.bets.add(at, l, b),
      () => this.#link.t('betPlaced', this.#spotText(at)),
    );
  }

  remove(at: Spot): boolean {
    if (!this.bets.amountAt(at)) return false;
    return this.#change(
      () => this.bets.remove(at),
      () => this.#link.t('betRemoved', this.#spotText(at)),
    );
  }

  select(amount: number | null): void {
    this.bets.selectedChip = amount;
    this.#host.requestUpdate();
  }

  clear(): boolean {
    return this.#change(
      () => this.bets.clear(),
      () => this.#link.t('betsCleared'),
    );
  }

  undo(): boolean {
    return this.#change(
      () => this.bets.undo(),
      () => this.#totalText(),
    );
  }

  double(): boolean {
    return this.#change(
      (l, b) => this.bets.double(l, b),
      () => this.#totalText(),
    );
  }

  repeat(): boolean {
    return this.#change(
      (l, b) => this.bets.repeat(l, b),
      () => this.#totalText(),
    );
  }

  // ---- the view's handlers ---------------------------------------------------------------------

  boxClick(e: MouseEvent, at: Spot): void {
    if (this.drag.clickSuppressed) return;
    if (e.ctrlKey || e.metaKey) this.remove(at);
    else if (this.bets.selectedChip === null && this.bets.amountAt(at) > 0) this.remove(at);
    else this.place(at);
  }

  boxKey(e: KeyboardEvent, at: Spot): void {
    const next = boxAfterKey(at, e.key);
    if (next) {
      e.preventDefault();
      this.boxFocus(next);
      this.#host.renderRoot.querySelector<HTMLElement>(`.box[data-sector="${next.sector}"][data-box="${next.box}"]`)?.focus();
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      if (!e.repeat) this.place(at);
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      this.remove(at);
    }
  }

  boxFocus(at: Spot): void {
    this.activeBox = at;
    this.#host.requestUpdate();
  }

  boxContextMenu(e: MouseEvent, at: Spot): void {
    e.preventDefault();
    this.remove(at);
  }

  highlight(at: Spot | null): void {
    this.#link.scene()?.setHighlight(at);
  }

  /**
   * «Бросить»: the pointer leaves the playing field, the chip in hand goes back to the tray. Not
   * during a drag (the drag controller owns the pointer then) nor for touch (a finger lifting off
   * is no decision to put the chip back).
   */
  leaveField(e: PointerEvent): void {
    if (e.pointerType !== 'mouse' && e.pointerType !== 'pen') return;
    if (this.drag.ghost || this.bets.selectedChip == null) return;
    this.select(null);
  }

  chipClick(amount: number): void {
    if (this.drag.clickSuppressed) return;
    this.select(this.bets.selectedChip === amount ? null : amount);
  }

  // ---- the gate --------------------------------------------------------------------------------

  /** Applies a bet change: on success leaves the settled/error state; on refusal explains why. */
  #change(run: (limits: TableLimits, balance: number) => BetChange, said?: () => string): boolean {
    const limits = this.#link.limits();
    if (!this.#link.canBet() || !limits) return false;
    const result = run(limits, this.#link.balance());
    if (!result.ok) {
      this.#link.refuse(result.error);
      return false;
    }
    this.#link.changed();
    if (said) this.#link.announce(said());
    return true;
  }

  #betsChanged(bets: readonly Bet[]): void {
    this.#link.scene()?.setBets(bets, this.#link.limits()?.chips ?? []);
    emit(this.#host, 'pb-bet-change', { bets: bets.map((b) => ({ ...b })), total: totalStake(bets) });
  }

  #spotText(at: Spot): Record<string, string | number> {
    return { box: this.#link.t(`box.${at.box}`), sector: at.sector + 1, amount: this.#link.money(this.bets.amountAt(at)) };
  }

  #totalText(): string {
    return `${this.#link.t('bet')}: ${this.#link.money(this.bets.total)}`;
  }
}
