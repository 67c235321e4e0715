/**
 * Engine figures (`npm run bench -- engine`): exact-odds time for 6 and 8 decks, simulated hands/s
 * from real shoes on one thread, and the cost of resolving one round with `playRound`.
 * Figures only: nothing here passes or fails on time.
 */
import { orderedDecks } from '../shared/cards.ts';
import { countOutcomes } from '../shared/odds.ts';
import { seededPrng } from '../shared/prng.ts';
import { MAX_CARDS_PER_ROUND, playRound } from '../shared/round.ts';
import { DEFAULT_SHOE_RULES, shuffleCards } from '../shared/shoe.ts';
import { simulate } from '../shared/simulate.ts';

/** A value the optimiser cannot prove unused. */
let sink = 0;

function median(xs: number[]): number {
  const sorted = xs.slice().sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function timeMs(fn: () => void): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

/**
 * Wall-clock and CPU time of `fn`, in ms. On a shared machine the wall clock also counts time the
 * process waited for a core; the CPU time (this process, all threads) does not.
 */
function times(fn: () => void): { wall: number; cpu: number } {
  const cpu = process.cpuUsage();
  const wall = timeMs(fn);
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000 };
}

function oddsFigures(): void {
  for (const decks of [6, 8]) {
    const first = timeMs(() => {
      const r = countOutcomes(decks);
      if (r.ok) sink += Number(r.value.tie & 1n);
    });
    for (let i = 0; i < 30; i++) countOutcomes(decks); // warm-up
    const runs = Array.from({ length: 51 }, () => timeMs(() => void countOutcomes(decks)));
    console.log(
      `exact odds, ${decks} decks: ${median(runs).toFixed(3)} ms median of ${runs.length} runs after warm-up (first call in this process ${first.toFixed(2)} ms)`,
    );
  }
}

function simulationFigures(): void {
  const hands = 30_000_000;
  for (const decks of [6, 8]) {
    const rules = { ...DEFAULT_SHOE_RULES, decks };
    simulate(2_000_000, rules, seededPrng('warm-up'));
    const runs = [1, 2, 3].map((i) =>
      times(() => {
        const r = simulate(hands, rules, seededPrng(`bench-${i}`));
        if (r.ok) sink += r.value.shoes;
      }),
    );
    const rate = (ms: number) => `${(((hands / ms) * 1000) / 1e6).toFixed(1)} M`;
    console.log(
      `simulation, ${decks} decks, real shoe (burn, cut card ${rules.cutCardFromEnd} from the end), one thread: ` +
        `${rate(median(runs.map((r) => r.wall)))} hands/s median (best ${rate(Math.min(...runs.map((r) => r.wall)))}), ` +
        `${rate(median(runs.map((r) => r.cpu)))} hands per CPU-second; 3 runs × ${hands / 1e6} M hands`,
    );
  }
}

function roundFigures(): void {
  // One shuffled 8-deck stack; rounds are played from successive positions, wrapping before the end.
  const random = seededPrng('rounds');
  const cards = shuffleCards(orderedDecks(8), random.randomBelow);
  const last = cards.length - MAX_CARDS_PER_ROUND;
  const play = (rounds: number): void => {
    let pos = 0;
    for (let i = 0; i < rounds; i++) {
      const round = playRound(cards, pos);
      sink += round.playerTotal;
      pos += round.cardsUsed;
      if (pos > last) pos -= last;
    }
  };
  play(200_000); // warm-up
  const rounds = 2_000_000;
  const runs = [0, 1, 2, 3, 4].map(() => times(() => play(rounds)));
  const ns = (ms: number) => ((ms * 1e6) / rounds).toFixed(1);
  console.log(
    `round resolution (playRound, with its Round object): ${ns(median(runs.map((r) => r.wall)))} ns/round median ` +
      `(${ns(median(runs.map((r) => r.cpu)))} CPU); ${runs.length} runs × ${rounds / 1e6} M rounds`,
  );
}

export async function run(): Promise<void> {
  oddsFigures();
  simulationFigures();
  roundFigures();
  if (sink === 0.5) console.log(''); // keeps `sink` alive
}
