/**
 * A bet's debit (WALLET.md §8): written `sending`, with its attempt number taken, in its own
 * transaction BEFORE it is sent, so that a crash at any moment leaves a row that says a debit may
 * be on its way (restart: unknown, rolled back by the outbox). Then one call with the operator's
 * timeout: applied → the caller signs the acceptance and marks the debit acknowledged in the
 * acceptance's transaction; refused → marked refused, the bet refused with the wallet's code;
 * unknown → marked unknown and its rollback owed in one transaction, the bet refused with 503
 * `wallet_unavailable`. An unknown outcome is never taken as applied.
 */
import { type Answer, failure } from '../http/answers.ts';
import { iso, type SessionParts } from '../session/parts.ts';
import { oweCall } from './outbox.ts';
import type { WalletSessionRow } from './store.ts';
import { type WalletSession, walletRefusal } from './wallet-session.ts';

/** An applied debit: what the acceptance records (`Acceptance.debit`). */
export interface AppliedDebit {
  transaction: string;
  attempt: number;
  amount: number;
  /** The wallet's balance in its answer to the debit. */
  balanceAfter: number;
}

export type DebitResult =
  { ok: true; debit: AppliedDebit; acknowledge: (at: string) => void; unknown: (why: string) => Promise<void> } | { ok: false; answer: Answer<never> };

/** The round `round` of `shoe` asks the wallet for `amount`. */
export async function sendDebit(
  ws: WalletSession,
  parts: SessionParts,
  w: WalletSessionRow,
  at: { sessionId: string; shoe: number; round: number; amount: number },
): Promise<DebitResult> {
  const { sessionId, shoe, round, amount } = at;
  const attempt = ws.store.nextAttempt(shoe);
  const txn = await ws.transactionId(w, sessionId, shoe, attempt, 'debit');
  const rollbackTxn = await ws.transactionId(w, sessionId, shoe, attempt, 'rollback');
  const roundId = `${sessionId}/${shoe}/${round}`;
  const sentAt = iso(parts.now());
  parts.counted('wallet-debit', () =>
    ws.store.insertCall({
      txn,
      kind: 'debit',
      shoe,
      round,
      attempt,
      roundId,
      amount,
      debitTxn: null,
      state: 'sending',
      attempts: 1,
      nextTryAt: null,
      createdAt: sentAt,
    }),
  );
  /** The outcome is unknown (or the acceptance could not be written): the debit is marked so and its rollback owed, in one transaction. */
  const unknown = async (why: string) => {
    const now = parts.now();
    parts.counted('wallet-refused', () => {
      ws.store.settleCall(txn, { state: 'unknown', code: why, at: iso(now) });
      oweCall(ws, { txn: rollbackTxn, kind: 'rollback', shoe, round, attempt, roundId, amount, debitTxn: txn }, now);
    });
  };
  const result = await ws.call(w.operator, {
    kind: 'debit',
    transactionId: txn,
    roundId,
    playerId: w.playerId,
    sessionId,
    currency: w.currency,
    amount,
  });
  const o = result.outcome;
  if (o.kind === 'applied') {
    const balanceAfter = o.answer.balance;
    return {
      ok: true,
      debit: { transaction: txn, attempt, amount, balanceAfter },
      acknowledge: (ackAt) => ws.store.settleCall(txn, { state: 'acknowledged', balance: balanceAfter, at: ackAt }),
      unknown,
    };
  }
  if (o.kind === 'refused') {
    parts.counted('wallet-refused', () => ws.store.settleCall(txn, { state: 'refused', code: o.code, balance: o.balance ?? null, at: iso(parts.now()) }));
    return { ok: false, answer: walletRefusal(o.code, `the wallet refused the stake of ${amount}: ${o.message}`) };
  }
  await unknown(o.reason);
  return {
    ok: false,
    answer: failure(503, 'wallet_unavailable', `the wallet's answer to the stake is unknown (${o.message}): the bet is refused and the debit rolled back`),
  };
}
