/**
 * A table session at shared tables (API.md "Shared tables: money"): who sits down with its token,
 * the single-use WebSocket tickets, and the transfers by which a shared table moves the session's
 * money, exactly once per transfer id. The rules of a transfer are shared-table/wallet.ts; the
 * rows are store.ts; the order of the steps is here, inside the session's queue of changes.
 */
import { isRoomId, type RoomId, ROOMS, type TableLimits } from '../../shared/index.ts';
import { sharedSeatError } from '../../shared/wallet/operators.ts';
import { matchesAny, newTicket, TICKET_TTL_MS, tokenHash as tokenHashOf } from '../http/tokens.ts';
import { decideTransfer, type WalletTransfer, transferError, type TransferOutcome, transferOutcome } from '../shared-table/wallet.ts';
import type { LedgerPush } from './ledger-push.ts';
import { iso, type SessionParts } from './parts.ts';
import type { Shoes } from './shoes.ts';
import { runVoidTimer, timerDue } from './void-timer.ts';
import { recordTransfer, SharedWalletTransfers } from '../wallet/shared-transfer.ts';
import type { WalletSession } from '../wallet/wallet-session.ts';

/** Who sits at a shared table: the session, its room and affiliate, its balance. */
export interface SharedTableGuest {
  sessionId: string;
  room: RoomId;
  affiliate: string | null;
  balance: number;
  /**
   * A wallet-mode session (worker/wallet): its currency and its room's limits in that currency's
   * minor units (a shared table seats it only where its stakes fit them, `sharedSeatError`); null in play money.
   */
  wallet: { currency: string; limits: TableLimits } | null;
}

export class SharedTableMoney {
  readonly #parts: SessionParts;
  readonly #shoes: Shoes;
  readonly #alarm: LedgerPush;
  readonly #tokenHashes: () => string[];
  /** Shared-table WebSocket tickets not used yet: hash → table and expiry (ticket). */
  readonly #tickets = new Map<string, { table: string; expires: number }>();

  readonly #wallet: WalletSession;
  readonly #walletTransfers: SharedWalletTransfers;

  constructor(parts: SessionParts, shoes: Shoes, alarm: LedgerPush, tokenHashes: () => string[], wallet: WalletSession) {
    this.#parts = parts;
    this.#wallet = wallet;
    this.#walletTransfers = new SharedWalletTransfers(wallet, parts);
    this.#shoes = shoes;
    this.#alarm = alarm;
    this.#tokenHashes = tokenHashes;
  }

  /** Who sits down at a shared table with this token: the session's room and balance, or null. */
  seat(tokenHash: string): SharedTableGuest | null {
    if (!this.#parts.exists() || !matchesAny(tokenHash, this.#tokenHashes())) return null;
    return this.#seatOf();
  }

  /**
   * A WebSocket ticket for shared table `table` (http/tokens.ts `newTicket`): valid TICKET_TTL_MS, once.
   * Kept in memory only: an object evicted meanwhile forgets it, and the player asks for another.
   */
  ticket(tokenHash: string, table: string): { ticket: string; expiresAt: string } | { refused: { code: 'shared_table_currency'; message: string } } | null {
    if (!this.#parts.exists() || !matchesAny(tokenHash, this.#tokenHashes())) return null;
    // A wallet seat the table's stakes do not fit is refused here too, where a browser can read why (the socket's upgrade it cannot).
    const room = table.split('/')[0];
    const w = this.#wallet.row();
    const misfit = w && isRoomId(room) ? sharedSeatError(ROOMS[room].limits, w.tableLimits, w.currency) : null;
    if (misfit) return { refused: { code: 'shared_table_currency', message: misfit } };
    const now = this.#parts.now();
    for (const [hash, t] of this.#tickets) if (t.expires <= now) this.#tickets.delete(hash);
    const ticket = newTicket(this.#parts.store.session()!.sessionId, (n) => crypto.getRandomValues(new Uint8Array(n)));
    this.#tickets.set(tokenHashOf(ticket), { table, expires: now + TICKET_TTL_MS });
    return { ticket, expiresAt: new Date(now + TICKET_TTL_MS).toISOString() };
  }

  /** The seat a ticket opens, taking the ticket (single use); null when unknown, used, expired or for another table. */
  seatByTicket(ticketHash: string, table: string): SharedTableGuest | null {
    const t = this.#tickets.get(ticketHash);
    if (!t) return null;
    this.#tickets.delete(ticketHash);
    if (t.expires <= this.#parts.now() || t.table !== table || !this.#parts.exists()) return null;
    return this.#seatOf();
  }

  #seatOf(): SharedTableGuest {
    const s = this.#parts.store.session()!;
    const w = this.#wallet.row();
    return {
      sessionId: s.sessionId,
      room: s.room,
      affiliate: s.affiliate,
      balance: w ? this.#wallet.store.lastBalance() : s.balance,
      wallet: w ? { currency: w.currency, limits: w.tableLimits } : null,
    };
  }

  /**
   * Applies `t` (run inside the session's queue). An applied transfer is a signed `transfer`
   * record of the session's chain (FAIRNESS.md §B14), written with the balance and the transfer's
   * outcome in one transaction; a refused debit changes nothing, so it is no record, only its
   * outcome is kept (a retry stays refused).
   */
  async transfer(t: WalletTransfer): Promise<TransferOutcome> {
    const { store } = this.#parts;
    if (!this.#parts.exists()) return { ok: false, id: String(t?.id), code: 'no_session', message: 'no such session' } as const;
    // A timer already due runs first, as before any change: an overdue round is voided, then the transfer applies.
    if (timerDue(this.#parts)) {
      await runVoidTimer(this.#parts, this.#shoes, this.#wallet);
      await this.#alarm.schedule();
    }
    const session = store.session()!;
    // A private round between its acceptance and its settlement writes the balance it computed
    // then: no shared transfer may move the balance under it. Nothing is recorded; the table asks again.
    if (session.pendingRound !== null)
      return { ok: false, id: String(t?.id), code: 'session_busy', message: 'a private round of this session is awaiting its settlement' } as const;
    // A wallet-mode session's money is the operator's wallet's: the table's transfer becomes a wallet call (worker/wallet).
    const w = this.#wallet.row();
    if (w !== null) {
      const outcome = await this.#walletTransfers.transfer(t, w, session);
      await this.#alarm.schedule();
      return outcome;
    }
    const bad = transferError(t);
    if (bad) return { ok: false, id: String(t?.id), code: 'bad_transfer', message: bad } as const;
    const seen = store.transfer(t.id);
    if (seen) return transferOutcome(t, seen, true);
    const decided = decideTransfer(t, session.balance);
    const now = iso(this.#parts.now());
    if (!decided.applied || session.protocol !== 'pb-fair-2') {
      // A refusal, or a retired pb-fair-1 session (no pb-fair-2 chain to record in): the outcome and the balance only.
      this.#parts.counted(decided.applied ? 'transfer' : 'transfer-refused', () => {
        store.insertTransfer(t, decided, now);
        if (decided.applied) store.setBalance(decided.balanceAfter);
      });
      return transferOutcome(t, decided, false);
    }
    await recordTransfer(this.#parts, t, session, session.balance);
    await this.#alarm.schedule();
    return transferOutcome(t, decided, false);
  }
}
