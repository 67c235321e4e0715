/**
 * The player's bets between two deals, as a reactive controller: the bets on the felt, the undo
 * history, the previous round's bets (for Repeat) and the selected chip. Each change is checked by
 * the pure steps of bets.ts (which call the shared engine); a refused change leaves everything as
 * it was and returns the engine's error for the element to explain.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Bet, TableLimits } from '../../shared/table.ts';
import { totalStake } from '../../shared/table.ts';
import { addToBox, amountAt, type BetProblem, type BetStep, doubleBets, moveBet, placeMinimum, removeBox, repeatBets, sameBets, type Spot } from './bets.ts';

/** Undo keeps this many steps. */
const MAX_HISTORY = 50;

export type BetChange = { ok: true } | { ok: false; error: BetProblem | { code: 'nothing_to_repeat' | 'nothing_to_undo' | 'no_bets'; message: string } };

export class BetState implements ReactiveController {
  #host: ReactiveControllerHost;
  #onChange: (bets: readonly Bet[]) => void;
  #bets: Bet[] = [];
  #history: Bet[][] = [];
  #previous: Bet[] = [];
  /** The selected chip's value in minor units, or null (then a click on an empty box puts the minimum). */
  selectedChip: number | null = null;

  constructor(host: ReactiveControllerHost, onChange: (bets: readonly Bet[]) => void) {
    this.#host = host;
    this.#onChange = onChange;
    host.addController(this);
  }

  hostConnected(): void {}

  get bets(): readonly Bet[] {
    return this.#bets;
  }

  get total(): number {
    return totalStake(this.#bets);
  }

  get previous(): readonly Bet[] {
    return this.#previous;
  }

  get canUndo(): boolean {
    return this.#history.length > 0;
  }

  amountAt(at: Spot): number {
    return amountAt(this.#bets, at);
  }

  /** Whether Double would be taken now (every doubled bet within the limits and the balance). */
  canDouble(limits: TableLimits, balance: number): boolean {
    return this.#bets.length > 0 && doubleBets(this.#bets, limits, balance).ok;
  }

  /** Click/Enter on a box: the selected chip, or the table minimum when no chip is selected. */
  add(at: Spot, limits: TableLimits, balance: number): BetChange {
    return this.#apply(
      this.selectedChip === null ? placeMinimum(this.#bets, at, limits, balance) : addToBox(this.#bets, at, this.selectedChip, limits, balance, true),
    );
  }

  /** A chip of `amount` dropped on a box. */
  addChip(at: Spot, amount: number, limits: TableLimits, balance: number): BetChange {
    return this.#apply(addToBox(this.#bets, at, amount, limits, balance, true));
  }

  remove(at: Spot): BetChange {
    if (this.amountAt(at) === 0) return { ok: true };
    return this.#apply({ ok: true, value: removeBox(this.#bets, at) });
  }

  move(from: Spot, to: Spot, limits: TableLimits, balance: number): BetChange {
    return this.#apply(moveBet(this.#bets, from, to, limits, balance));
  }

  clear(): BetChange {
    return this.#bets.length === 0 ? { ok: true } : this.#apply({ ok: true, value: [] });
  }

  double(limits: TableLimits, balance: number): BetChange {
    if (this.#bets.length === 0) return { ok: false, error: { code: 'no_bets', message: 'there are no bets to double' } };
    return this.#apply(doubleBets(this.#bets, limits, balance));
  }

  repeat(limits: TableLimits, balance: number): BetChange {
    if (this.#previous.length === 0) return { ok: false, error: { code: 'nothing_to_repeat', message: 'there is no previous round' } };
    return this.#apply(repeatBets(this.#previous, limits, balance));
  }

  undo(): BetChange {
    const last = this.#history.pop();
    if (!last) return { ok: false, error: { code: 'nothing_to_undo', message: 'nothing to undo' } };
    this.#set(last);
    return { ok: true };
  }

  /**
   * After a settled round: remembers its bets for Repeat and leaves `staying` on the felt (the
   * Player and Banker bets of a tie stay, RULES.md) as a fresh start without undo history.
   */
  settle(roundBets: readonly Bet[], staying: readonly Bet[]): void {
    this.#previous = roundBets.map((b) => ({ ...b }));
    this.#history = [];
    this.#set(staying.map((b) => ({ ...b })));
  }

  /** Replaces the bets wholesale (no history), e.g. when a host restores a saved table. */
  reset(bets: readonly Bet[] = []): void {
    this.#history = [];
    this.#set(bets.map((b) => ({ ...b })));
  }

  #apply(step: BetStep): BetChange {
    if (!step.ok) return step;
    if (sameBets(step.value, this.#bets)) return { ok: true };
    this.#history.push(this.#bets);
    if (this.#history.length > MAX_HISTORY) this.#history.shift();
    this.#set(step.value);
    return { ok: true };
  }

  #set(bets: Bet[]): void {
    this.#bets = bets;
    this.#onChange(bets);
    this.#host.requestUpdate();
  }
}
