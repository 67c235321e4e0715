/**
 * A real, signed shoe for the panel tests and the screenshot harness: committed, started with a
 * client seed and cut, dealt round by round by the engine, settled, signed and (optionally)
 * revealed, by the fairness module's own `playFair1Transcript` — the records the Worker produces.
 */
import { BOXES, type Bet, ROOMS } from '../../shared/table.ts';
import {
  FAIR1_DEFAULT_SHOE_PARAMS,
  type FairnessFile,
  generateSigningKey,
  type Jwks,
  type SignedRequest,
  type Fair1Transcript,
} from '../../shared/fairness/index.ts';
import { playFair1Transcript } from '../players/pb-fair-1.ts';
import { playPrivateTable } from '../players/pb-fair-2.ts';
import type { SettledRound } from '../../widget/round-view.ts';

export interface PlayedShoe {
  transcript: Fair1Transcript;
  jwks: Jwks;
  serverSeed: string;
  clientSeed: string;
  cut: number;
}

export interface PlayOptions {
  decks?: number;
  /** Stop after this many rounds (else play to the cut card). */
  rounds?: number;
  /** Sign a reveal at the end (default true). */
  reveal?: boolean;
  serverSeed?: string;
  clientSeed?: string;
  cut?: number;
  balance?: number;
}

export const TEST_TABLE = 'table-test';
export const TEST_LIMITS = ROOMS['hall-2'].limits;

/** Deterministic bets that vary by round: one to three boxes, amounts on the table's step. */
export function betsForRound(round: number): Bet[] {
  const bets: Bet[] = [{ sector: round % 3, box: BOXES[round % 3]!, amount: 1_000 * (1 + (round % 4)) }];
  if (round % 2 === 0) bets.push({ sector: 3, box: 'banker', amount: 5_000 });
  if (round % 5 === 0) bets.push({ sector: 4, box: 'tie', amount: 1_000 });
  return bets;
}

/** Plays one shoe and returns its transcript and the JWKS that verifies it. */
export async function playShoe(options: PlayOptions = {}): Promise<PlayedShoe> {
  const { key } = await generateSigningKey('panels-test-key');
  const serverSeed = options.serverSeed ?? 'a3'.repeat(32);
  const clientSeed = options.clientSeed ?? 'lucky seven';
  const cut = options.cut ?? 137;
  const start = Date.UTC(2026, 10, 29, 12, 0, 0);
  const transcript = await playFair1Transcript({
    table: TEST_TABLE,
    shoe: 1,
    params: { ...FAIR1_DEFAULT_SHOE_PARAMS, decks: options.decks ?? 6 },
    serverSeed,
    clientSeed,
    cut,
    key,
    balance: options.balance ?? 1_000_000,
    limits: TEST_LIMITS,
    bets: (round) => betsForRound(round),
    clock: (n) => new Date(start + n * 17_000).toISOString(),
    ...(options.rounds === undefined ? {} : { maxRounds: options.rounds }),
    unrevealed: options.reveal === false,
  });
  return { transcript, jwks: { keys: [key.publicJwk] }, serverSeed, clientSeed, cut };
}

/** A deep copy with one receipt's balance raised after signing: its hash no longer matches. */
export function tamperedCopy(transcript: Fair1Transcript, round: number): Fair1Transcript {
  const copy = JSON.parse(JSON.stringify(transcript)) as Fair1Transcript;
  copy.receipts[round - 1]!.body.balanceAfter += 1_000;
  return copy;
}

/**
 * A pb-fair-2 table of one shoe (shoe mode, six decks), played and signed by both sides with the
 * shared reference `playPrivateTable`: the operator's file, the player's copy (the same records), and
 * the JWKS. `end: 'open'` leaves the shoe unrevealed.
 */
export async function playTable(
  options: { rounds?: number; end?: 'open' | 'player' } = {},
): Promise<{ file: FairnessFile & { sent: SignedRequest[] }; jwks: Jwks }> {
  const operatorKey = (await generateSigningKey('operator-key')).key;
  const playerKey = (await generateSigningKey()).key;
  const rounds = Array.from({ length: options.rounds ?? 4 }, (_, i) => ({ bets: betsForRound(i + 1), secret: (i + 1).toString(16).padStart(64, '0') }));
  const file = await playPrivateTable({
    table: TEST_TABLE,
    operatorKey,
    playerKey,
    openingBalance: 1_000_000,
    shoes: [
      {
        params: { algorithm: 'pb-fair-2', mode: 'shoe', decks: 6, burn: true, cutCardFromEnd: 16, voidAfterSeconds: 600 },
        serverSeed: 'ab'.repeat(32),
        clientSeed: 'a player seed',
        cut: 100,
        rounds,
        end: options.end ?? 'player',
      },
    ],
  });
  return { file, jwks: { keys: [operatorKey.publicJwk] } };
}

/**
 * The rounds of a pb-fair-1 transcript as the history shows them: each receipt holds its bets and
 * its result, and is the record the history cites.
 */
export function roundsOf(transcript: Fair1Transcript): SettledRound[] {
  return transcript.receipts.map(({ body, hash, keyId }) => {
    const { type, table, affiliate, prev, issuedAt, ...round } = body;
    return { ...round, record: { hash, prev, keyId, issuedAt } };
  });
}
