/**
 * A wallet-mode session at a shared table (WALLET.md "Shared tables", FAIRNESS.md §B15): the
 * table's transfers become calls of the player's wallet, sent by the session, with the private
 * table's exactly-once rules. Runs inside the session's queue of changes
 * (session/shared-table-money.ts calls it for a wallet session).
 *
 * - A **debit** (a bet's stake) passes the responsible-gaming limits, then is written `sending`
 *   (its own transaction) and sent BEFORE the session answers: applied → the transfer record,
 *   carrying the wallet debit, with the call acknowledged and the transfer's outcome, in one
 *   transaction; refused → the call and the transfer's refusal in one transaction, the wallet's
 *   code passed on; unknown (timeout, 5xx, dropped, forged) → never assumed: the call unknown, its
 *   rollback owed and the transfer's refusal in one transaction, answered `wallet_unavailable`.
 *   A retry of the transfer id gets the stored answer. A limit's refusal records nothing.
 * - A **credit** (0 closes a lost shared round) or a **refund** (a wallet rollback): the transfer
 *   record, its outcome and its owed call in one transaction, answered applied at once; the
 *   outbox (outbox.ts) sends the call until the wallet acknowledges it.
 *
 * Transaction ids: `sharedTransactionId(operator, session, transfer id, 1, kind)` (FAIRNESS.md §B15):
 * each transfer id is answered once, so its debit is attempt 1 and no id is ever sent for two calls.
 * The calls are shoe 0 of the session (store.ts `StoredCall`); the wallet's round id `<session>/0/<n>`.
 */
import { buildTransfer, signRecord, type TransferWallet } from '../../shared/index.ts';
import { sharedTransactionId } from '../../shared/fairness/pb-fair-2/wallet.ts';
import { TRANSFER_WALLET_MEMBER } from '../../shared/fairness/pb-fair-2/transfer.ts';
import { signingKey } from '../keys/keys.ts';
import { iso, type SessionParts } from '../session/parts.ts';
import { type SessionChange, type SessionRow, stateAfter } from '../session/store.ts';
import { transferError, type TransferOutcome, type WalletTransfer } from '../shared-table/wallet.ts';
import { oweCall } from './outbox.ts';
import { SHARED_SHOE, type StoredCall, type WalletSessionRow } from './store.ts';
import { WALLET_PLAYER_CODES, type WalletSession } from './wallet-session.ts';

type Refusal = Extract<TransferOutcome, { ok: false }>;

const refused = (t: WalletTransfer, code: Refusal['code'], message: string, replayed = false): Refusal => ({
  ok: false,
  id: String(t?.id),
  code,
  message,
  replayed,
});

/** The answer a stored refusal of a debit gets again: the wallet's code, or `wallet_unavailable` for an unknown outcome. */
function refusalOf(t: WalletTransfer, call: StoredCall | null, replayed: boolean): Refusal {
  if (call?.state === 'refused' && call.code !== null && WALLET_PLAYER_CODES.has(call.code))
    return refused(t, call.code as Refusal['code'], `the wallet refused the stake of ${t.amount} (${call.code})`, replayed);
  return refused(t, 'wallet_unavailable', `the wallet's answer to the stake of ${t.amount} is unknown: the bet is refused and the debit rolled back`, replayed);
}

export class SharedWalletTransfers {
  readonly #ws: WalletSession;
  readonly #parts: SessionParts;

  constructor(ws: WalletSession, parts: SessionParts) {
    this.#ws = ws;
    this.#parts = parts;
  }

