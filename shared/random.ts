/**
 * What a shell picks at random — a client seed, a cut, a set of bets — drawn from a CSPRNG the
 * shell passes in (`randomBytes(n)`: n fresh bytes, e.g. `n => crypto.getRandomValues(new
 * Uint8Array(n))`), so that this module stays pure and its tests can replay a draw.
 */
import { BOXES, type Bet, type Box, MAX_SECTORS_IN_USE, SECTORS, type TableLimits, validateBets } from './table.ts';

/** n fresh random bytes. */
export type RandomBytes = (n: number) => Uint8Array;

/** A client seed nobody chose holds this many random bytes (128 bits). */
export const CLIENT_SEED_BYTES = 16;

/** A client seed nobody chose: 16 random bytes as 32 lowercase hex characters (valid as it is: ASCII, NFC). */
export function newClientSeed(randomBytes: RandomBytes): string {
  const bytes = randomBytes(CLIENT_SEED_BYTES);
  if (bytes.length !== CLIENT_SEED_BYTES) throw new RangeError(`randomBytes(${CLIENT_SEED_BYTES}) returned ${bytes.length} bytes`);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A uniform integer in [0, n), 1 ≤ n ≤ 2³², by rejection over 32-bit words (no modulo bias). */
export function randomBelow(n: number, randomBytes: RandomBytes): number {
  if (!Number.isInteger(n) || n < 1 || n > 2 ** 32) throw new RangeError(`cannot draw below ${n}`);
  const limit = Math.floor(2 ** 32 / n) * n;
  for (;;) {
    const b = randomBytes(4);
    const word = ((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0;
    if (word < limit) return word % n;
  }
}

/**
 * Random bets the table rules accept for this balance (one to three sectors, one or two boxes
 * each, amounts from the chips), or null when the balance cannot cover the minimum. `below(n)`
 * draws in [0, n).
 */
export function randomLegalBets(limits: TableLimits, balance: number, below: (n: number) => number): Bet[] | null {
  if (balance < limits.min) return null;
  const chips = limits.chips.length > 0 ? limits.chips : [limits.min];
  for (let attempt = 0; attempt < 50; attempt++) {
    const sectors = new Set<number>();
    const wanted = 1 + below(MAX_SECTORS_IN_USE);
    while (sectors.size < wanted) sectors.add(below(SECTORS));
    const bets: Bet[] = [];
    for (const sector of sectors) {
      const boxes = new Set<Box>();
      const count = 1 + below(2);
      while (boxes.size < count) boxes.add(BOXES[below(BOXES.length)]!);
      for (const box of boxes) bets.push({ sector, box, amount: chips[below(chips.length)]! });
    }
    if (validateBets(bets, limits, balance).ok) return bets;
  }
  // Nothing random fitted (a small balance): the smallest bet there is.
  const smallest: Bet[] = [{ sector: below(SECTORS), box: BOXES[below(BOXES.length)]!, amount: limits.min }];
  return validateBets(smallest, limits, balance).ok ? smallest : null;
}
