/**
 * `Table`: one Durable Object per player table session, addressed by name (the session id), with
 * its state in SQLite (`ctx.storage.sql`, schema in `schema.ts`, rows in `store.ts`). The fetch handler calls its RPC
 * methods; each returns an `Answer` (status + JSON body), never throws for bad input.
 *
 * Protocol. New sessions play pb-fair-2 (FAIRNESS.md part II): every change is a request signed by
 * the player's key, and a round takes two: the bet with its lock (→ a signed acceptance, the stake
 * debited; no card is known to anyone yet) and the round's secret (→ dealt, settled, a signed
 * receipt). An accepted round is owed: if its secret does not come within `voidAfterSeconds`, the
 * alarm signs a void and returns the stake. Sessions created under pb-fair-1 (schema version < 5)
 * stay readable; their changes answer 409 `protocol_retired`.
 *
 * Atomicity. A change (create, start, bet, secret, end, void) is computed in memory first:
 * validate, deal, settle, build the records, and sign them (WebCrypto, async). Only then are all
 * its rows written, synchronously, inside one `ctx.storage.transactionSync`: the record that
 * answers the request, which also keeps the request's Idempotency-Key (a replay rebuilds the
 * answer from it) and the session's state after it (balance, pending round, timer, running
 * totals: the session is its newest record's row, store.ts), plus the reveal and the next
 * shoe when the shoe ends. One row per phase of an ordinary round: Durable Objects bill SQLite
 * per row written. `transactionSync` commits all of it or, if anything throws (a CHECK such as
 * balance ≥ 0, a record that does not follow the newest one, a guarded UPDATE that matched no
 * row), rolls all of it back; no await happens inside it. The platform's output gate then holds
 * the response until the write is durable, so no client ever sees an answer that was not stored.
 *
 * Serialization. Input gates stop other calls from being delivered only while storage is being
 * accessed, not while we await the signature; so the changing methods run one at a time through
 * an in-memory queue (`#exclusive`). Inside it, the idempotency check and every state check see
 * the result of the previous change. Reads are synchronous and need no queue.
 *
 * The server seed never leaves this object before the shoe's reveal: views and records are built
 * from explicit fields, and the seed only appears in the signed reveal record. The cards of a
 * round follow from the seed and the player's secret, so before the secret nothing (not even this
 * object) knows them.
 *
 * Embedding. Every call says which browser origin it comes from (`Auth.origin`, null for none or
 * the Worker's own); the table refuses an origin not allowed for its affiliate (http/cors.ts; auth.ts) with 403
 * `origin_not_allowed`, after the token check, so only the token's holder learns the affiliate.
 *
 * The parts, one file each: the player's signed requests of play, computed without writing
 * (player-requests.ts), the shoes (seeds, commitments, reveals: shoes.ts), the views and
 * answers (views.ts; pb-fair-1 sessions: retired.ts), idempotent replay (replay.ts), the void
 * timer (void-timer.ts), the ledger push and the one alarm (ledger-push.ts), shared tables' money
 * (shared-table-money.ts), creation (create.ts). Wallet mode (WALLET.md) is worker/wallet: the
 * wallet's debit before the acceptance, the credit or rollback owed in the record's transaction.
 * This file is the RPC surface and the frame every change runs in (`#change`).
 */
