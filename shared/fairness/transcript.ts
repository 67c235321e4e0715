/**
 * A whole shoe played and signed in one call: the reference for how the records fit together
 * (the Worker does the same step by step, one request per record). Used by the tests, the golden
 * vectors, the bench and the docs. Pure given its inputs; async only for the signatures.
 */
import { type Round } from '../round.ts';
import { settle } from '../settle.ts';
import { dealRound, type Shoe } from '../shoe.ts';
import { type Bet, type TableLimits, validateBets } from '../table.ts';
import { deriveRoundShoe, deriveShoe } from './derive.ts';
import type { SigningKey } from './keys.ts';
import { FAIRNESS_VERSION, type ShoeParams } from './params.ts';
import {
  buildCommitmentBody,
  buildReceiptBody,
  buildRevealBody,
  buildStartBody,
  type ReceiptBody,
  recordHash,
  signRecord,
  type Transcript,
} from './records.ts';
import { LOOSEST_LIMITS } from './loosest-limits.ts';

export interface PlayShoeOptions {
  table: string;
  shoe: number;
  params: ShoeParams;
  serverSeed: string;
  clientSeed: string;
  cut: number;
  key: SigningKey;
  /** The player's balance before the first round. */
  balance: number;
  /** Committed in the commitment when given. */
  limits?: TableLimits;
  /** The previous shoe's reveal hash; null (the default) for shoe 1. */
  prev?: string | null;
  affiliate?: string | null;
  /** The bets of round `round` (1-based) given the balance; they must be valid. */
  bets: (round: number, balance: number) => Bet[];
  /** issuedAt of the n-th record (0 = commitment, 1 = start, 2… = receipts, then the reveal). */
  clock: (n: number) => string;
  /** Stop after this many rounds (the shoe then ends early). Required in reshuffle mode. */
  maxRounds?: number;
  /** Leave the shoe unrevealed (a transcript still in play). */
  unrevealed?: boolean;
}

/** Commits, starts, deals and settles every round until the cut card (or `maxRounds`), reveals; all signed. */
export async function playShoeTranscript(o: PlayShoeOptions): Promise<Transcript> {
  if (o.params.mode === 'reshuffle' && o.maxRounds === undefined) throw new RangeError('reshuffle mode has no cut card: give maxRounds');
  let n = 0;
  const commitmentBody = buildCommitmentBody({
    table: o.table,
    shoe: o.shoe,
    params: o.params,
    serverSeed: o.serverSeed,
    prev: o.prev ?? null,
    issuedAt: o.clock(n++),
    limits: o.limits,
  });
  const startBody = buildStartBody({
    table: o.table,
    shoe: o.shoe,
    clientSeed: o.clientSeed,
    cut: o.cut,
    prev: recordHash(commitmentBody),
    issuedAt: o.clock(n++),
  });
  const receipts: ReceiptBody[] = [];
  let prev = recordHash(startBody);
  let balance = o.balance;
  let shoe: Shoe | null = o.params.mode === 'shoe' ? deriveShoe(o.params, o.serverSeed, o.clientSeed, o.cut) : null;
  let cutCardOut = false;
  while (!cutCardOut && (o.maxRounds === undefined || receipts.length < o.maxRounds)) {
    const round = receipts.length + 1;
    const from = shoe ?? deriveRoundShoe(o.params, o.serverSeed, o.clientSeed, o.cut, round);
    const dealt = dealRound(from);
    if (!dealt.ok) throw new Error(dealt.error.message);
    const bets = validateBets(o.bets(round, balance), o.limits ?? LOOSEST_LIMITS, balance);
    if (!bets.ok) throw new RangeError(`round ${round}: ${bets.error.message}`);
    const body = receiptBody(o, round, bets.value, dealt.value.round, balance, dealt.value.cutCardOut, prev, o.clock(n++));
    receipts.push(body);
    prev = recordHash(body);
    balance = body.balanceAfter;
    if (shoe) shoe = dealt.value.shoe;
    cutCardOut = o.params.mode === 'shoe' && dealt.value.cutCardOut;
  }
  const revealBody = buildRevealBody({
    table: o.table,
    shoe: o.shoe,
    serverSeed: o.serverSeed,
    rounds: receipts.length,
    reason: cutCardOut ? 'cut-card' : 'ended-early',
    prev,
    issuedAt: o.clock(n++),
  });
  const [commitment, start, reveal, signed] = await Promise.all([
    signRecord(commitmentBody, o.key),
    signRecord(startBody, o.key),
    signRecord(revealBody, o.key),
    Promise.all(receipts.map((r) => signRecord(r, o.key))),
  ]);
  const transcript: Transcript = { version: FAIRNESS_VERSION, commitment, start, receipts: signed };
  if (!o.unrevealed) transcript.reveal = reveal;
  return transcript;
}

function receiptBody(
  o: PlayShoeOptions,
  round: number,
  bets: Bet[],
  dealt: Round,
  balance: number,
  cutCardOut: boolean,
  prev: string,
  issuedAt: string,
): ReceiptBody {
  return buildReceiptBody({
    table: o.table,
    shoe: o.shoe,
    round,
    affiliate: o.affiliate ?? null,
    bets,
    dealt,
    settlement: settle(bets, dealt.outcome),
    balanceBefore: balance,
    cutCardOut,
    prev,
    issuedAt,
  });
}
