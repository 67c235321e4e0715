/**
 * A shared table's money: exactly-once transfers with the players' sessions (wallet.ts has the
 * session's half). A transfer is written as pending before the session is asked and settled when
 * its answer is recorded; pending ones are asked again, with the same id, on every alarm. A bet's
 * debit answered tells its player (ack or refusal) and, at small tables, everyone.
 */
import { sharedTransferId } from '../../shared/fairness/pb-fair-2/transfer.ts';
import { haltIfAsked, type SharedTableParts } from './parts.ts';
import type { TransferRow } from './store.ts';
import { RETRY_LATER, type WalletTransfer, type TransferOutcome } from './wallet.ts';
import { type WalletClose, WalletSeats } from './wallet-seats.ts';

/** Up to this many connections, every accepted bet is broadcast as it comes; beyond, the close lists them. */
export const LIVE_BETS_MAX_SOCKETS = 50;
/** Transfers asked per alarm (or after a deal or a void), at most (the rest on the next one). */
const RETRY_BATCH = 2_000;
/** Transfers in flight at once: each is an RPC to a player's session object. */
const TRANSFER_CONCURRENCY = 64;

export class TableTransfers {
  readonly #p: SharedTableParts;
  /** WalletTransfer ids being asked of their session right now. */
  readonly #inFlight = new Set<string>();
  /** Wallet-mode seats and the zero credits their lost bets owe (wallet-seats.ts). */
  readonly walletSeats: WalletSeats;

  constructor(parts: SharedTableParts) {
    this.#p = parts;
    this.walletSeats = new WalletSeats(parts.ctx.storage.sql);
  }

