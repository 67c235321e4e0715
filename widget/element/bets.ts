/**
 * Building a set of bets as the player clicks, drags and types: pure functions over `Bet[]`.
 * Every limit is checked by the shared engine (`validateAmount`, `validateBets` of
 * shared/table.ts) — nothing here restates a rule; the Worker checks the same rules again.
 *
 * Bets are kept in the table's order (sector, then player, banker, tie) so that two equal sets
 * compare equal and an unchanged set can be resent with the same idempotency key.
 */
import { BOXES, type Bet, type BetError, type Box, type TableLimits, roomInBox, validateAmount, validateBets } from '../../shared/table.ts';
import type { Result } from '../../shared/errors.ts';
import type { Outcome } from '../../shared/round.ts';
import { betResult } from '../../shared/settle.ts';

/** Where a bet sits. */
export interface Spot {
  sector: number;
  box: Box;
}

/**
 * A refused step: the engine's error plus what the player tried, so the message can name amounts
 * (`amount`: the box's attempted amount; `bets`: the attempted set).
 */
export interface BetProblem extends BetError {
  amount?: number;
  bets?: Bet[];
}

/** The result of a bet-building step: the new bets, or the first broken rule. */
export type BetStep = Result<Bet[], BetProblem>;

/** The amount on one box (0 when empty). */
export function amountAt(bets: readonly Bet[], at: Spot): number {
  return bets.find((b) => b.sector === at.sector && b.box === at.box)?.amount ?? 0;
}

/** Table order: sector left to right, then player, banker, tie. */
export function sortBets(bets: readonly Bet[]): Bet[] {
  return [...bets].sort((a, b) => a.sector - b.sector || BOXES.indexOf(a.box) - BOXES.indexOf(b.box));
}

/** True when both sets hold the same amounts on the same boxes. */
export function sameBets(a: readonly Bet[], b: readonly Bet[]): boolean {
  if (a.length !== b.length) return false;
  const x = sortBets(a);
  const y = sortBets(b);
  return x.every((bet, i) => bet.sector === y[i]!.sector && bet.box === y[i]!.box && bet.amount === y[i]!.amount);
}

/** Sets one box to `amount` (0 removes it) without checking anything. */
function withAmount(bets: readonly Bet[], at: Spot, amount: number): Bet[] {
  const rest = bets.filter((b) => !(b.sector === at.sector && b.box === at.box));
  return sortBets(amount > 0 ? [...rest, { sector: at.sector, box: at.box, amount }] : rest);
}

/** Checks a whole candidate set with the engine (box limits, type sums, fourth sector, balance). */
export function checkBets(bets: readonly Bet[], limits: TableLimits, balance: number): BetStep {
  if (bets.length === 0) return { ok: true, value: [] };
  const checked = validateBets(bets, limits, balance);
  if (checked.ok) return { ok: true, value: sortBets(checked.value) };
  // A refusal that names a box also names the amount tried there (Double: the doubled stake).
  const { sector, box } = checked.error;
  const amount = sector !== undefined && box !== undefined ? { amount: amountAt(bets, { sector, box }) } : {};
  return { ok: false, error: { ...checked.error, ...amount, bets: [...bets] } };
}

/**
 * Adds `amount` (a chip) to one box. The box's new amount is checked first (so the message names
 * the box), then the whole set. With `fill` (a chip put on a box by a click, a key or a drop),
 * a chip that would take the box, or its bet type over all boxes, past the table maximum fills
 * the box up to that maximum instead; only a box already at it refuses the chip.
 */
export function addToBox(bets: readonly Bet[], at: Spot, amount: number, limits: TableLimits, balance: number, fill = false): BetStep {
  const current = amountAt(bets, at);
  const room = roomInBox(bets, at, limits);
  const next = fill && current + amount > room && room > current ? room : current + amount;
  const one = validateAmount(next, limits, at);
  if (!one.ok) return { ok: false, error: { ...one.error, amount: next } };
  const all = checkBets(withAmount(bets, at, next), limits, balance);
  // The engine names the fourth sector in table order; the player wants to hear about the one they touched.
  if (!all.ok && all.error.code === 'fourth_sector') return { ok: false, error: { ...all.error, sector: at.sector, box: at.box } };
  return all;
}

/** Clicking an empty box with no chip selected puts the table minimum there (RULES.md). */
export function placeMinimum(bets: readonly Bet[], at: Spot, limits: TableLimits, balance: number): BetStep {
  return addToBox(bets, at, limits.min, limits, balance, true);
}

/** Removes one box's bet (nothing to check: fewer bets never break a rule). */
export function removeBox(bets: readonly Bet[], at: Spot): Bet[] {
  return withAmount(bets, at, 0);
}

/** Moves a box's whole bet to another box (a bet dragged across the felt), merged with what is there. */
export function moveBet(bets: readonly Bet[], from: Spot, to: Spot, limits: TableLimits, balance: number): BetStep {
  const amount = amountAt(bets, from);
  if (amount === 0 || (from.sector === to.sector && from.box === to.box)) return { ok: true, value: sortBets(bets) };
  return addToBox(removeBox(bets, from), to, amount, limits, balance);
}

/** Doubles every bet. */
export function doubleBets(bets: readonly Bet[], limits: TableLimits, balance: number): BetStep {
  return checkBets(
    bets.map((b) => ({ ...b, amount: b.amount * 2 })),
    limits,
    balance,
  );
}

/** The previous round's bets again (replacing whatever is on the table), if they are still legal. */
export function repeatBets(previous: readonly Bet[], limits: TableLimits, balance: number): BetStep {
  return checkBets(previous, limits, balance);
}

/**
 * What stays on the felt after a round: the bets that pushed (Player and Banker on a tie,
 * RULES.md) were returned and stand for the next round, if they are still legal.
 */
export function betsLeftOnFelt(bets: readonly Bet[], outcome: Outcome, limits: TableLimits | null, balance: number): Bet[] {
  const staying = bets.filter((b) => betResult(b.box, outcome) === 'push');
  const kept = staying.length && limits ? checkBets(staying, limits, balance) : null;
  return kept?.ok ? kept.value : [];
}
