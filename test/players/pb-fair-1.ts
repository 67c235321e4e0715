/**
 * A whole shoe played and signed in one call: the reference for how the records fit together
 * (the Worker does the same step by step, one request per record). Used by the tests, the golden
 * vectors, the bench and the docs. Pure given its inputs; async only for the signatures.
 */
import { type Round } from '../../shared/round.ts';
import { settle } from '../../shared/settle.ts';
import { dealRound, type Shoe } from '../../shared/shoe.ts';
import { type Bet, type TableLimits, validateBets } from '../../shared/table.ts';
import { deriveFair1RoundShoe, deriveFair1Shoe } from '../../shared/fairness/pb-fair-1/derive.ts';
import type { SigningKey } from '../../shared/fairness/common/keys.ts';
import { FAIR1_VERSION, type Fair1ShoeParams } from '../../shared/fairness/pb-fair-1/params.ts';
import {
  buildFair1CommitmentBody,
  buildFair1ReceiptBody,
  buildFair1RevealBody,
  buildFair1StartBody,
  type Fair1ReceiptBody,
  fair1RecordHash,
  signFair1Record,
  type Fair1Transcript,
} from '../../shared/fairness/pb-fair-1/records.ts';
import { LOOSEST_LIMITS } from '../../shared/fairness/common/loosest-limits.ts';

export interface PlayFair1ShoeOptions {
  table: string;
  shoe: number;
  params: Fair1ShoeParams;
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
export async function playFair1Transcript(o: PlayFair1ShoeOptions): Promise<Fair1Transcript> {
  if (o.params.mode === 'reshuffle' && o.maxRounds === undefined) throw new RangeError('reshuffle mode has no cut card: give maxRounds');
  let n = 0;
  const commitmentBody = buildFair1CommitmentBody({
    table: o.table,
    shoe: o.shoe,
    params: o.params,
    serverSeed: o.serverSeed,
    prev: o.prev ?? null,
    issuedAt: o.clock(n++),
    limits: o.limits,
  });
  const startBody = buildFair1StartBody({
    table: o.table,
    shoe: o.shoe,
    clientSeed: o.clientSeed,
    cut: o.cut,
    prev: fair1RecordHash(commitmentBody),
    issuedAt: o.clock(n++),
  });
  const receipts: Fair1ReceiptBody[] = [];
  let prev = fair1RecordHash(startBody);
  let balance = o.balance;
  let shoe: Shoe | null = o.params.mode === 'shoe' ? deriveFair1Shoe(o.params, o.serverSeed, o.clientSeed, o.cut) : null;
  let cutCardOut = false;
  while (!cutCardOut && (o.maxRounds === undefined || receipts.length < o.maxRounds)) {
    const round = receipts.length + 1;
    const from = shoe ?? deriveFair1RoundShoe(o.params, o.serverSeed, o.clientSeed, o.cut, round);
    const dealt = dealRound(from);
    if (!dealt.ok) throw new Error(dealt.error.message);
    const bets = validateBets(o.bets(round, balance), o.limits ?? LOOSEST_LIMITS, balance);
    if (!bets.ok) throw new RangeError(`round ${round}: ${bets.error.message}`);
    const body = receiptBody(o, round, bets.value, dealt.value.round, balance, dealt.value.cutCardOut, prev, o.clock(n++));
    receipts.push(body);
    prev = fair1RecordHash(body);
    balance = body.balanceAfter;
    if (shoe) shoe = dealt.value.shoe;
    cutCardOut = o.params.mode === 'shoe' && dealt.value.cutCardOut;
  }
  const revealBody = buildFair1RevealBody({
    table: o.table,
    shoe: o.shoe,
    serverSeed: o.serverSeed,
    rounds: receipts.length,
    reason: cutCardOut ? 'cut-card' : 'ended-early',
    prev,
    issuedAt: o.clock(n++),
  });
  const [commitment, start, reveal, signed] = await Promise.all([
    signFair1Record(commitmentBody, o.key),
    signFair1Record(startBody, o.key),
    signFair1Record(revealBody, o.key),
    Promise.all(receipts.map((r) => signFair1Record(r, o.key))),
  ]);
  const transcript: Fair1Transcript = { version: FAIR1_VERSION, commitment, start, receipts: signed };
  if (!o.unrevealed) transcript.reveal = reveal;
  return transcript;
}

function receiptBody(
  o: PlayFair1ShoeOptions,
  round: number,
  bets: Bet[],
  dealt: Round,
  balance: number,
  cutCardOut: boolean,
  prev: string,
  issuedAt: string,
): Fair1ReceiptBody {
  return buildFair1ReceiptBody({
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
