/** The fixed inputs of the golden vectors (see generate.ts). Changing anything here changes fairness.json. */
import type { Bet, Fair1ShoeParams, TableLimits } from '../../shared/index.ts';

/** Seed A: the bytes 00 01 02 … 1f. Seed B: an arbitrary fixed 32 bytes. */
export const SEED_A = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';
export const SEED_B = '5c3e1f0a9d8b7c6e4f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e';

const HALL_1: TableLimits = { min: 100, max: 10_000, step: 100, chips: [100, 500, 1_000, 2_000, 5_000, 10_000] };
const BOXES = ['player', 'banker', 'tie'] as const;

export interface ShoeVectorInput {
  name: string;
  params: Fair1ShoeParams;
  serverSeed: string;
  clientSeed: string;
  cut: number;
  nonce: number;
}

export interface TranscriptVectorInput {
  name: string;
  table: string;
  shoe: number;
  params: Fair1ShoeParams;
  serverSeed: string;
  clientSeed: string;
  cut: number;
  balance: number;
  limits?: TableLimits;
  affiliate: string | null;
  maxRounds?: number;
  /** Chains to the reveal of the transcript vector with this name. */
  after?: string;
  /** Bets of round r (1-based): one bet on sector (r−1) mod 5, box by r mod 3, amount 100·(1 + 7r mod 20); a 100 tie bet on sector r mod 5 in even rounds. */
  bets: (round: number) => Bet[];
  /** issuedAt of the n-th record: 2025-01-01T12:00:00.000Z plus n seconds. */
  clock: (n: number) => string;
}

function bets(round: number): Bet[] {
  const out: Bet[] = [{ sector: (round - 1) % 5, box: BOXES[round % 3]!, amount: 100 * (1 + ((7 * round) % 20)) }];
  if (round % 2 === 0) out.push({ sector: round % 5, box: 'tie', amount: 100 });
  return out;
}

const clock = (n: number): string => new Date(Date.UTC(2025, 0, 1, 12, 0, n)).toISOString();

export const vectorInputs = {
  commitmentSeeds: [SEED_A, SEED_B, 'ff'.repeat(32)],
  streams: [
    { serverSeed: SEED_A, clientSeed: 'player seed', nonce: 0 },
    { serverSeed: SEED_B, clientSeed: 'Ünïcödé 🎲', nonce: 3 },
  ],
  /** uniformBelow draws on the first stream: a card-sized n, then an n that rejects often. */
  draws: [52, 51, 50, 2, 3_000_000_000, 3_000_000_000, 3_000_000_000, 3_000_000_000],
  canonical: [
    { b: [true, false, null], a: -0, c: 'é "q" \\ \n\t\u0001 ✓ 🎲', B: 9007199254740991, aa: {} },
    { type: 'start', table: 't', shoe: 1, clientSeed: 'x', cut: 1, prev: 'ab', issuedAt: '2025-01-01T00:00:00.000Z' },
  ],
  shoes: [
    {
      name: '1 deck, burn, cut 26',
      params: { decks: 1, burn: true, cutCardFromEnd: 14, mode: 'shoe', algorithm: 'pb-fair-1' },
      serverSeed: SEED_A,
      clientSeed: 'player seed',
      cut: 26,
      nonce: 0,
    },
    {
      name: '6 decks (defaults), cut 157',
      params: { decks: 6, burn: true, cutCardFromEnd: 16, mode: 'shoe', algorithm: 'pb-fair-1' },
      serverSeed: SEED_B,
      clientSeed: 'Ünïcödé 🎲',
      cut: 157,
      nonce: 0,
    },
    {
      name: '8 decks, no burn, cut 1',
      params: { decks: 8, burn: false, cutCardFromEnd: 16, mode: 'shoe', algorithm: 'pb-fair-1' },
      serverSeed: SEED_A,
      clientSeed: 'player seed',
      cut: 1,
      nonce: 0,
    },
    {
      name: 'reshuffle, 6 decks, round 1',
      params: { decks: 6, burn: true, cutCardFromEnd: 16, mode: 'reshuffle', algorithm: 'pb-fair-1' },
      serverSeed: SEED_B,
      clientSeed: 'x',
      cut: 311,
      nonce: 1,
    },
    {
      name: 'reshuffle, 6 decks, round 2',
      params: { decks: 6, burn: true, cutCardFromEnd: 16, mode: 'reshuffle', algorithm: 'pb-fair-1' },
      serverSeed: SEED_B,
      clientSeed: 'x',
      cut: 311,
      nonce: 2,
    },
  ] satisfies ShoeVectorInput[],
  transcripts: [
    {
      name: 'one-deck shoe to the cut card',
      table: 'vector-table',
      shoe: 1,
      params: { decks: 1, burn: true, cutCardFromEnd: 14, mode: 'shoe', algorithm: 'pb-fair-1' },
      serverSeed: SEED_A,
      clientSeed: 'player seed',
      cut: 26,
      balance: 1_000_000,
      limits: HALL_1,
      affiliate: 'aff-42',
      bets,
      clock,
    },
    {
      name: 'reshuffle mode, three rounds, ended early',
      table: 'vector-table',
      shoe: 2,
      params: { decks: 6, burn: true, cutCardFromEnd: 16, mode: 'reshuffle', algorithm: 'pb-fair-1' },
      serverSeed: SEED_B,
      clientSeed: 'Ünïcödé 🎲',
      cut: 157,
      balance: 1_000_000,
      affiliate: null,
      maxRounds: 3,
      after: 'one-deck shoe to the cut card',
      bets,
      clock: (n: number) => clock(100 + n),
    },
  ] satisfies TranscriptVectorInput[],
};