  /** Asks every pending transfer once (RETRY_BATCH at most), TRANSFER_CONCURRENCY at a time. */
  async retry(): Promise<void> {
    // Every pending one is asked once here, at most TRANSFER_CONCURRENCY at a time: a round's
    // 1,000 credits go out at once instead of a batch per alarm, without 1,000 RPCs in flight.
    const pending = this.#p.store.pendingTransfers(RETRY_BATCH);
    const closes = this.walletSeats.pendingCloses(RETRY_BATCH);
    let next = 0;
    const worker = async () => {
      while (next < pending.length + closes.length) {
        const i = next++;
        if (i < pending.length) await this.run(pending[i]!, null);
        else await this.#close(closes[i - pending.length]!);
      }
    };
    await Promise.all(Array.from({ length: Math.min(TRANSFER_CONCURRENCY, pending.length) }, worker));
  }
  /**
   * Asks the session to apply `t` (idempotent on its side: the same id is applied once) and
   * records its answer; a fault leaves it pending for the next alarm. `player`: the bet's key, for a debit.
   */
  async run(t: TransferRow, player: string | null): Promise<void> {
    // One ask of an id at a time: while a bet's first ask is out, the alarm does not ask it too.
    if (this.#inFlight.has(t.id)) return;
    this.#inFlight.add(t.id);
    try {
      await this.#ask(t, player);
    } finally {
      this.#inFlight.delete(t.id);
    }
  }
  /** A lost wallet bet's zero credit (wallet-seats.ts): asked like a credit of 0, recorded once answered. */
  async #close(c: WalletClose): Promise<void> {
    if (this.#inFlight.has(c.id)) return;
    this.#inFlight.add(c.id);
    try {
      const tableId = this.#p.state().config.tableId;
      const debit = sharedTransferId(tableId, c.shoe, c.round, c.player, 'debit');
      const ask: WalletTransfer = { id: c.id, table: tableId, shoe: c.shoe, round: c.round, kind: 'credit', amount: 0, debit };
      let outcome: TransferOutcome;
      try {
        outcome = await this.#p.env.TABLES.getByName(c.session).sharedTransfer(ask);
      } catch (err) {
        console.warn(`punto-banco: ${tableId}: zero credit ${c.id} is pending, retried on the next alarm:`, (err as Error).message);
        await this.#p.schedule();
        return;
      }
      if (!outcome.ok && RETRY_LATER.has(outcome.code)) return void (await this.#p.schedule());
      this.#p.ctx.storage.transactionSync(() => this.walletSeats.settleClose(c.id, outcome.ok));
    } finally {
      this.#inFlight.delete(c.id);
    }
  }
  async #ask(t: TransferRow, player: string | null): Promise<void> {
    const s = this.#p.state();
    const ask: WalletTransfer = { id: t.id, table: s.config.tableId, shoe: t.shoe, round: t.round, kind: t.kind, amount: t.amount };
    if (t.kind !== 'debit') {
      // A credit or refund names the stake's debit transfer: a wallet-mode session closes that wallet debit with it.
      const owner = this.#p.store.sessionBets(t.shoe, t.round, t.session)[0];
      if (owner) ask.debit = sharedTransferId(s.config.tableId, t.shoe, t.round, owner.player, 'debit');
    }
    let outcome: TransferOutcome;
    try {
      outcome = await this.#p.env.TABLES.getByName(t.session).sharedTransfer(ask);
    } catch (err) {
      console.warn(`punto-banco: ${s.config.tableId}: transfer ${t.id} (${t.kind} ${t.amount}) is pending, retried on the next alarm:`, (err as Error).message);
      await this.#p.schedule();
      return;
    }
    if (!outcome.ok && RETRY_LATER.has(outcome.code)) {
      if (player !== null && t.kind === 'debit') {
        // A bet's first ask, answered busy (a private round of the session awaits its settlement): the
        // session recorded nothing, and this id was never asked before nor meanwhile (#inFlight), so the
        // bet is refused now, not held until the private round settles.
        this.#p.ctx.storage.transactionSync(() => {
          this.#p.store.setTransferStatus(t.id, 'refused');
          this.#p.store.setBetStatus({ shoe: t.shoe, round: t.round, player }, 'refused');
        });
        this.#p.toPlayer(t.session, {
          type: 'bet-refused',
          shoe: t.shoe,
          round: t.round,
          player,
          code: outcome.code,
          message: 'your session has a private round awaiting its settlement: finish it, then bet here from the next round',
        });
        return;
      }
      await this.#p.schedule();
      return;
    }
    await haltIfAsked(this.#p.env, `${t.kind}-applied`);
    const bet =
      t.kind === 'debit'
        ? player
          ? this.#p.store.bet(t.shoe, t.round, player)
          : this.#p.store.sessionBets(t.shoe, t.round, t.session).find((b) => sharedTransferId(s.config.tableId, b.shoe, b.round, b.player, 'debit') === t.id)
        : null;
    let late = false;
    const recorded = this.#p.ctx.storage.transactionSync(() => {
      const current = this.#p.store.transfer(t.id);
      if (!current || current.status !== 'pending') return false;
      this.#p.store.setTransferStatus(t.id, outcome.ok ? 'applied' : 'refused');
      if (!bet || bet.status !== 'debiting') return true;
      const st = this.#p.state();
      const open = st.phase === 'betting' && st.shoe.number === t.shoe && st.shoe.closed + 1 === t.round && this.#p.now() < (st.closesAt ?? 0);
      // A wallet-mode session's debit applied: its lost bets owe a zero credit (wallet-seats.ts).
      if (outcome.ok && outcome.currency !== undefined) this.walletSeats.mark(t.session, outcome.currency);
      if (!outcome.ok) this.#p.store.setBetStatus(bet, 'refused');
      else if (open) this.#p.store.setBetStatus(bet, 'accepted', outcome.balance + t.amount);
      else {
        // Debited after the close: the bet is not in the round, its stake goes straight back.
        late = true;
        this.#p.store.setBetStatus(bet, 'late');
        this.#p.store.insertTransfer({
          id: sharedTransferId(st.config.tableId, t.shoe, t.round, bet.player, 'refund'),
          session: t.session,
          shoe: t.shoe,
          round: t.round,
          kind: 'refund',
          amount: t.amount,
        });
      }
      return true;
    });
    if (!recorded) return;
    const balance = outcome.balance;
    if (bet) {
      const base = { shoe: t.shoe, round: t.round, player: bet.player };
      const now = this.#p.store.bet(bet.shoe, bet.round, bet.player)!;
      if (now.status === 'accepted') {
        this.#p.toPlayer(t.session, { type: 'bet-ack', ...base, stake: now.stake, balance });
        // Each bet to everyone is N² messages a round: only small tables get them live (all see the close).
        if (this.#p.connections() <= LIVE_BETS_MAX_SOCKETS) this.#p.fanOut({ type: 'bet', ...base, stake: now.stake, bets: now.request.body.bets });
      } else if (now.status === 'refused') {
        this.#p.toPlayer(t.session, {
          type: 'bet-refused',
          ...base,
          code: outcome.ok ? 'refused' : outcome.code,
          message: outcome.ok ? '' : outcome.message,
          balance,
        });
      } else if (late) {
        this.#p.toPlayer(t.session, {
          type: 'bet-refused',
          ...base,
          code: 'betting_closed',
          message: 'betting closed before your stake was taken: it is returned',
        });
        await this.#p.schedule();
      }
    } else if (outcome.ok) {
      this.#p.toPlayer(t.session, { type: 'balance', balance: outcome.balance, transfer: t.id, kind: t.kind, shoe: t.shoe, round: t.round });
    }
  }
}
