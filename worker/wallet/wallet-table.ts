/**
 * The table's changes in wallet mode (session/table.ts calls these where play money moves its own
 * balance): a bet passes the responsible-gaming limits, then its debit (debit.ts) is applied
 * before its acceptance is signed; a settled round owes its credit, a voided round its rollback,
 * each written in the record's own transaction (outbox.ts). The records carry the wallet's
 * transactions (FAIRNESS.md: `debit`, `credit`, `rollback`).
 */
import {
  type Acceptance,
  type AcceptErrorCode,
  type BetRequest,
  buildAcceptance,
  type Receipt,
  type SignedRequest,
  type Signed,
  signRecord,
  type SigningKey,
  type Void,
} from '../../shared/index.ts';
import type { EngineError } from '../../shared/errors.ts';
import { type Answer, failure } from '../http/answers.ts';
import { iso, type SessionParts } from '../session/parts.ts';
import type { SessionRow } from '../session/store.ts';
import { sendDebit } from './debit.ts';
import { oweCall } from './outbox.ts';
import type { WalletSessionRow } from './store.ts';
import { limitsRefusal, type WalletSession } from './wallet-session.ts';

const stakeOf = (bets: readonly { amount: number }[]): number => bets.reduce((sum, b) => sum + b.amount, 0);

/** The answer to an acceptance the builder refused (the same mapping as play money's). */
export function acceptRefusal(error: EngineError<AcceptErrorCode>, round: number, last: Signed): Answer<never> {
  const status = error.code === 'request_mismatch' ? 409 : error.code === 'bad_lock' ? 400 : 422;
  return failure(status, error.code, error.code === 'request_mismatch' ? `${error.message}: bet round ${round} after the record ${last.hash}` : error.message);
}

/**
 * A wallet-mode bet: limits, then the debit, then the acceptance (`debit` in it, `balanceBefore`
 * the wallet's balance just before the debit, so the balance after it is the wallet's answer).
 * On success, the signed acceptance and `acknowledge`, the debit's write in the acceptance's
 * transaction.
 */
export async function walletAcceptance(
  ws: WalletSession,
  parts: SessionParts,
  a: {
    w: WalletSessionRow;
    session: SessionRow;
    request: SignedRequest<BetRequest>;
    last: Signed;
    seen?: string;
    round: number;
    key: SigningKey;
  },
): Promise<Answer<never> | { acceptance: Signed<Acceptance>; acknowledge: (at: string) => void }> {
  const { w, session, request, round } = a;
  const stake = stakeOf(request.body.bets);
  const decision = ws.step(w, session, { type: 'bet', stake });
  if (decision.kind === 'refuse') return limitsRefusal(decision);
  const args = {
    last: a.last,
    ...(a.seen === undefined ? {} : { seen: a.seen }),
    round,
    request,
    limits: w.tableLimits,
    affiliate: session.affiliate,
    keyId: a.key.keyId,
  };
  // Everything the builder checks, checked before any money moves (the balance is the wallet's to judge).
  const dry = buildAcceptance({ ...args, balanceBefore: Number.MAX_SAFE_INTEGER, issuedAt: iso(parts.now()) });
  if (!dry.ok) return acceptRefusal(dry.error, round, a.last);
  const sent = await sendDebit(ws, parts, w, { sessionId: session.sessionId, shoe: request.body.shoe, round, amount: stake });
  if (!sent.ok) return sent.answer;
  const { debit } = sent;
  let acceptance: Signed<Acceptance>;
  try {
    const built = buildAcceptance({ ...args, debit, issuedAt: iso(parts.now()) });
    if (!built.ok) throw new Error(built.error.message);
    acceptance = await signRecord(built.value, a.key);
  } catch (err) {
    // The money moved but no acceptance can be given: the debit is rolled back, never kept.
    await sent.unknown('not_accepted');
    throw err;
  }
  return { acceptance, acknowledge: sent.acknowledge };
}

/** The debit an acceptance of a wallet shoe records. */
function debitOfAcceptance(acceptance: Signed<Acceptance>): { transaction: string; attempt: number; amount: number } {
  const d = acceptance.body.debit;
  if (!d) throw new Error(`the acceptance of round ${acceptance.body.round} of shoe ${acceptance.body.shoe} carries no debit`);
  return d;
}

/** A settled round's credit: its id and amount (what the round returns; 0 closes a lost round). */
export async function creditFor(
  ws: WalletSession,
  w: WalletSessionRow,
  acceptance: Signed<Acceptance>,
): Promise<{ transaction: string; debit: { transaction: string; attempt: number; amount: number } }> {
  const debit = debitOfAcceptance(acceptance);
  const b = acceptance.body;
  return { transaction: await ws.transactionId(w, b.table, b.shoe, debit.attempt, 'credit'), debit };
}

/** Writes the credit a receipt owes; inside the receipt's transaction. */
export function oweCredit(
  ws: WalletSession,
  parts: SessionParts,
  receipt: Signed<Receipt>,
  credit: { transaction: string; debit: { transaction: string; attempt: number } },
): void {
  const b = receipt.body;
  oweCall(
    ws,
    {
      txn: credit.transaction,
      kind: 'credit',
      shoe: b.shoe,
      round: b.round,
      attempt: credit.debit.attempt,
      roundId: `${b.table}/${b.shoe}/${b.round}`,
      amount: b.returned,
      debitTxn: credit.debit.transaction,
    },
    parts.now(),
  );
}

/** A voided round's rollback: its id and the stake. */
export async function rollbackFor(
  ws: WalletSession,
  w: WalletSessionRow,
  acceptance: Signed<Acceptance>,
): Promise<{ transaction: string; amount: number; debit: { transaction: string; attempt: number } }> {
  const debit = debitOfAcceptance(acceptance);
  const b = acceptance.body;
  return { transaction: await ws.transactionId(w, b.table, b.shoe, debit.attempt, 'rollback'), amount: debit.amount, debit };
}

/** Writes the rollback a void owes; inside the void's transaction. */
export function oweRollback(
  ws: WalletSession,
  parts: SessionParts,
  voided: Signed<Void>,
  rollback: { transaction: string; amount: number; debit: { transaction: string; attempt: number } },
): void {
  const b = voided.body;
  oweCall(
    ws,
    {
      txn: rollback.transaction,
      kind: 'rollback',
      shoe: b.shoe,
      round: b.round,
      attempt: rollback.debit.attempt,
      roundId: `${b.table}/${b.shoe}/${b.round}`,
      amount: rollback.amount,
      debitTxn: rollback.debit.transaction,
    },
    parts.now(),
  );
}
