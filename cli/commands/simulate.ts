/** `punto-banco simulate`: play many rounds from real, seeded shoes (shared/simulate.ts) and time it. */
import { randomBytes } from 'node:crypto';
import { intOption, parseArgs, UsageError } from '../args.ts';
import { DEFAULT_DECKS, MAX_DECKS, MIN_DECKS } from '../../shared/cards.ts';
import { exactOdds } from '../../shared/odds.ts';
import { seededPrng } from '../../shared/prng.ts';
import { DEFAULT_SHOE_RULES, type ShoeRules } from '../../shared/shoe.ts';
import { simulate, type SimulationResult } from '../../shared/simulate.ts';
import { groupDigits } from './odds.ts';

export const summary = 'simulate many rounds from real shoes: frequencies and hands/s';

/** Enough for any run anyone waits for; keeps every count an exact integer. */
const MAX_HANDS = 1e12;

export const help = `usage: punto-banco simulate --hands N [--decks N] [--seed S] [--json]

Plays N rounds from real shoes, as at a table: every shoe shuffled, the first card turned and that
many burned, rounds dealt until the cut card (${DEFAULT_SHOE_RULES.cutCardFromEnd} cards from the end) comes out, then a new
shoe. Prints how often each outcome, a natural and a pair came up, beside the exact probabilities
of a fresh shoe, and the speed. The same seed gives the same run.

options:
  --hands N   rounds to play, 1 to ${MAX_HANDS.toExponential()} (required)
  --decks N   decks in the shoe, ${MIN_DECKS} to ${MAX_DECKS} (default ${DEFAULT_DECKS})
  --seed S    any text; a random seed is chosen and printed when absent
  --json      one JSON object: the counts, "frequency" and "exact" per outcome, "seconds",
              "handsPerSecond" and the "seed"`;

function percent(x: number): string {
  return `${(x * 100).toFixed(4)}%`;
}

function table(result: SimulationResult, rules: ShoeRules, seed: string, seconds: number): string {
  const exact = exactOdds(rules.decks);
  const rows: Array<[string, number, string]> = [
    ['banker', result.banker, exact.ok ? percent(exact.value.probability.banker) : ''],
    ['player', result.player, exact.ok ? percent(exact.value.probability.player) : ''],
    ['tie', result.tie, exact.ok ? percent(exact.value.probability.tie) : ''],
    ['natural', result.naturals, ''],
    ['player pair', result.playerPairs, ''],
    ['banker pair', result.bankerPairs, ''],
  ];
  const cells = rows.map(([name, count, exactText]) => [name, groupDigits(count), percent(count / result.hands), exactText]);
  const header = ['', 'count', 'frequency', 'exact, fresh shoe'];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]!.length)));
  const line = (c: string[]) =>
    c
      .map((text, i) => (i === 0 ? text.padEnd(widths[i]!) : text.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [
    `${groupDigits(result.hands)} hands from ${groupDigits(result.shoes)} shoes of ${rules.decks} deck${rules.decks === 1 ? '' : 's'}, seed ${JSON.stringify(seed)}`,
    '',
    line(header),
    ...cells.map(line),
    '',
    `${seconds.toFixed(3)} s, ${(result.hands / seconds / 1e6).toFixed(1)} million hands/s`,
  ].join('\n');
}

export async function run(args: string[]): Promise<number> {
  const parsed = parseArgs(args, { values: ['hands', 'decks', 'seed'], flags: ['json'] });
  if (parsed.values['hands'] === undefined) throw new UsageError('--hands N is required');
  const hands = intOption(parsed, 'hands', 1, MAX_HANDS, 0);
  const decks = intOption(parsed, 'decks', MIN_DECKS, MAX_DECKS, DEFAULT_DECKS);
  const seed = parsed.values['seed'] ?? randomBytes(8).toString('hex');
  const rules: ShoeRules = { ...DEFAULT_SHOE_RULES, decks };

  const started = performance.now();
  const simulated = simulate(hands, rules, seededPrng(seed));
  const seconds = (performance.now() - started) / 1000;
  if (!simulated.ok) throw new UsageError(simulated.error.message);
  const result = simulated.value;

  if (parsed.flags.has('json')) {
    const exact = exactOdds(decks);
    const frequency = { banker: result.banker / hands, player: result.player / hands, tie: result.tie / hands };
    const exactProbability = exact.ok
      ? { banker: exact.value.probability.banker, player: exact.value.probability.player, tie: exact.value.probability.tie }
      : null;
    console.log(JSON.stringify({ ...result, decks, seed, rules, frequency, exact: exactProbability, seconds, handsPerSecond: hands / seconds }));
  } else {
    console.log(table(result, rules, seed, seconds));
  }
  return 0;
}
