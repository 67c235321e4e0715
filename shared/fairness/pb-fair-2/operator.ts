/**
 * pb-fair-2 record builders, one per step of the flow (FAIRNESS.md §B2): what the Worker calls
 * for each request, and the player-side request builders the widget calls. Pure; the caller
 * signs (signRecord / signRequest) and stores.
 */
import { type EngineError, fail, ok, type Result } from '../../errors.ts';
import { settle } from '../../settle.ts';
import { type Bet, type TableLimits, totalStake, validateBets } from '../../table.ts';
import { receiptCards, settledFields } from '../common/receipt-fields.ts';
import { roundFacts } from '../../round.ts';
import { LOOSEST_LIMITS } from '../common/loosest-limits.ts';
import { dealAcceptedRound, lockOf, seedCommitment, type ShoeState } from './derive.ts';
import type { ShoeParams } from './params.ts';
import { signedRequestShapeError } from './shape.ts';
import { verifyRequest, type WalletDebit, type WalletOfShoe } from './records.ts';
import type {
  Acceptance,
  BetRequest,
  Commitment,
  EndRequest,
  Receipt,
  RevealReason,
  Reveal,
  SecretRequest,
  SignedRequest,
  Signed,
  StartRequest,
  Start,
  Void,
} from './records.ts';

// ── Player side ────────────────────────────────────────────────────────────────────────────────

export const startRequest = (commitment: Signed<Commitment>, clientSeed: string, cut: number): StartRequest => ({
  type: 'start',
  table: commitment.body.table,
  shoe: commitment.body.shoe,
  commitment: commitment.hash,
  clientSeed,
  cut,
});

/** The bet request of round `round`, following the record `prev` (its hash), locking `secret`. */
export const betRequest = (last: Signed, round: number, bets: readonly Bet[], secret: string): BetRequest => ({
  type: 'bet',
  table: last.body.table,
  shoe: last.body.shoe,
  round,
  prev: last.hash,
  bets: bets.map((b) => ({ sector: b.sector, box: b.box, amount: b.amount })),
  lock: lockOf(secret),
});

export const secretRequest = (acceptance: Signed<Acceptance>, secret: string): SecretRequest => ({
  type: 'secret',
  table: acceptance.body.table,
  shoe: acceptance.body.shoe,
  round: acceptance.body.round,
  acceptance: acceptance.hash,
  secret,
});

export const endRequest = (last: Signed): EndRequest => ({ type: 'end', table: last.body.table, shoe: last.body.shoe, prev: last.hash });

// ── Operator side ──────────────────────────────────────────────────────────────────────────────

export type RequestErrorCode = 'bad_request' | 'bad_player_signature';

/**
 * What the Worker does first with every state-changing request body it receives: exactly the
 * members of FAIRNESS.md §B7 for `kind`, signed by the player key the shoe's commitment names.
 */
export async function validatePlayerRequest<K extends 'start' | 'bet' | 'secret' | 'end'>(
  playerKey: string,
  value: unknown,
  kind: K,
): Promise<Result<SignedRequest<Extract<StartRequest | BetRequest | SecretRequest | EndRequest, { type: K }>>, EngineError<RequestErrorCode>>> {
  const shape = signedRequestShapeError(value, kind);
  if (shape) return fail('bad_request', shape);
  const signed = value as SignedRequest<Extract<StartRequest | BetRequest | SecretRequest | EndRequest, { type: K }>>;
  if (!(await verifyRequest(playerKey, signed))) return fail('bad_player_signature', `the ${kind} request is not signed by the player's key`);
  return ok(signed);
}

/** The reveal the rules force after a round, if any: the cut card came out, or the reshuffle round limit is reached. */
export function revealDue(params: ShoeParams, shoe: { cutCardOut: boolean; accepted: number }): 'cut-card' | 'reshuffle-limit' | null {
  if (params.mode === 'shoe') return shoe.cutCardOut ? 'cut-card' : null;
  return shoe.accepted >= params.roundLimit ? 'reshuffle-limit' : null;
}

export interface CommitArgs {
  table: string;
  shoe: number;
  keyId: string;
  params: ShoeParams;
  limits?: TableLimits;
  serverSeed: string;
  playerKey: string;
  openingBalance: number;
  /** The previous shoe's reveal hash; null for shoe 1. */
  prev: string | null;
  issuedAt: string;
  /** Wallet mode only (§B15): the shoe's wallet; the same on every shoe of the table. */
  wallet?: WalletOfShoe;
}

