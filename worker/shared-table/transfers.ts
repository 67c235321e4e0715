/**
 * A shared table's money: exactly-once transfers with the players' sessions (wallet.ts has the
 * session's half). A transfer is written as pending before the session is asked and settled when
 * its answer is recorded; pending ones are asked again, with the same id, on later alarms. A bet's
 * debit answered tells its player (ack or refusal) and, at small tables, everyone.
 *
 * Off the round's path: what the table owes (credits, refunds, wallet zero credits, debits whose
 * first ask failed) is asked in the background (`askPending`), never under the round's lock, one
 * call per session object with all its pending transfers (`sharedTransferBatch`), at most
 * `transferConcurrency` calls waiting at once. A call not answered within `transferTimeoutMs`
 * stops holding its place: the others go on, the call stays out (its transfers are asked of no one
 * else meanwhile: `#inFlight`), and its answers are recorded whenever they come. A session whose
 * call timed out, failed or left something pending is asked again after a backoff (doubling from
 * RETRY_MS to BACKOFF_MAX_MS), on a later alarm, with the same ids.
 *
 * So a slow session's bet: a debit not answered before the close is not in the round (the bet is
 * `late` once the session answers, its stake refunded by its own transfer; a debit never answered
 * moved nothing, and nothing is owed for it); a credit not answered stays owed (`owed` in the
 * player's seat) and is applied once, when the session answers.
 */
import { sharedTransferId } from '../../shared/fairness/pb-fair-2/transfer.ts';
import { haltIfAsked, type SharedTableParts } from './parts.ts';
import { RETRY_MS } from './settings.ts';
import { logFault } from './sockets.ts';
import type { TransferRow } from './store.ts';
import { RETRY_LATER, SHARED_TRANSFER_BATCH, type WalletTransfer, type TransferOutcome } from './wallet.ts';
import { type WalletClose, WalletSeats } from './wallet-seats.ts';

/** Up to this many connections, every accepted bet is broadcast as it comes; beyond, the close lists them. */
export const LIVE_BETS_MAX_SOCKETS = 50;
/** Pending transfers looked at per pass (the rest on the next one). */
const RETRY_BATCH = 2_000;
/** Calls to sessions waited for at once (a call past its timeout no longer counts). */
export const TRANSFER_CONCURRENCY = 64;
/** How long the table waits for a session's answer before it stops holding a place for it. */
export const TRANSFER_TIMEOUT_MS = 2_000;
/** The longest a session that does not answer waits between asks. */
const BACKOFF_MAX_MS = 60_000;

/** One transfer owed to (or asked of) a session: what is asked, and how its answer is recorded. */
interface Owed {
  id: string;
  session: string;
  ask: WalletTransfer;
  record(outcome: TransferOutcome): Promise<void>;
}

export class TableTransfers {
  readonly #p: SharedTableParts;
  /** Transfer ids queued or being asked of their session right now: never asked twice at once. */
  readonly #inFlight = new Set<string>();
  /** Sessions with a batch queued or a call out: asked nothing more until it is answered. */
  readonly #calling = new Set<string>();
  /** Sessions asked again only from `until` on (a timeout, a fault, or something left pending). */
  readonly #backoff = new Map<string, { until: number; delayMs: number }>();
  /** Per-session batches waiting for a place, and the workers sending them. */
  readonly #queue: Owed[][] = [];
  #workers = 0;
  /** Something was left for a session with a call out: look again once the queue drains. */
  #again = false;
  /** Wallet-mode seats and the zero credits their lost bets owe (wallet-seats.ts). */
  readonly walletSeats: WalletSeats;

  constructor(parts: SharedTableParts) {
    this.#p = parts;
    this.walletSeats = new WalletSeats(parts.ctx.storage.sql);
  }