import { DurableObject } from 'cloudflare:workers';
import {
  type AcceptanceAnswer,
  type EndAnswer,
  isEd25519X,
  type ReceiptsAnswer,
  type Receipt,
  type RoundAnswer,
  type Fair1SessionView,
  type SessionView,
  type Signed,
  type WalletSessionView,
  type StartAnswer,
  type TableTranscript,
  type Fair1Transcript,
} from '../../shared/index.ts';
import { type Env, rateLimits } from '../config/env.ts';
import { type Answer, answer, failure } from '../http/answers.ts';
import { TokenBucket } from '../http/limits.ts';
import { matchesAny } from '../http/tokens.ts';
import { SHARED_TRANSFER_BATCH, type WalletTransfer, type TransferOutcome } from '../shared-table/wallet.ts';
import type { FetchLike } from '../../shared/wallet/index.ts';
import type { WalletCallRow } from '../wallet/calls-view.ts';
import { drain } from '../wallet/outbox.ts';
import { WalletSession } from '../wallet/wallet-session.ts';
import { type Auth, enter, type Entered } from './auth.ts';
import { LedgerPush } from './ledger-push.ts';
import { type ChangeKind, iso, type SessionParts, type TableStats } from './parts.ts';
import { type Change, PlayerRequests } from './player-requests.ts';
import { IDEMPOTENCY_TTL_MS, type Idem, replayAnswer } from './replay.ts';
import { retired, retiredReceipts, retiredSessionView, retiredTranscript } from './retired.ts';
import { migrate, schemaVersion, SCHEMA_VERSION } from './schema.ts';
import { type SharedTableGuest, SharedTableMoney } from './shared-table-money.ts';
import { Shoes } from './shoes.ts';
import { type SessionRow, TableStore } from './store.ts';
import { sessionView } from './views.ts';
import { runVoidTimer } from './void-timer.ts';
import { type CreateInit, createSession } from './create.ts';

export { type CreateInit, RESHUFFLE_ROUNDS_PER_SEED } from './create.ts';