/** What a commitment takes from its arguments in pb-fair-2 and pb-shared-1: params and limits copied, so later changes to the caller's objects never reach a signed record. */
export function commitmentHead<P extends object>(a: { table: string; shoe: number; keyId: string; params: P; limits?: TableLimits }) {
  return {
    type: 'commitment' as const,
    table: a.table,
    shoe: a.shoe,
    keyId: a.keyId,
    params: { ...a.params },
    ...(a.limits ? { limits: { ...a.limits, chips: [...a.limits.chips] } } : {}),
  };
}

export function buildCommitment(a: CommitArgs): Commitment {
  return {
    ...commitmentHead(a),
    serverSeedHash: seedCommitment(a.serverSeed),
    playerKey: a.playerKey,
    openingBalance: a.openingBalance,
    ...(a.wallet ? { wallet: { operator: a.wallet.operator, player: a.wallet.player, currency: a.wallet.currency } } : {}),
    prev: a.prev,
    issuedAt: a.issuedAt,
  };
}

/** The start of a committed shoe; `prev`: the record it follows, the commitment unless transfers sit between (§B14). */
export function buildStart(
  commitment: Signed<Commitment>,
  request: SignedRequest<StartRequest>,
  keyId: string,
  issuedAt: string,
  prev: string = commitment.hash,
): Start {
  const c = commitment.body;
  return { type: 'start', table: c.table, shoe: c.shoe, keyId, request, prev, issuedAt };
}

export type AcceptErrorCode = 'request_mismatch' | 'bets_invalid' | 'bad_lock';

/**
 * The balance an acceptance starts from: play money, the balance the table carries; a wallet
 * shoe (§B15), the round's `debit`, and then the balance before is the wallet's balance just
 * before the debit, debit.balanceAfter + debit.amount (a `balanceBefore` given too must equal it:
 * a caller's error, thrown as a RangeError, like a debit that is not the round's stake).
 */
export type AcceptanceMoney = { balanceBefore: number; debit?: undefined } | { debit: WalletDebit; balanceBefore?: number };

/**
 * Accepts a (signature-checked) bet request: it must follow `last` (or `seen`, when transfers sit
 * after it: §B14), and its bets must be valid for `limits` and the balance before. In a wallet
 * shoe the debit's amount must be the round's total stake. The acceptance holds nothing about
 * the cards.
 */
export function buildAcceptance(
  a: {
    last: Signed;
    /** The hash of the newest record that is not a transfer, when transfers follow it. */
    seen?: string;
    round: number;
    request: SignedRequest<BetRequest>;
    limits?: TableLimits;
    affiliate: string | null;
    keyId: string;
    issuedAt: string;
  } & AcceptanceMoney,
): Result<Acceptance, EngineError<AcceptErrorCode>> {
  const r = a.request.body;
  if (r.table !== a.last.body.table || r.shoe !== a.last.body.shoe || r.round !== a.round || (r.prev !== a.last.hash && r.prev !== a.seen)) {
    return fail('request_mismatch', 'the bet request does not follow the last record of this shoe');
  }
  if (!/^[0-9a-f]{64}$/.test(r.lock)) return fail('bad_lock', 'the lock must be 64 lowercase hex characters');
  const d = a.debit;
  const balanceBefore = d ? d.balanceAfter + d.amount : a.balanceBefore;
  if (d && a.balanceBefore !== undefined && a.balanceBefore !== balanceBefore)
    throw new RangeError(`the balance before the debit is ${balanceBefore} (its balance after plus its amount), not ${a.balanceBefore}`);
  const bets = validateBets(r.bets, a.limits ?? LOOSEST_LIMITS, balanceBefore);
  if (!bets.ok) return fail('bets_invalid', bets.error.message);
  if (d && d.amount !== totalStake(r.bets)) throw new RangeError(`the debit of ${d.amount} is not the round's stake, ${totalStake(r.bets)}`);
  return ok({
    type: 'acceptance',
    table: r.table,
    shoe: r.shoe,
    keyId: a.keyId,
    round: a.round,
    affiliate: a.affiliate,
    request: a.request,
    balanceBefore,
    ...(d ? { debit: { transaction: d.transaction, attempt: d.attempt, amount: d.amount, balanceAfter: d.balanceAfter } } : {}),
    prev: a.last.hash,
    issuedAt: a.issuedAt,
  });
}

