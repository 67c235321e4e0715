/** `punto-banco odds`: the exact combinatorial odds of a fresh shoe (shared/odds.ts). */
import { intOption, parseArgs, UsageError } from '../args.ts';
import { DEFAULT_DECKS, MAX_DECKS, MIN_DECKS } from '../../shared/cards.ts';
import { exactOdds, type Odds } from '../../shared/odds.ts';
import { PAYOUTS } from '../../shared/settle.ts';
import { type Box, BOXES } from '../../shared/table.ts';

export const summary = 'exact odds and house edges over every ordered deal';

export const help = `usage: punto-banco odds [--decks N] [--json]

Counts every ordered deal of six cards from a fresh shoe (without replacement) won by the Banker,
the Player and a Tie, exactly, and the house edge of each bet (${BOXES.map((box) => `${box[0]!.toUpperCase()}${box.slice(1)} ${PAYOUTS[box].join(':')}`).join(', ')};
Player and Banker bets are returned on a tie).

options:
  --decks N   decks in the shoe, ${MIN_DECKS} to ${MAX_DECKS} (default ${DEFAULT_DECKS})
  --json      one JSON object: integer counts "banker", "player", "tie", "total" (exact, as JSON
              integers), "probability" and "houseEdge" per outcome, "houseEdgeExact" as fractions`;

/** The order bets are shown in. */
const SHOWN: readonly Box[] = ['banker', 'player', 'tie'];

/** JSON.rawJSON (Node ≥ 21) lets BigInts print as exact JSON integers. */
const rawJSON = (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON;

/** JSON text with every BigInt written as its exact digits. */
export function exactJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? rawJSON(v.toString()) : v));
}

/** 1234567 → "1,234,567". */
export function groupDigits(n: bigint | number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function percent(x: number, digits = 4): string {
  return `${(x * 100).toFixed(digits)}%`;
}

function perBet<T>(value: (box: Box) => T): Record<Box, T> {
  return Object.fromEntries(SHOWN.map((box) => [box, value(box)])) as Record<Box, T>;
}

function oddsJson(odds: Odds): unknown {
  return {
    decks: odds.decks,
    banker: odds.banker,
    player: odds.player,
    tie: odds.tie,
    total: odds.total,
    probability: perBet((box) => odds.probability[box]),
    houseEdge: perBet((box) => odds.houseEdge[box]),
    houseEdgeExact: perBet((box) => `${odds.houseEdgeExact[box].numerator}/${odds.houseEdgeExact[box].denominator}`),
  };
}

function oddsTable(odds: Odds): string {
  const rows = SHOWN.map((box) => {
    const [num, den] = PAYOUTS[box];
    return [box, groupDigits(odds[box]), percent(odds.probability[box]), `${num}:${den}`, percent(odds.houseEdge[box])];
  });
  const header = ['bet', 'deals won', 'probability', 'pays', 'house edge'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [
    `Exact odds, ${odds.decks} deck${odds.decks === 1 ? '' : 's'}: every ordered deal of six cards, ${groupDigits(odds.total)} in all`,
    '',
    line(header),
    ...rows.map(line),
  ].join('\n');
}

export async function run(args: string[]): Promise<number> {
  const parsed = parseArgs(args, { values: ['decks'], flags: ['json'] });
  const decks = intOption(parsed, 'decks', MIN_DECKS, MAX_DECKS, DEFAULT_DECKS);
  const odds = exactOdds(decks);
  if (!odds.ok) throw new UsageError(odds.error.message);
  console.log(parsed.flags.has('json') ? exactJson(oddsJson(odds.value)) : oddsTable(odds.value));
  return 0;
}