export class Table extends DurableObject<Env> {
  readonly #store: TableStore;
  readonly #parts: SessionParts;
  readonly #shoes: Shoes;
  readonly #ledgerPush: LedgerPush;
  readonly #sharedTables: SharedTableMoney;
  readonly #requests: PlayerRequests;
  #tail: Promise<unknown> = Promise.resolve();
  #tokens: string[] | null = null;
  #created = false;
  #changes: TableStats['changes'] = {};
  /** The per-session rate limit; public so that tests can drain it instead of sending hundreds of requests. */
  readonly bucket: TokenBucket;
  /** The table's clock (ms); public so that tests can move it past a void deadline instead of waiting. */
  clock: () => number = () => Date.now();
  /** How the table reaches an operator's wallet (wallet mode); public so that tests can put a scripted wallet behind it. */
  walletFetch: FetchLike = (url, init) => fetch(url, init);
  /** Tests only (never set in production): a shared table's call with these transfers is held ('hold') or fails ('fail'). */
  sharedTransferHook: ((batch: WalletTransfer[]) => 'hold' | 'fail' | undefined) | undefined;
  /** Shared tables' transfer calls received and the transfers in them (tests count the batching). */
  readonly sharedTransferCalls = { calls: 0, transfers: 0 };
  readonly #wallet: WalletSession;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#store = new TableStore(ctx.storage.sql);
    // The settings are read through the object each time: tests swap them on a live instance.
    const settings = () => this.env;
    this.#parts = {
      store: this.#store,
      get env() {
        return settings();
      },
      now: () => this.clock(),
      exists: () => this.#exists(),
      counted: (kind, write) => this.#counted(kind, write),
      walletTerms: () => this.#wallet.sessionTerms(),
    };
    this.#wallet = new WalletSession(this.#parts, () => this.walletFetch);
    this.#shoes = new Shoes(this.#parts);
    this.#requests = new PlayerRequests(this.#parts, this.#shoes, this.#wallet);
    this.#ledgerPush = new LedgerPush(this.#parts, ctx.storage, this.#wallet);
    this.#sharedTables = new SharedTableMoney(this.#parts, this.#shoes, this.#ledgerPush, () => this.#tokenHashes(), this.#wallet);
    this.bucket = new TokenBucket(rateLimits(env).session, Date.now());
    // An existing table written by an older version is brought up to date before any call.
    // A name that was never created stays empty: reads never create tables.
    const version = schemaVersion(ctx.storage.sql);
    if (version > 0 && version < SCHEMA_VERSION) ctx.storage.transactionSync(() => migrate(ctx.storage.sql));
    // Totals the ledger may have missed, or a timer whose alarm was lost, are looked at as soon as
    // the table wakes; an alarm still armed (by the instance before) is kept.
    if (version > 0)
      void ctx.blockConcurrencyWhile(async () => {
        this.#ledgerPush.found(await ctx.storage.getAlarm());
        await this.#ledgerPush.schedule();
      });
  }

  // ---- RPC: session ---------------------------------------------------------------------------

  /** Creates the session: its one token, the play-money balance and the signed commitment of shoe 1 naming the player's key. */
  async create(init: CreateInit): Promise<Answer<SessionView>> {
    return this.#exclusive(async () => {
      if (this.#exists()) return failure(409, 'idempotency_conflict', 'this session already exists');
      if (!isEd25519X(init.playerKey))
        return failure(400, 'invalid_body', 'playerKey must be an Ed25519 public key: 32 bytes in canonical base64url (43 characters)');
      const created = await createSession(this.#parts, this.#shoes, this.#wallet, init, () => migrate(this.ctx.storage.sql));
      if (created) return created;
      this.#tokens = [init.tokenHash];
      return answer(201, this.#view(this.#store.session()!));
    });
  }

  /** Whether the token is one of this session's (the fetch handler's 401/403 distinction). */
  async checkToken(tokenHash: string): Promise<boolean> {
    return this.#exists() && matchesAny(tokenHash, this.#tokenHashes());
  }

  /** The session: balance, limits, current shoe (committed, never its seed), head, pending round, last receipt. */
  async state(auth: Auth): Promise<Answer<SessionView | Fair1SessionView>> {
    const entered = this.#enter(auth);
    if (!entered.ok) return entered.answer;
    const s = entered.session;
    return answer(200, s.protocol === 'pb-fair-1' ? retiredSessionView(this.#store, s) : this.#view(s));
  }

  // ---- RPC: the shoe ------------------------------------------------------------------------------

  /** The player's signed client seed and cut start the committed shoe. */
  async startShoe(auth: Auth, idem: Idem, body: { request: unknown }): Promise<Answer<StartAnswer>> {
    return this.#change(auth, idem, (session) => this.#requests.start(session, body));
  }

  /**
   * Phase 1: the player's signed bets and lock. The stake is debited and a signed acceptance
   * stored in the same transaction; the acceptance holds no card and nothing a card follows from.
   */
  async placeBet(auth: Auth, idem: Idem, body: { request: unknown }): Promise<Answer<AcceptanceAnswer>> {
    return this.#change(auth, idem, (session) => this.#requests.bet(session, body));
  }

  /** Phase 2: the round's secret opens the lock; the round is dealt, settled and signed; the reveal and the next shoe when it ends the shoe. */
  async revealSecret(auth: Auth, idem: Idem, round: number, body: { request: unknown }): Promise<Answer<RoundAnswer>> {
    return this.#change(auth, idem, (session) => this.#requests.secret(session, round, body));
  }

  /** The player's signed end request: the shoe's seed is revealed and the next shoe committed. */
  async endShoe(auth: Auth, idem: Idem, body: { request: unknown }): Promise<Answer<EndAnswer>> {
    return this.#change(auth, idem, (session) => this.#requests.end(session, body));
  }

  // ---- RPC: wallet mode (worker/wallet) -----------------------------------------------------------

  /**
   * The player answers a reality check: `continue` (betting goes on; the next check is due that
   * many minutes later) or `stop` (the session ends, `player_stopped`). A check that is due is
   * raised first. Idempotent: an answer with no check pending, or after the end, changes nothing
   * and gets the session as it is.
   */
  async answerRealityCheck(auth: Auth, choice: 'continue' | 'stop'): Promise<Answer<SessionView>> {
    return this.#exclusive(async () => {
      const entered = this.#enter(auth);
      if (!entered.ok) return entered.answer;
      if (entered.session.protocol !== 'pb-fair-2') return retired();
      const w = this.#wallet.row();
      if (!w) return failure(404, 'not_found', 'this session plays play money: it has no reality check');
      this.#wallet.step(w, entered.session, { type: 'tick' });
      this.#wallet.step(this.#wallet.row()!, entered.session, { type: 'reality-check-answer', choice });
      return answer(200, this.#view(this.#store.session()!));
    });
  }

  /** The operator ends the session now (`self_exclusion`, `operator_ended`): every later bet is refused; a round already accepted still settles. Null: no such wallet session. */
  async endByOperator(code: 'self_exclusion' | 'operator_ended'): Promise<WalletSessionView | null> {
    return this.#exclusive(async () => {
      const w = this.#exists() ? this.#wallet.row() : null;
      if (!w) return null;
      const session = this.#store.session()!;
      this.#wallet.step(w, session, { type: 'end', code });
      return this.#wallet.view(this.#wallet.row()!, session);
    });
  }

  /** Every wallet call (debit, credit, rollback) of the session created in [from, to) (ISO times), oldest first. */
  async walletCalls(from: string, to: string): Promise<WalletCallRow[]> {
    const w = this.#exists() ? this.#wallet.row() : null;
    return w ? this.#wallet.calls(w, from, to) : [];
  }

  /** The signed records of one round (its acceptance, and its receipt or void), in chain order. */
  async roundRecords(shoe: number, round: number): Promise<Signed[]> {
    if (!this.#exists()) return [];
    return this.#store.records(shoe).filter((r) => (r.body as { round?: number }).round === round);
  }

  /** The session's wallet part (`SessionCommon.wallet`), or null for a play-money session. */
  async walletView(): Promise<WalletSessionView | null> {
    const w = this.#exists() ? this.#wallet.row() : null;
    return w ? this.#wallet.view(w, this.#store.session()!) : null;
  }

  /** Sends the wallet the credits and rollbacks due now (the alarm does this on its own); how many it acknowledged. */
  async drainWallet(): Promise<number> {
    return this.#exclusive(() => this.#drain());
  }

  // ---- RPC: shared tables' money (shared-table-money.ts) ------------------------------------------

  /** Who sits down at a shared table with this token: the session's room and balance, or null. */
  async sharedSeat(tokenHash: string): Promise<SharedTableGuest | null> {
    return this.#sharedTables.seat(tokenHash);
  }

  /** A single-use WebSocket ticket for shared table `table`, or null for a token not this session's. */
  async sharedTicket(tokenHash: string, table: string): Promise<ReturnType<SharedTableMoney['ticket']>> {
    return this.#sharedTables.ticket(tokenHash, table);
  }

  /** The seat a ticket opens, taking the ticket (single use); null when unknown, used, expired or for another table. */
  async sharedSeatByTicket(ticketHash: string, table: string): Promise<SharedTableGuest | null> {
    return this.#sharedTables.seatByTicket(ticketHash, table);
  }

  /** A shared table moves this session's money: exactly once per transfer id, in the queue of changes. */
  async sharedTransfer(t: WalletTransfer): Promise<TransferOutcome> {
    this.sharedTransferCalls.calls++;
    this.sharedTransferCalls.transfers++;
    await this.#heldByTest([t]);
    return this.#exclusive(() => this.#sharedTables.transfer(t));
  }

  /**
   * Several transfers of one shared table in one call (its pending credits, refunds and zero
   * credits for this session): each applied as `sharedTransfer` applies it, in order, in one turn
   * of the queue; the answers in the same order, each naming its id. A fault stops the batch: the
   * transfers after it get no answer, and the table asks them again (SHARED_TRANSFER_BATCH at most a call).
   */
  async sharedTransferBatch(batch: WalletTransfer[]): Promise<TransferOutcome[]> {
    const asked = Array.isArray(batch) ? batch.slice(0, SHARED_TRANSFER_BATCH) : [];
    this.sharedTransferCalls.calls++;
    this.sharedTransferCalls.transfers += asked.length;
    await this.#heldByTest(asked);
    return this.#exclusive(async () => {
      const answers: TransferOutcome[] = [];
      for (const t of asked) {
        try {
          answers.push(await this.#sharedTables.transfer(t));
        } catch (err) {
          console.warn(`punto-banco: a shared transfer (${String(t?.id)}) failed; the table asks it again:`, (err as Error).message);
          break;
        }
      }
      return answers;
    });
  }

  /** Tests only: a stuck session (the call waits while the hook says 'hold') or an unreachable one ('fail': the call throws). */
  async #heldByTest(batch: WalletTransfer[]): Promise<void> {
    for (let now = this.sharedTransferHook?.(batch); now; now = this.sharedTransferHook?.(batch)) {
      if (now === 'fail') throw new Error('a test made this session unreachable');
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** This session's transfers with shared tables, oldest first. */
  async sharedTransfers(): Promise<ReturnType<TableStore['transfers']>> {
    return this.#exists() ? this.#store.transfers() : [];
  }

  // ---- RPC: reading -------------------------------------------------------------------------------

  /** The receipts of one shoe (default: the current one), in round order. */
  async receipts(auth: Auth, shoeNumber: number | null): Promise<Answer<ReceiptsAnswer | { shoe: number; receipts: Signed<Receipt>[] }>> {
    const entered = this.#enter(auth);
    if (!entered.ok) return entered.answer;
    const number = shoeNumber ?? entered.session.currentShoe;
    if (entered.session.protocol === 'pb-fair-1') return retiredReceipts(this.#store, number);
    const records = this.#store.records(number);
    if (records.length === 0) return failure(404, 'not_found', `there is no shoe ${number} at this table`);
    return answer(200, { shoe: number, receipts: records.filter((x) => x.body.type === 'receipt') as Signed<Receipt>[] });
  }

  /** One shoe's transcript: pb-fair-1, its records; pb-fair-2, an excerpt of the table's file (that shoe's records). */
  async transcript(auth: Auth, shoeNumber: number): Promise<Answer<Fair1Transcript | TableTranscript>> {
    const entered = this.#enter(auth);
    if (!entered.ok) return entered.answer;
    if (entered.session.protocol === 'pb-fair-1') return retiredTranscript(this.#store, shoeNumber);
    const records = this.#store.records(shoeNumber);
    if (records.length === 0) return failure(404, 'not_found', `there is no shoe ${shoeNumber} at this table`);
    return answer(200, { version: 'pb-fair-2', records });
  }

  /** The table's whole history as one pb-fair-2 file (`verifyText`). */
  async tableTranscript(auth: Auth): Promise<Answer<TableTranscript>> {
    const entered = this.#enter(auth);
    if (!entered.ok) return entered.answer;
    if (entered.session.protocol === 'pb-fair-1') return retired();
    return answer(200, { version: 'pb-fair-2', records: this.#store.records() });
  }

  /** This instance's counters: rows written since it started (the bench's and the tests' figure of the billed writes). */
  async stats(): Promise<TableStats> {
    return {
      rowsWritten: this.#store.rowsWritten,
      rowsRead: this.#store.rowsRead,
      changes: structuredClone(this.#changes),
      alarm: { ...this.#ledgerPush.alarm },
      ledger: { ...this.#ledgerPush.ledger },
    };
  }

  /** Runs `write` in one transaction and counts the rows it wrote under `kind`. */
  #counted(kind: ChangeKind, write: () => void): void {
    const before = this.#store.rowsWritten;
    this.ctx.storage.transactionSync(write);
    const tally = (this.#changes[kind] ??= { count: 0, rowsWritten: 0 });
    tally.count++;
    tally.rowsWritten += this.#store.rowsWritten - before;
  }

  // ---- the alarm: the table's timer and the operator's ledger ----------------------------------------

  /** Voids a round whose secret is overdue (or reveals a shoe left idle after a void), then sends the totals when the ledger is behind. */
  override async alarm(): Promise<void> {
    this.#ledgerPush.fired();
    await this.#exclusive(() => runVoidTimer(this.#parts, this.#shoes, this.#wallet));
    await this.#exclusive(() => this.#drain());
    // Whatever the alarm was armed for (a void, the ledger, or an instance since evicted whose due
    // time this one never knew), the ledger gets what it may lack now: later would be another alarm.
    await this.#ledgerPush.push();
    await this.#ledgerPush.schedule();
  }

  /**
   * Sends this table's totals to the ledger now, when it is behind; true when the ledger has them.
   * The alarm does this on its own after every change; operators and tests may call it to settle.
   */
  async syncLedger(): Promise<boolean> {
    return this.#ledgerPush.push();
  }

  // ---- internals ------------------------------------------------------------------------------------

  /** Runs changes one at a time (see the header: awaiting a signature opens the input gate). */
  #exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(fn, fn);
    this.#tail = run.catch(() => undefined);
    return run;
  }

  /**
   * The frame of every idempotent change: session, token, rate limit, protocol, then the
   * Idempotency-Key (replay or conflict), then `compute` (which validates, deals and signs without
   * writing), then one transaction with its rows; the answering record keeps the key.
   */
  #change<T>(auth: Auth, idem: Idem, compute: (session: SessionRow) => Promise<Change<T>>): Promise<Answer<T>> {
    return this.#exclusive(async () => {
      const entered = this.#enter(auth);
      if (!entered.ok) return entered.answer;
      if (entered.session.protocol !== 'pb-fair-2') return retired();
      let session = entered.session;
      // The timer first, when it is due and its alarm has not run yet: a secret after the
      // deadline finds its round voided, as it would a moment later.
      if (session.dueAt !== null && this.clock() >= Date.parse(session.dueAt)) {
        await runVoidTimer(this.#parts, this.#shoes, this.#wallet);
        session = this.#store.session()!;
        await this.#ledgerPush.schedule();
      }
      const stored = this.#store.answered(idem.key, iso(Date.now() - IDEMPOTENCY_TTL_MS));
      if (stored) {
        if (stored.requestHash !== idem.requestHash) {
          return failure(409, 'idempotency_conflict', 'this Idempotency-Key was already used with another request: use a new key for a new request');
        }
        return { ...answer(200, replayAnswer(this.#store, stored)), headers: { 'Idempotent-Replayed': 'true' } } as Answer<T>;
      }
      const computed = await compute(session);
      if (!('write' in computed)) {
        // Wallet mode: a refused bet may have owed a rollback (an unknown debit): the alarm sends it.
        if (this.#wallet.row()) await this.#ledgerPush.schedule();
        return computed;
      }
      const { kind, result, write } = computed;
      const key = { key: idem.key, requestHash: idem.requestHash, at: iso(Date.now()) };
      this.#counted(kind, () => write(key));
      // Wallet mode: a settled round's credit is sent at once; the alarm retries what is not acknowledged.
      if ((kind === 'secret' || kind === 'secret-ending-shoe') && this.#wallet.row()) await drain(this.#wallet, this.#parts, entered.session.sessionId);
      await this.#ledgerPush.schedule(kind === 'bet');
      return result;
    });
  }

  /** Session exists, token matches, the origin may embed this affiliate's table, rate limit allows: in that order (auth.ts). */
  #enter(auth: Auth): Entered {
    const door = { exists: () => this.#exists(), tokenHashes: () => this.#tokenHashes(), session: () => this.#store.session()! };
    return enter(auth, door, this.bucket, this.env);
  }

  /** Whether the session was created (once true, true for good: sessions are never deleted). */
  #exists(): boolean {
    this.#created ||= schemaVersion(this.ctx.storage.sql) > 0 && this.#store.session() !== null;
    return this.#created;
  }

  #tokenHashes(): string[] {
    this.#tokens ??= this.#store.tokenHashes();
    return this.#tokens;
  }

  /** A pb-fair-2 session's view (in wallet mode, the wallet's balance and part). */
  #view(s: SessionRow): SessionView {
    return this.#wallet.sessionView(sessionView(this.#store, s), s);
  }

  /** Sends the wallet what is due (wallet mode; nothing in play mode). */
  async #drain(): Promise<number> {
    if (!this.#exists() || this.#wallet.row() === null) return 0;
    return drain(this.#wallet, this.#parts, this.#store.session()!.sessionId);
  }
}
