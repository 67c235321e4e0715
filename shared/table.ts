/**
 * The table: five sectors of three boxes (player, banker, tie), the rooms and their limits, and
 * the validation of a set of bets (RULES.md "The table"). Money is integer minor units: one
 * minor unit is a thousandth of the currency unit, so that 5% commission on the smallest bet
 * (0.1, i.e. 100 units) is whole.
 */
import { type EngineError, fail, ok, type Result } from './errors.ts';
import type { CommissionRule } from './settle.ts';

/** Minor units per currency unit (a tenth of a cent). */
export const MINOR_UNITS = 1000;
export const SECTORS = 5;
/** A player may bet in at most this many sectors in one round (RULES.md, seed 002). */
export const MAX_SECTORS_IN_USE = 3;

export type Box = 'player' | 'banker' | 'tie';
export const BOXES: readonly Box[] = ['player', 'banker', 'tie'];

export type RoomId = 'hall-1' | 'hall-2' | 'vip';

/** A table's limits and chips, all in minor units. */
export interface TableLimits {
  /** Smallest bet on one box. */
  min: number;
  /** Largest bet on one box, and largest sum of one bet type over all boxes. */
  max: number;
  /** Every bet is a whole multiple of this; it keeps banker commission (5%) whole. */
  step: number;
  /** Chip denominations offered, ascending. */
  chips: readonly number[];
}

export interface Room {
  id: RoomId;
  name: string;
  limits: TableLimits;
}

/** The three rooms of RULES.md (seed 002): Hall 1 0.1–10, Hall 2 1–100, VIP 25–1,000. */
export const ROOMS: Readonly<Record<RoomId, Room>> = {
  'hall-1': { id: 'hall-1', name: 'Hall 1', limits: { min: 100, max: 10_000, step: 100, chips: [100, 500, 1_000, 2_000, 5_000, 10_000] } },
  'hall-2': { id: 'hall-2', name: 'Hall 2', limits: { min: 1_000, max: 100_000, step: 100, chips: [1_000, 5_000, 10_000, 25_000, 50_000, 100_000] } },
  vip: { id: 'vip', name: 'VIP', limits: { min: 25_000, max: 1_000_000, step: 100, chips: [25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000] } },
};

/** Play money a new session starts with in a room: a hundred maximum bets on one box. */
export function startingBalance(room: RoomId): number {
  return 100 * ROOMS[room].limits.max;
}

/** Every room id, in the order of ROOMS. */
export const ROOM_IDS = Object.keys(ROOMS) as readonly RoomId[];

export { DEFAULT_ROOM } from './default-room.ts';

export function isRoomId(value: unknown): value is RoomId {
  return typeof value === 'string' && Object.hasOwn(ROOMS, value);
}

/** One bet on one box of one sector. Sectors are numbered 0..4 left to right. */
export interface Bet {
  sector: number;
  box: Box;
  amount: number;
}

export type BetErrorCode =
  | 'empty_bet'
  | 'unknown_sector'
  | 'unknown_box'
  | 'duplicate_box'
  | 'amount_not_integer'
  | 'amount_not_positive'
  | 'amount_off_step'
  | 'under_minimum'
  | 'over_maximum'
  | 'over_type_limit'
  | 'fourth_sector'
  | 'insufficient_balance'
  | 'bad_limits';

export interface BetError extends EngineError<BetErrorCode> {
  /** The offending bet's place, when one bet is at fault. */
  sector?: number;
  box?: Box;
}

/**
 * Checks that limits are coherent: positive integers, min ≤ max, both multiples of step; under the
 * `exact` commission rule (play money) the step is a multiple of 20 so that 5% is whole. Wallet
 * mode rounds the commission down (settle.ts `round-down`) and takes any step.
 */
export function validateLimits(limits: TableLimits, rule: CommissionRule = 'exact'): Result<TableLimits, BetError> {
  const { min, max, step, chips } = limits;
  const whole = [min, max, step, ...chips].every((n) => Number.isSafeInteger(n) && n > 0);
  if (!whole) return fail('bad_limits', 'limits, step and chips must be positive whole numbers of minor units');
  if (rule === 'exact' && step % 20 !== 0) return fail('bad_limits', `the step ${step} must be a multiple of 20 minor units so that 5% commission is whole`);
  if (min > max) return fail('bad_limits', `the minimum ${min} is above the maximum ${max}`);
  if (min % step !== 0 || max % step !== 0 || chips.some((c) => c % step !== 0)) {
    return fail('bad_limits', `the minimum, maximum and every chip must be multiples of the step ${step}`);
  }
  return ok(limits);
}

/** Formats minor units as currency units for messages: 100 → "0.1", 25000 → "25". */
export function formatUnits(minor: number): string {
  return String(minor / MINOR_UNITS);
}