  /** The wallet debit's id of shared transfer `transfer` (its attempt is 1). */
  #debitTxn(w: WalletSessionRow, sessionId: string, transfer: string): string {
    return sharedTransactionId(w.operator, sessionId, transfer, 1, 'debit');
  }

  /** Applies `t` for wallet session `w` (in the session's queue, after the checks every session makes). */
  async transfer(t: WalletTransfer, w: WalletSessionRow, session: SessionRow): Promise<TransferOutcome> {
    const { store } = this.#parts;
    const bad =
      transferError(t, true) ?? (t.kind !== 'debit' && !/^[0-9a-f]{16,64}$/.test(String(t.debit)) ? `a ${t.kind} names the debit transfer it closes` : null);
    if (bad) return refused(t, 'bad_transfer', bad);
    const seen = store.transfer(t.id);
    if (seen?.applied) return { ok: true, id: t.id, balance: seen.balanceAfter, replayed: true, currency: w.currency };
    if (seen) return refusalOf(t, this.#ws.store.call(this.#debitTxn(w, session.sessionId, t.id)), true);
    return t.kind === 'debit' ? this.#debit(t, w, session) : this.#close(t, w, session);
  }

  async #debit(t: WalletTransfer, w: WalletSessionRow, session: SessionRow): Promise<TransferOutcome> {
    const ws = this.#ws;
    const parts = this.#parts;
    const sid = session.sessionId;
    const txn = this.#debitTxn(w, sid, t.id);
    const rollbackTxn = sharedTransactionId(w.operator, sid, t.id, 1, 'rollback');
    const earlier = ws.store.call(txn);
    if (earlier) {
      // Sent before and never answered into a transfer (a restart between the call and its write): unknown, rolled back.
      parts.counted('wallet-refused', () => {
        if (earlier.state === 'sending') {
          ws.store.settleCall(txn, { state: 'unknown', code: 'restart', at: iso(parts.now()) });
          oweCall(ws, { ...earlier, txn: rollbackTxn, kind: 'rollback', debitTxn: txn }, parts.now());
        }
        parts.store.insertTransfer(t, { applied: false, balanceAfter: session.balance }, iso(parts.now()));
      });
      return refusalOf(t, ws.store.call(txn), false);
    }
    // The responsible-gaming limits, as for a private bet (a refusal records nothing: a retry is judged again).
    const decision = ws.step(w, session, { type: 'bet', stake: t.amount });
    if (decision.kind === 'refuse') return refused(t, decision.error.code, decision.error.message);
    const round = ws.store.nextSharedRound();
    const owed = { shoe: SHARED_SHOE, round, attempt: 1, roundId: `${sid}/${SHARED_SHOE}/${round}`, amount: t.amount };
    parts.counted('wallet-debit', () =>
      ws.store.insertCall({ ...owed, txn, kind: 'debit', debitTxn: t.id, state: 'sending', attempts: 1, nextTryAt: null, createdAt: iso(parts.now()) }),
    );
    const result = await ws.call(w.operator, {
      kind: 'debit',
      transactionId: txn,
      roundId: owed.roundId,
      playerId: w.playerId,
      sessionId: sid,
      currency: w.currency,
      amount: t.amount,
    });
    const o = result.outcome;
    const unknown = (why: string): Refusal => {
      const now = parts.now();
      parts.counted('wallet-refused', () => {
        ws.store.settleCall(txn, { state: 'unknown', code: why, at: iso(now) });
        oweCall(ws, { ...owed, txn: rollbackTxn, kind: 'rollback', debitTxn: txn }, now);
        parts.store.insertTransfer(t, { applied: false, balanceAfter: session.balance }, iso(now));
      });
      return refusalOf(t, null, false);
    };
    if (o.kind === 'refused') {
      parts.counted('wallet-refused', () => {
        ws.store.settleCall(txn, { state: 'refused', code: o.code, balance: o.balance ?? null, at: iso(parts.now()) });
        parts.store.insertTransfer(t, { applied: false, balanceAfter: session.balance }, iso(parts.now()));
      });
      return refusalOf(t, ws.store.call(txn), false);
    }
    if (o.kind === 'unknown') return unknown(o.reason);
    const balanceAfter = o.answer.balance;
    try {
      const wallet: TransferWallet = { debit: { transaction: txn, attempt: 1, amount: t.amount, balanceAfter } };
      await recordTransfer(this.#parts, t, session, balanceAfter + t.amount, wallet, () =>
        ws.store.settleCall(txn, { state: 'acknowledged', balance: balanceAfter, at: iso(parts.now()) }),
      );
    } catch (err) {
      // The money moved but no record can be written: the debit is rolled back, never kept.
      console.warn(`punto-banco: ${sid}: the transfer ${t.id} could not be recorded, its debit is rolled back:`, (err as Error).message);
      return unknown('not_recorded');
    }
    return { ok: true, id: t.id, balance: balanceAfter, replayed: false, currency: w.currency };
  }

  /** A credit or a refund: recorded, its call owed, answered applied at once. */
  async #close(t: WalletTransfer, w: WalletSessionRow, session: SessionRow): Promise<TransferOutcome> {
    const ws = this.#ws;
    const sid = session.sessionId;
    const debit = ws.store.call(this.#debitTxn(w, sid, t.debit!));
    if (debit?.kind !== 'debit' || debit.state !== 'acknowledged')
      return refused(t, 'bad_transfer', `the ${t.kind} closes the debit transfer ${t.debit}, which this session's wallet did not apply`);
    const kind = TRANSFER_WALLET_MEMBER[t.kind];
    const txn = sharedTransactionId(w.operator, sid, t.id, 1, kind);
    const movement = { transaction: txn, amount: t.amount };
    const wallet: TransferWallet = kind === 'credit' ? { credit: movement } : { rollback: movement };
    const now = this.#parts.now();
    const owed = { txn, kind, shoe: SHARED_SHOE, round: debit.round, attempt: 1, roundId: debit.roundId, amount: t.amount, debitTxn: debit.txn };
    const balanceAfter = await recordTransfer(this.#parts, t, session, session.balance, wallet, () => oweCall(ws, owed, now));
    return { ok: true, id: t.id, balance: balanceAfter, replayed: false, currency: w.currency };
  }
}

/**
 * Signs the transfer record of `t` (FAIRNESS.md §B14; in a wallet shoe with its wallet member,
 * §B15) and writes it with the transfer's outcome, the balance and `also`, in one transaction.
 * Returns the balance after it. Play money and wallet mode alike (session/shared-table-money.ts).
 */
export async function recordTransfer(
  parts: SessionParts,
  t: WalletTransfer,
  session: SessionRow,
  balanceBefore: number,
  wallet?: TransferWallet,
  also: () => void = () => {},
): Promise<number> {
  const { store, env } = parts;
  const key = await signingKey(env);
  const now = iso(parts.now());
  const record = await signRecord(
    buildTransfer({
      ask: t,
      last: store.lastRecord(null)!,
      shoe: session.currentShoe,
      balanceBefore,
      keyId: key.keyId,
      issuedAt: now,
      ...(wallet ? { wallet } : {}),
    }),
    key,
  );
  const balanceAfter = record.body.balanceAfter;
  const change: SessionChange = { balance: balanceAfter };
  // A shoe left idle after a void is revealed voidAfterSeconds after its newest record (§B6): the transfer is one.
  if (session.dueAt !== null) change.dueAt = iso(Date.parse(now) + store.shoeV2(session.currentShoe)!.params.voidAfterSeconds * 1000);
  parts.counted('transfer', () => {
    store.insertTransfer(t, { applied: true, balanceAfter }, now);
    store.appendRecord(record, stateAfter(session, change));
    also();
  });
  return balanceAfter;
}