  /**
   * Asks every pending transfer (RETRY_BATCH at most) in the background, one batch per session:
   * returns at once, and nothing the round does waits for it.
   */
  askPending(): void {
    this.#again = false;
    const now = this.#p.now();
    const bySession = new Map<string, Owed[]>();
    const take = (id: string, session: string, owed: () => Owed) => {
      if (this.#inFlight.has(id) || (this.#backoff.get(session)?.until ?? 0) > now) return;
      const batch = bySession.get(session) ?? [];
      if (this.#calling.has(session) || batch.length >= SHARED_TRANSFER_BATCH) return void (this.#again = true);
      batch.push(owed());
      bySession.set(session, batch);
    };
    for (const t of this.#p.store.pendingTransfers(RETRY_BATCH)) take(t.id, t.session, () => this.#owedTransfer(t));
    for (const c of this.walletSeats.pendingCloses(RETRY_BATCH)) take(c.id, c.session, () => this.#owedClose(c));
    for (const [session, batch] of bySession) {
      this.#calling.add(session);
      for (const o of batch) this.#inFlight.add(o.id);
      this.#queue.push(batch);
    }
    while (this.#workers < this.#p.hooks.transferConcurrency && this.#queue.length > 0) {
      this.#workers++;
      void this.#work();
    }
  }

  async #work(): Promise<void> {
    try {
      for (let batch = this.#queue.shift(); batch; batch = this.#queue.shift()) await this.#call(batch).catch(logFault);
    } finally {
      this.#workers--;
      if (this.#workers === 0 && this.#again) this.askPending();
    }
  }

  /** One call with a session's batch; returns when it is answered or past its timeout (then it stays out, recorded when it answers). */
  async #call(batch: Owed[]): Promise<void> {
    const session = batch[0]!.session;
    const answered = this.#askBatch(session, batch).finally(() => {
      this.#calling.delete(session);
      for (const o of batch) this.#inFlight.delete(o.id);
    });
    if ((await this.#within(answered)) === 'timeout') this.#slow(session, `${batch.length} transfer(s)`);
  }

  async #askBatch(session: string, batch: Owed[]): Promise<void> {
    let outcomes: TransferOutcome[];
    try {
      outcomes = await this.#p.env.TABLES.getByName(session).sharedTransferBatch(batch.map((o) => o.ask));
    } catch (err) {
      console.warn(`punto-banco: ${this.#tableId()}: ${batch.length} transfer(s) to a session are pending, asked again later:`, (err as Error).message);
      return this.#later(session);
    }
    const byId = new Map(outcomes.map((o) => [o.id, o]));
    let left = false;
    for (const o of batch) {
      const outcome = byId.get(o.id);
      // No answer (the session stopped at a fault) or a busy one: it recorded nothing; asked again.
      if (!outcome || (!outcome.ok && RETRY_LATER.has(outcome.code))) left = true;
      else await o.record(outcome);
    }
    if (left) await this.#later(session);
    else this.#backoff.delete(session);
  }

  /**
   * A bet's debit, asked of its session as the bet comes (one call): its answer is recorded and
   * told to the player. Waits at most the timeout: past it the ask stays out and is recorded when it answers.
   */
  async run(t: TransferRow, player: string): Promise<void> {
    // One ask of an id at a time: while a bet's first ask is out, no pass asks it too.
    if (this.#inFlight.has(t.id)) return;
    this.#inFlight.add(t.id);
    const answered = this.#askDebit(t, player).finally(() => this.#inFlight.delete(t.id));
    if ((await this.#within(answered)) === 'timeout') this.#slow(t.session, `the debit ${t.id}`);
  }

  async #askDebit(t: TransferRow, player: string): Promise<void> {
    let outcome: TransferOutcome;
    try {
      outcome = await this.#p.env.TABLES.getByName(t.session).sharedTransfer(this.#askOf(t));
    } catch (err) {
      console.warn(`punto-banco: ${this.#tableId()}: transfer ${t.id} (${t.kind} ${t.amount}) is pending, asked again later:`, (err as Error).message);
      return this.#later(t.session);
    }
    if (!outcome.ok && RETRY_LATER.has(outcome.code)) {
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
    this.#backoff.delete(t.session); // it answers again
    await this.#record(t, player, outcome);
  }

  /** Waits for `answered`, at most the timeout; its fault is logged, never thrown (it is recorded as pending). */
  async #within(answered: Promise<void>): Promise<'answered' | 'timeout'> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), this.#p.hooks.transferTimeoutMs)));
    try {
      const done = answered.then(
        () => 'answered' as const,
        (err: unknown) => {
          logFault(err);
          return 'answered' as const;
        },
      );
      return await Promise.race([done, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** A call past its timeout: the session waits for a backoff before anything more is asked of it. */
  #slow(session: string, what: string): void {
    console.warn(
      `punto-banco: ${this.#tableId()}: a session has not answered ${what} in ${this.#p.hooks.transferTimeoutMs} ms: the table goes on, the answer is recorded when it comes`,
    );
    this.#backOff(session);
  }

  /** Something stays pending for `session`: asked again after its backoff, on a later alarm. */
  async #later(session: string): Promise<void> {
    this.#backOff(session);
    await this.#p.schedule();
  }

  #backOff(session: string): void {
    const delayMs = Math.min(BACKOFF_MAX_MS, (this.#backoff.get(session)?.delayMs ?? RETRY_MS / 2) * 2);
    this.#backoff.set(session, { until: this.#p.now() + delayMs, delayMs });
  }

  #tableId(): string {
    return this.#p.state().config.tableId;
  }

  /** What the session is asked for `t`: a credit or refund names the stake's debit (a wallet-mode session closes that wallet debit with it). */
  #askOf(t: TransferRow): WalletTransfer {
    const tableId = this.#tableId();
    const ask: WalletTransfer = { id: t.id, table: tableId, shoe: t.shoe, round: t.round, kind: t.kind, amount: t.amount };
    if (t.kind !== 'debit') {
      const owner = this.#p.store.sessionBets(t.shoe, t.round, t.session)[0];
      if (owner) ask.debit = sharedTransferId(tableId, t.shoe, t.round, owner.player, 'debit');
    }
    return ask;
  }

  #owedTransfer(t: TransferRow): Owed {
    return { id: t.id, session: t.session, ask: this.#askOf(t), record: (outcome) => this.#record(t, null, outcome) };
  }

  /** A lost wallet bet's zero credit (wallet-seats.ts): asked like a credit of 0, recorded once answered. */
  #owedClose(c: WalletClose): Owed {
    const table = this.#tableId();
    const debit = sharedTransferId(table, c.shoe, c.round, c.player, 'debit');
    const ask: WalletTransfer = { id: c.id, table, shoe: c.shoe, round: c.round, kind: 'credit', amount: 0, debit };
    return {
      id: c.id,
      session: c.session,
      ask,
      record: async (outcome) => void this.#p.ctx.storage.transactionSync(() => this.walletSeats.settleClose(c.id, outcome.ok)),
    };
  }

  /** Records the session's answer to `t` (once: a transfer no longer pending is left as it is) and tells the player. `player`: the bet's key, for a debit asked as the bet came. */
  async #record(t: TransferRow, player: string | null, outcome: TransferOutcome): Promise<void> {
    await haltIfAsked(this.#p.env, `${t.kind}-applied`);
    const s = this.#p.state();
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
        // Debited after the close: the bet is not in the round, its stake goes straight back (once:
        // this runs only while the debit is pending, and the refund's id is the bet's).
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
        this.askPending(); // its refund, now
      }
    } else if (outcome.ok) {
      this.#p.toPlayer(t.session, { type: 'balance', balance: outcome.balance, transfer: t.id, kind: t.kind, shoe: t.shoe, round: t.round });
    }
  }
}