function betError(code: BetErrorCode, message: string, bet?: { sector: number; box: Box }): { ok: false; error: BetError } {
  const error: BetError = { code, message };
  if (bet) {
    error.sector = bet.sector;
    error.box = bet.box;
  }
  return { ok: false, error };
}

/**
 * Checks one box's amount against the limits: used while a player builds a bet, and by `validateBets`.
 */
export function validateAmount(amount: unknown, limits: TableLimits, where?: { sector: number; box: Box }): Result<number, BetError> {
  const at = where ? ` on ${where.box} in sector ${where.sector + 1}` : '';
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount)) {
    return betError('amount_not_integer', `the bet${at} must be a whole number of minor units, got ${String(amount)}`, where);
  }
  if (amount <= 0) return betError('amount_not_positive', `the bet${at} must be more than zero, got ${amount}`, where);
  if (amount % limits.step !== 0) {
    // Under the minimum as well: the minimum is what the player needs to hear (the code stays the step's).
    const rule =
      amount < limits.min
        ? `is ${formatUnits(amount)}, under the table minimum of ${formatUnits(limits.min)} (bets go in steps of ${formatUnits(limits.step)})`
        : `must be a multiple of ${formatUnits(limits.step)}, got ${formatUnits(amount)}`;
    return betError('amount_off_step', `the bet${at} ${rule}`, where);
  }
  if (amount < limits.min) {
    return betError('under_minimum', `the bet${at} is ${formatUnits(amount)}, under the table minimum of ${formatUnits(limits.min)}`, where);
  }
  if (amount > limits.max) {
    return betError('over_maximum', `the bet${at} is ${formatUnits(amount)}, over the table maximum of ${formatUnits(limits.max)}`, where);
  }
  return ok(amount);
}

/**
 * Validates a whole set of bets against the table's rules: known sectors and boxes, one entry per
 * box, each amount within the limits, each bet type's sum within the maximum, at most three sectors,
 * and (when a balance is given) a stake the balance covers. The first broken rule is returned.
 */
export function validateBets(bets: readonly Bet[], limits: TableLimits, balance?: number): Result<Bet[], BetError> {
  if (bets.length === 0) return betError('empty_bet', 'place at least one bet before the deal');
  const seen = new Set<string>();
  const sectors = new Set<number>();
  const sums: Record<Box, number> = { player: 0, banker: 0, tie: 0 };
  for (const bet of bets) {
    if (!Number.isInteger(bet.sector) || bet.sector < 0 || bet.sector >= SECTORS) {
      return betError('unknown_sector', `there is no sector ${String(bet.sector)}: sectors are 0 to ${SECTORS - 1}`);
    }
    if (!BOXES.includes(bet.box)) return betError('unknown_box', `there is no box "${String(bet.box)}": boxes are player, banker and tie`);
    const key = `${bet.sector}:${bet.box}`;
    if (seen.has(key)) return betError('duplicate_box', `${bet.box} in sector ${bet.sector + 1} appears twice: one amount per box`, bet);
    seen.add(key);
    const amount = validateAmount(bet.amount, limits, bet);
    if (!amount.ok) return amount;
    sectors.add(bet.sector);
    if (sectors.size > MAX_SECTORS_IN_USE) {
      return betError('fourth_sector', `bets may use at most ${MAX_SECTORS_IN_USE} sectors at once; sector ${bet.sector + 1} would be the fourth`, bet);
    }
    sums[bet.box] += bet.amount;
  }
  for (const box of BOXES) {
    if (sums[box] > limits.max) {
      return betError('over_type_limit', `all ${box} bets together are ${formatUnits(sums[box])}, over the table maximum of ${formatUnits(limits.max)}`);
    }
  }
  const staked = sums.player + sums.banker + sums.tie;
  if (balance !== undefined && staked > balance) {
    return betError('insufficient_balance', `the bets total ${formatUnits(staked)} but the balance is ${formatUnits(balance)}`);
  }
  return ok(bets.map((b) => ({ sector: b.sector, box: b.box, amount: b.amount })));
}

/**
 * The most one box may hold under the maximum: the table maximum for the box itself, less what the
 * same bet type holds in the other sectors (each type's sum is capped by validateBets).
 */
export function roomInBox(bets: readonly Bet[], at: { sector: number; box: Box }, limits: TableLimits): number {
  let elsewhere = 0;
  for (const b of bets) if (b.box === at.box && b.sector !== at.sector) elsewhere += b.amount;
  return limits.max - elsewhere;
}

/** Total stake of a set of bets. */
export function totalStake(bets: readonly Bet[]): number {
  let sum = 0;
  for (const b of bets) sum += b.amount;
  return sum;
}