export type SettleErrorCode = 'request_mismatch' | 'lock_mismatch';

/**
 * Deals and settles an accepted round once the player revealed its secret. Needs the server seed.
 * A wallet shoe's round (its acceptance carries a debit, §B15) is settled with the `round-down`
 * commission and needs `creditTransaction` (and only then: a RangeError otherwise), the credit id
 * of the debit's attempt; the credit's amount is what the round returns (0 for a lost round).
 */
export function buildReceipt(a: {
  params: ShoeParams;
  state: ShoeState;
  serverSeed: string;
  cut: number;
  acceptance: Signed<Acceptance>;
  request: SignedRequest<SecretRequest>;
  /** Wallet mode only: the credit's transaction id (walletTransactionIds(…, debit.attempt).credit). */
  creditTransaction?: string;
  keyId: string;
  issuedAt: string;
}): Result<{ body: Receipt; state: ShoeState }, EngineError<SettleErrorCode>> {
  const acc = a.acceptance.body;
  const r = a.request.body;
  if (r.table !== acc.table || r.shoe !== acc.shoe || r.round !== acc.round || r.acceptance !== a.acceptance.hash) {
    return fail('request_mismatch', 'the secret request does not answer this acceptance');
  }
  // A caller's error, like a wrong signing key (signTagged).
  if ((acc.debit === undefined) !== (a.creditTransaction === undefined))
    throw new RangeError('a credit transaction is given exactly when the acceptance carries a wallet debit');
  if (!/^[0-9a-f]{64}$/.test(r.secret) || lockOf(r.secret) !== acc.request.body.lock)
    return fail('lock_mismatch', 'the secret does not open the lock of the bet request');
  const dealt = dealAcceptedRound(a.params, a.state, a.serverSeed, a.cut, r.secret, a.acceptance.hash);
  const bets = acc.request.body.bets;
  const s = settle(bets, dealt.round.outcome, acc.debit ? 'round-down' : 'exact');
  return ok({
    body: {
      type: 'receipt',
      table: acc.table,
      shoe: acc.shoe,
      keyId: a.keyId,
      round: acc.round,
      request: a.request,
      cards: receiptCards(dealt.round),
      ...roundFacts(dealt.round),
      ...settledFields(s, acc.balanceBefore),
      cutCardOut: dealt.cutCardOut,
      ...(a.creditTransaction !== undefined ? { credit: { transaction: a.creditTransaction, amount: s.returned } } : {}),
      prev: a.acceptance.hash,
      issuedAt: a.issuedAt,
    },
    state: dealt.state,
  });
}

/**
 * Voids an accepted round whose secret never came (issuedAt ≥ acceptance + voidAfterSeconds): the
 * stake is returned. In a wallet shoe (the acceptance carries a debit, §B15) `rollbackTransaction`,
 * the rollback id of the debit's attempt, is required, and the rollback's amount is the stake.
 */
export function buildVoid(acceptance: Signed<Acceptance>, keyId: string, issuedAt: string, rollbackTransaction?: string): Void {
  const a = acceptance.body;
  if ((a.debit === undefined) !== (rollbackTransaction === undefined))
    throw new RangeError('a rollback transaction is given exactly when the acceptance carries a wallet debit');
  return {
    type: 'void',
    table: a.table,
    shoe: a.shoe,
    keyId,
    round: a.round,
    balanceBefore: a.balanceBefore,
    balanceAfter: a.balanceBefore,
    ...(a.debit && rollbackTransaction !== undefined ? { rollback: { transaction: rollbackTransaction, amount: a.debit.amount } } : {}),
    prev: acceptance.hash,
    issuedAt,
  };
}

export function buildReveal(a: {
  last: Signed;
  serverSeed: string;
  rounds: number;
  reason: RevealReason;
  request?: SignedRequest<EndRequest>;
  closingBalance: number;
  keyId: string;
  issuedAt: string;
}): Reveal {
  return {
    type: 'reveal',
    table: a.last.body.table,
    shoe: a.last.body.shoe,
    keyId: a.keyId,
    serverSeed: a.serverSeed,
    rounds: a.rounds,
    reason: a.reason,
    ...(a.request ? { request: a.request } : {}),
    closingBalance: a.closingBalance,
    prev: a.last.hash,
    issuedAt: a.issuedAt,
  };
}
