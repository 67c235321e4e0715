/**
 * What the wallet is owed (WALLET.md §8): a settled round's credit (zero for a lost round: it
 * closes the debit), a voided round's rollback, an unknown debit's rollback. Each is written
 * `pending` in the same transaction as the record or the state that owes it, then sent by `drain`
 * (the table's one alarm, and right after the change that owed it) until the wallet acknowledges
 * it: retried with `nextRetryAt` backoff for ever while the outcome is unknown, kept `stuck` for
 * reconciliation on a refusal no retry changes (`outboxDisposition`).
 */
import { sharedTransactionId } from '../../shared/fairness/pb-fair-2/wallet.ts';
import { nextRetryAt, outboxDisposition } from '../../shared/wallet/index.ts';
import { iso, type SessionParts } from '../session/parts.ts';
import type { StoredCall } from './store.ts';
import type { WalletSession } from './wallet-session.ts';
import { SHARED_SHOE } from './store.ts';

export type Owed = Pick<StoredCall, 'txn' | 'kind' | 'shoe' | 'round' | 'attempt' | 'roundId' | 'amount' | 'debitTxn'>;

/** Writes an owed credit or rollback, due now; call it inside the transaction that owes it. */
export function oweCall(ws: WalletSession, owed: Owed, now: number): void {
  ws.store.insertCall({ ...owed, state: 'pending', attempts: 0, nextTryAt: now, createdAt: iso(now) });
}

/** A jitter in [0, 1) for the retry schedule. */
const jitter = (): number => crypto.getRandomValues(new Uint32Array(1))[0]! / 2 ** 32;

/**
 * Sends what is due. First, debits left `sending` (a restart, or a failure between the call and
 * its write: never while a debit is on its way, since both run in the table's queue of changes)
 * become unknown and their rollbacks owed. Then every due credit and rollback, once each.
 * Returns how many the wallet acknowledged.
 */
export async function drain(ws: WalletSession, parts: SessionParts, sessionId: string): Promise<number> {
  const w = ws.row();
  if (!w) return 0;
  for (const debit of ws.store.sending()) {
    // A shared table's debit (shoe 0) keeps its transfer id, from which its rollback's id derives (shared-transfer.ts).
    const txn =
      debit.shoe === SHARED_SHOE
        ? sharedTransactionId(w.operator, sessionId, debit.debitTxn!, debit.attempt, 'rollback')
        : await ws.transactionId(w, sessionId, debit.shoe, debit.attempt, 'rollback');
    const now = parts.now();
    parts.counted('wallet-refused', () => {
      ws.store.settleCall(debit.txn, { state: 'unknown', code: 'restart', at: iso(now) });
      oweCall(ws, { ...debit, txn, kind: 'rollback', debitTxn: debit.txn }, now);
    });
  }
  let acknowledged = 0;
  for (const owed of ws.store.due(parts.now())) {
    const result = await ws.call(w.operator, {
      kind: owed.kind as 'credit' | 'rollback',
      transactionId: owed.txn,
      roundId: owed.roundId,
      playerId: w.playerId,
      sessionId,
      currency: w.currency,
      amount: owed.amount,
      debitTransactionId: owed.debitTxn!,
    });
    const o = result.outcome;
    const disposition = outboxDisposition(owed.kind as 'credit' | 'rollback', o);
    const now = parts.now();
    const attempts = owed.attempts + 1;
    parts.counted('wallet-outbox', () => {
      if (disposition === 'done') {
        acknowledged++;
        const balance = o.kind === 'applied' ? o.answer.balance : null;
        ws.store.settleCall(owed.txn, { state: 'acknowledged', attempts, balance, code: o.kind === 'refused' ? o.code : null, at: iso(now) });
      } else if (disposition === 'retry') {
        const code = o.kind === 'unknown' ? o.reason : o.kind === 'refused' ? o.code : null;
        ws.store.settleCall(owed.txn, { state: 'pending', attempts, nextTryAt: nextRetryAt(now, attempts, jitter()), code, at: iso(now) });
      } else {
        ws.store.settleCall(owed.txn, { state: 'stuck', attempts, code: o.kind === 'refused' ? o.code : null, at: iso(now) });
      }
    });
  }
  return acknowledged;
}
