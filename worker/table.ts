/**
 * `Table`: one Durable Object per player table session, addressed by name (the session id), with
 * its state in SQLite (`ctx.storage.sql`, schema in `schema.ts`). The fetch handler calls its RPC
 * methods; each returns an `Answer` (status + JSON body), never throws for bad input.
 *
 * Atomicity. A change (create, start, round, end) is computed in memory first: validate, deal
 * from the committed shoe, settle, build the records, and sign them (WebCrypto, async). Only then
 * are all its rows written, synchronously, inside one `ctx.storage.transactionSync`: for a round,
 * its receipt (which also keeps the round's Idempotency-Key: a replay rebuilds the answer from it)
 * and the session row (balance, chain head, running totals, the shoe's dealing position), plus the
 * reveal and the next commitment when the shoe ends; for the other changes, their rows and the
 * idempotent answer. Two rows per ordinary round: Durable Objects bill SQLite per row written.
 * `transactionSync` commits all of it or, if anything throws (a CHECK such as
 * balance ≥ 0, a guarded UPDATE that matched no row), rolls all of it back; no await happens
 * inside it. The platform's output gate then holds the response until the write is durable,
 * so no client ever sees an answer that was not stored.
 *
 * Serialization. Input gates stop other calls from being delivered only while storage is being
 * accessed, not while we await the signature; so the changing methods run one at a time through
 * an in-memory queue (`#exclusive`). Inside it, the idempotency check and every state check see
 * the result of the previous change. Reads are synchronous and need no queue.
 *
 * The server seed never leaves this object before the shoe's reveal: views and records are built
 * from explicit fields, and the seed only appears in the signed reveal record.
 *
 * Embedding. Every call says which browser origin it comes from (`Auth.origin`, null for none or
 * the Worker's own); the table refuses an origin not allowed for its affiliate (cors.ts) with 403
 * `origin_not_allowed`, after the token check, so only the token's holder learns the affiliate.
 *
 * The operator's ledger. The session row keeps running totals (rounds, staked, returned) written
 * in the round's own transaction; after a change commits, the alarm sends them to the `Ledger`
 * (ledger.ts explains why that can neither double count nor lose a round).
 */
import { DurableObject } from 'cloudflare:workers';
import {
  buildCommitmentBody,
  buildReceiptBody,
  buildRevealBody,
  buildStartBody,
  cutRange,
  dealRound,
  DEFAULT_SHOE_PARAMS,
  deriveRoundShoe,
  deriveShoe,
  type EndAnswer,
  FAIRNESS_VERSION,
  newServerSeed,
  type ReceiptBody,
  type ReceiptsAnswer,
  type RevealBody,
  type RoomId,
  ROOMS,
  type RoundAnswer,
  type SessionView,
  settle,
  type Shoe,
  type ShoeMode,
  type ShoeParams,
  type ShoeView,
  type Signed,
  signRecord,
  type StartAnswer,
  type TableLimits,
  type Transcript,
  validateBets,
  validateClientSeed,
  validateShoeCut,
  validateShoeParams,
} from '../shared/index.ts';
import { type Answer, answer, failure, rateLimited } from './answers.ts';
import type { Attribution } from './attribution.ts';
import { isOriginAllowedFor, originRefusal } from './cors.ts';
import { type Env, ledgerDelayMs, rateLimits } from './env.ts';
import { signingKey } from './keys.ts';
import { LEDGER_NAME } from './ledger.ts';
import { TokenBucket } from './limits.ts';
import { migrate, schemaVersion, SCHEMA_VERSION } from './schema.ts';
import { type SessionRow, type ShoeRow, type ShoeState, TableStore } from './store.ts';
import { matchesAny } from './tokens.ts';
import { applyTransfer, listTransfers, type Transfer, type TransferOutcome } from './shared-wallet.ts';

/** Play money a new session starts with, per room: a hundred maximum bets on one box. */
export const STARTING_BALANCE: Readonly<Record<RoomId, number>> = {
  'hall-1': 1_000_000,
  'hall-2': 10_000_000,
  vip: 100_000_000,
};

/**
 * Reshuffle mode deals every round from its own stack, so no cut card ends the seed's use: the
 * seed is revealed (reason "cut-card") after this many rounds, or earlier on request.
 */
export const RESHUFFLE_ROUNDS_PER_SEED = 100;

/** How long a table remembers an Idempotency-Key and its answer. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;


/** How long to wait before sending the totals again when the ledger could not be reached. */
export const LEDGER_RETRY_MS = 30_000;

/** Who is calling: the SHA-256 of the bearer token, and the browser origin (null: none, or the Worker's own). */
export interface Auth {
  tokenHash: string;
  origin: string | null;
}

/** An idempotent change: the client's key and the hash of its request. */
export interface Idem {
  key: string;
  requestHash: string;
}

export interface CreateInit {
  sessionId: string;
  tokenHash: string;
  room: RoomId;
  affiliate: string | null;
  attribution: Attribution;
  mode?: ShoeMode;
  decks?: number;
}

type Entered = { ok: true; session: SessionRow } | { ok: false; answer: Answer<never> };

/**
 * A change computed and ready to commit: its answer, and its writes (given the time of the
 * answer). `keptWithReceipt`: the writes keep the Idempotency-Key with the round's receipt, so
 * the answer itself is not stored.
 */
interface Computed<T> {
  kind: ChangeKind;
  result: Answer<T>;
  write: (answeredAt: string) => void;
  keptWithReceipt?: boolean;
}

/** The kinds of writes `stats()` counts rows for ("ledger": recording that the ledger has the totals). */
export type ChangeKind = 'create' | 'start' | 'round' | 'round-ending-shoe' | 'end' | 'ledger';

/** Rows written since the instance started (indexes included, as billed), in all and per kind of change. */
export interface TableStats {
  rowsWritten: number;
  changes: Partial<Record<ChangeKind, { count: number; rowsWritten: number }>>;
}

const randomBytes = (n: number): Uint8Array => crypto.getRandomValues(new Uint8Array(n));

export class Table extends DurableObject<Env> {
  readonly #store: TableStore;
  #tail: Promise<unknown> = Promise.resolve();
  #tokens: string[] | null = null;
  #created = false;
  /** The derived stack of the shoe in play, by everything it was derived from. */
  #derived: { key: string; value: Shoe } | null = null;
  /** This instance has set the alarm that will send the totals (no need to set it again). */
  #ledgerArmed = false;
  #changes: TableStats['changes'] = {};
  /** The per-session rate limit; public so that tests can drain it instead of sending hundreds of requests. */
  readonly bucket: TokenBucket;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#store = new TableStore(ctx.storage.sql);
    this.bucket = new TokenBucket(rateLimits(env).session, Date.now());
    // An existing table written by an older version is brought up to date before any call.
    // A name that was never created stays empty: reads never create tables.
    const version = schemaVersion(ctx.storage.sql);
    if (version > 0 && version < SCHEMA_VERSION) ctx.storage.transactionSync(() => migrate(ctx.storage.sql));
    // Totals the ledger may have missed (an alarm lost with an instance, a table from before the
    // ledger existed) go out as soon as the table wakes.
    if (version > 0) void ctx.blockConcurrencyWhile(() => this.#scheduleLedger());
  }

  // ---- RPC: session ---------------------------------------------------------------------------

  /** Creates the session: its one token, the play-money balance and the signed commitment of shoe 1. */
  async create(init: CreateInit): Promise<Answer<SessionView>> {
    return this.#exclusive(async () => {
      if (this.#exists()) return failure(409, 'idempotency_conflict', 'this session already exists');
      const room = ROOMS[init.room];
      const params: ShoeParams = { ...DEFAULT_SHOE_PARAMS, algorithm: FAIRNESS_VERSION, mode: init.mode ?? DEFAULT_SHOE_PARAMS.mode, decks: init.decks ?? DEFAULT_SHOE_PARAMS.decks };
      const valid = validateShoeParams(params);
      if (!valid.ok) return failure(400, 'invalid_body', valid.error.message);
      const now = this.#now();
      const next = await this.#commit(init.sessionId, 1, params, room.limits, null, now);
      this.#counted('create', () => {
        migrate(this.ctx.storage.sql);
        this.#store.insertSession({
          sessionId: init.sessionId,
          room: init.room,
          affiliate: init.affiliate,
          attribution: init.attribution,
          balance: STARTING_BALANCE[init.room],
          currentShoe: 1,
          head: next.commitment.hash,
          createdAt: now,
        });
        this.#store.insertToken(init.tokenHash, now);
        this.#store.insertShoe(next);
      });
      await this.#scheduleLedger();
      this.#tokens = [init.tokenHash];
      return answer(201, this.#view());
    });
  }

  /** Whether the token is one of this session's (the fetch handler's 401/403 distinction). */
  async checkToken(tokenHash: string): Promise<boolean> {
    return this.#exists() && matchesAny(tokenHash, this.#tokenHashes());
  }

  /** The session: balance, limits, current shoe (committed, never its seed), last receipt. */
  async state(auth: Auth): Promise<Answer<SessionView>> {
    const entered = this.#enter(auth);
    if (!entered.ok) return entered.answer;
    return answer(200, this.#view());
  }

  // ---- RPC: the shoe ------------------------------------------------------------------------------

  /** The player's client seed and cut start the committed shoe. */
  async startShoe(auth: Auth, idem: Idem, body: { clientSeed: string; cut: number }): Promise<Answer<StartAnswer>> {
    return this.#change(auth, idem, async (session) => {
      const shoe = this.#store.shoe(session.currentShoe)!;
      if (shoe.status !== 'awaiting-start') return failure(409, 'shoe_already_started', `shoe ${shoe.number} has already started`);
      const seed = validateClientSeed(body.clientSeed);
      if (!seed.ok) return failure(400, 'bad_client_seed', seed.error.message);
      const cut = validateShoeCut(shoe.params, body.cut);
      if (!cut.ok) return failure(400, 'bad_cut', cut.error.message);
      const startBody = buildStartBody({ table: session.sessionId, shoe: shoe.number, clientSeed: seed.value, cut: cut.value, prev: session.head!, issuedAt: this.#now() });
      // Where dealing begins: after the burn, known only from the derived stack.
      const firstPosition = shoe.params.mode === 'shoe' ? this.#shoeOf({ ...shoe, clientSeed: seed.value, cut: cut.value }).next : 0;
      const start = await signRecord(startBody, await signingKey(this.env));
      const result = answer(200, { shoe: this.#shoeView({ ...shoe, status: 'in-play', start }) });
      return {
        kind: 'start',
        result,
        write: () => {
          this.#store.startShoe(shoe.number, start);
          this.#store.updateSession({ head: start.hash, position: { rounds: 0, next: firstPosition } });
        },
      };
    });
  }

  /** Bets → one round dealt from the committed shoe, settled, signed and stored; the reveal and the next shoe when the cut card comes out. */
  async playRound(auth: Auth, idem: Idem, body: { bets: { sector: number; box: string; amount: number }[] }): Promise<Answer<RoundAnswer>> {
    return this.#change(auth, idem, async (session) => {
      const shoe = this.#store.shoeState(session.currentShoe)!;
      if (shoe.status !== 'in-play') return failure(409, 'shoe_not_started', `shoe ${shoe.number} has not started: send the client seed and cut first`);
      const room = ROOMS[session.room];
      const bets = validateBets(body.bets as never, room.limits, session.balance);
      if (!bets.ok) return failure(422, bets.error.code, bets.error.message, placeOf(bets.error));
      const dealt = dealRound(this.#shoeOf(shoe, shoe.rounds + 1));
      if (!dealt.ok) return failure(409, 'shoe_not_started', dealt.error.message);
      const key = await signingKey(this.env);
      const now = this.#now();
      const round = shoe.rounds + 1;
      const receipt = await signRecord(
        buildReceiptBody({
          table: session.sessionId,
          shoe: shoe.number,
          round,
          affiliate: session.affiliate,
          bets: bets.value,
          dealt: dealt.value.round,
          settlement: settle(bets.value, dealt.value.round.outcome),
          balanceBefore: session.balance,
          cutCardOut: dealt.value.cutCardOut,
          prev: session.head!,
          issuedAt: now,
        }),
        key,
      );
      const balance = receipt.body.balanceAfter;
      const ends = shoe.params.mode === 'shoe' ? dealt.value.cutCardOut : round >= RESHUFFLE_ROUNDS_PER_SEED;
      const ending = ends ? await this.#endAndCommit(session, { ...shoe, rounds: round }, receipt.hash, 'cut-card', now) : null;
      const result: RoundAnswer = {
        receipt,
        balance,
        shoe: { number: shoe.number, status: ending ? 'ended' : 'in-play', rounds: round },
      };
      if (ending) {
        result.reveal = ending.reveal;
        result.nextShoe = this.#shoeView({ ...ending.next, status: 'awaiting-start', start: null, rounds: 0, reveal: null });
      }
      return {
        kind: ending ? 'round-ending-shoe' : 'round',
        result: answer(200, result),
        // The answer is not stored: a replay rebuilds it from the receipt (#roundAnswer).
        keptWithReceipt: true,
        write: (answeredAt) => {
          this.#store.insertReceipt(receipt, { key: idem.key, requestHash: idem.requestHash, at: answeredAt });
          if (ending) {
            this.#store.endShoe(shoe.number, ending.reveal, round, dealt.value.shoe.next);
            this.#store.insertShoe(ending.next);
          }
          this.#store.updateSession(
            {
              head: ending ? ending.next.commitment.hash : receipt.hash,
              balance,
              currentShoe: ending ? ending.next.number : undefined,
              position: ending ? { rounds: 0, next: null } : { rounds: round, next: dealt.value.shoe.next },
              round: { staked: receipt.body.staked, returned: receipt.body.returned },
            },
            { shoe: shoe.number, rounds: shoe.rounds },
          );
        },
      };
    });
  }

  /** Ends the current shoe before its cut card: reveals its server seed and commits the next shoe. */
  async endShoe(auth: Auth, idem: Idem): Promise<Answer<EndAnswer>> {
    return this.#change(auth, idem, async (session) => {
      const shoe = this.#store.shoe(session.currentShoe)!;
      const ending = await this.#endAndCommit(session, shoe, session.head!, 'ended-early', this.#now());
      const result: EndAnswer = {
        reveal: ending.reveal,
        balance: session.balance,
        shoe: { number: shoe.number, status: 'ended', rounds: shoe.rounds },
        nextShoe: this.#shoeView({ ...ending.next, status: 'awaiting-start', start: null, rounds: 0, reveal: null }),
      };
      return {
        kind: 'end',
        result: answer(200, result),
        write: () => {
          this.#store.endShoe(shoe.number, ending.reveal, shoe.rounds, shoe.nextPosition);
          this.#store.insertShoe(ending.next);
          this.#store.updateSession({ currentShoe: ending.next.number, head: ending.next.commitment.hash, position: { rounds: 0, next: null } });
        },
      };
    });
  }

  // ---- RPC: shared tables' money (shared-wallet.ts; issue 13) -------------------------------------

  /** Who sits down at a shared table with this token: the session's room and balance, or null. */
  async sharedSeat(tokenHash: string): Promise<{ sessionId: string; room: RoomId; affiliate: string | null; balance: number } | null> {
    if (!this.#exists() || !matchesAny(tokenHash, this.#tokenHashes())) return null;
    const s = this.#store.session()!;
    return { sessionId: s.sessionId, room: s.room, affiliate: s.affiliate, balance: s.balance };
  }

  /** A shared table moves this session's money: exactly once per transfer id, in the queue of changes. */
  async sharedTransfer(t: Transfer): Promise<TransferOutcome> {
    return this.#exclusive(async () => {
      if (!this.#exists()) return { ok: false, id: String(t?.id), code: 'no_session', message: 'no such session' } as const;
      return applyTransfer(this.ctx.storage, t, this.#now());
    });
  }

  /** This session's transfers with shared tables, oldest first. */
  async sharedTransfers(): Promise<ReturnType<typeof listTransfers>> {
    return this.#exists() ? listTransfers(this.ctx.storage) : [];
  }

  // ---- RPC: reading -------------------------------------------------------------------------------

  /** The receipts of one shoe (default: the current one), in round order. */
  async receipts(auth: Auth, shoeNumber: number | null): Promise<Answer<ReceiptsAnswer>> {
    const entered = this.#enter(auth);
    if (!entered.ok) return entered.answer;
    const number = shoeNumber ?? entered.session.currentShoe;
    if (!this.#store.shoe(number)) return failure(404, 'not_found', `there is no shoe ${number} at this table`);
    return answer(200, { shoe: number, receipts: this.#store.receipts(number) });
  }

  /** One shoe's transcript: commitment, start, receipts and, once it ended, the reveal. */
  async transcript(auth: Auth, shoeNumber: number): Promise<Answer<Transcript>> {
    const entered = this.#enter(auth);
    if (!entered.ok) return entered.answer;
    const shoe = this.#store.shoe(shoeNumber);
    if (!shoe) return failure(404, 'not_found', `there is no shoe ${shoeNumber} at this table`);
    const t: Transcript = { version: FAIRNESS_VERSION, commitment: shoe.commitment, receipts: this.#store.receipts(shoe.number) };
    if (shoe.start) t.start = shoe.start;
    if (shoe.reveal) t.reveal = shoe.reveal;
    return answer(200, t);
  }

  /** This instance's counters: rows written since it started (the bench's and the tests' figure of the billed writes). */
  async stats(): Promise<TableStats> {
    return { rowsWritten: this.#store.rowsWritten, changes: structuredClone(this.#changes) };
  }

  /** Runs `write` in one transaction and counts the rows it wrote under `kind`. */
  #counted(kind: ChangeKind, write: () => void): void {
    const before = this.#store.rowsWritten;
    this.ctx.storage.transactionSync(write);
    const tally = (this.#changes[kind] ??= { count: 0, rowsWritten: 0 });
    tally.count++;
    tally.rowsWritten += this.#store.rowsWritten - before;
  }

  // ---- the operator's ledger ---------------------------------------------------------------------

  /** Sends this table's totals to the ledger when it is behind (the alarm calls it). */
  override async alarm(): Promise<void> {
    this.#ledgerArmed = false;
    await this.#pushLedger();
  }

  /**
   * Sends this table's totals to the ledger now, when it is behind; true when the ledger has them.
   * The alarm does this on its own after every change; operators and tests may call it to settle.
   */
  async syncLedger(): Promise<boolean> {
    return this.#pushLedger();
  }

  /** Arms the alarm when the ledger lacks some of this table's totals (and it is not armed yet). */
  async #scheduleLedger(): Promise<void> {
    if (this.#ledgerArmed || !this.#exists()) return;
    const s = this.#store.session()!;
    if (s.ledgerRounds >= s.rounds) return;
    this.#ledgerArmed = true;
    try {
      await this.ctx.storage.setAlarm(Date.now() + ledgerDelayMs(this.env));
    } catch (err) {
      // The change itself is committed: never fail its answer for this. The next change, or the
      // table's next wake-up, arms the alarm again.
      this.#ledgerArmed = false;
      console.error('punto-banco: could not arm the ledger alarm:', (err as Error).message);
    }
  }

  async #pushLedger(): Promise<boolean> {
    if (!this.#exists()) return true;
    const s = this.#store.session()!;
    if (s.ledgerRounds >= s.rounds) return true;
    try {
      await this.env.LEDGER.getByName(LEDGER_NAME).record({
        sessionId: s.sessionId,
        affiliate: s.affiliate,
        attribution: s.attribution,
        room: s.room,
        rounds: s.rounds,
        staked: s.staked,
        returned: s.returned,
      });
    } catch (err) {
      console.error(`punto-banco: the ledger did not take the totals of ${s.sessionId} (retry in ${LEDGER_RETRY_MS / 1000} s):`, (err as Error).message);
      this.#ledgerArmed = true;
      await this.ctx.storage.setAlarm(Date.now() + LEDGER_RETRY_MS);
      return false;
    }
    this.#counted('ledger', () => this.#store.markLedger(s.rounds));
    // Rounds played while the totals were on their way go in the next push.
    await this.#scheduleLedger();
    return true;
  }

  // ---- internals ------------------------------------------------------------------------------------

  /** Runs changes one at a time (see the header: awaiting a signature opens the input gate). */
  #exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(fn, fn);
    this.#tail = run.catch(() => undefined);
    return run;
  }

  /**
   * The frame of every idempotent change: session, token, rate limit, then the idempotency key
   * (replay or conflict), then `compute` (which validates, deals and signs without writing),
   * then one transaction with its rows and the stored answer.
   */
  #change<T>(
    auth: Auth,
    idem: Idem,
    compute: (session: SessionRow) => Promise<Answer<never> | Computed<T>>,
  ): Promise<Answer<T>> {
    return this.#exclusive(async () => {
      const entered = this.#enter(auth);
      if (!entered.ok) return entered.answer;
      const stored = this.#store.answer(idem.key, new Date(Date.now() - IDEMPOTENCY_TTL_MS).toISOString());
      if (stored) {
        if (stored.requestHash !== idem.requestHash) {
          return failure(409, 'idempotency_conflict', 'this Idempotency-Key was already used with another request: use a new key for a new request');
        }
        const replayed = 'receipt' in stored ? answer(200, this.#roundAnswer(stored.receipt)) : { status: stored.status, body: stored.body };
        return { ...replayed, headers: { 'Idempotent-Replayed': 'true' } } as Answer<T>;
      }
      const computed = await compute(entered.session);
      if (!('write' in computed)) return computed;
      const { kind, result, write, keptWithReceipt } = computed;
      const now = Date.now();
      const answeredAt = new Date(now).toISOString();
      this.#counted(kind, () => {
        write(answeredAt);
        if (keptWithReceipt) return;
        this.#store.pruneAnswers(new Date(now - IDEMPOTENCY_TTL_MS).toISOString());
        this.#store.insertAnswer(idem.key, idem.requestHash, result.status, result.body, answeredAt);
      });
      await this.#scheduleLedger();
      return result;
    });
  }

  /**
   * A round's answer rebuilt from its receipt, exactly as it was first sent: the shoe ended in
   * this round when its reveal (reason "cut-card") follows this receipt; then the answer also
   * carried the reveal and the next shoe as it was committed.
   */
  #roundAnswer(receipt: Signed<ReceiptBody>): RoundAnswer {
    const { shoe: number, round } = receipt.body;
    const reveal = this.#store.shoe(number)!.reveal;
    const endedHere = reveal !== null && reveal.body.reason === 'cut-card' && reveal.body.prev === receipt.hash;
    const result: RoundAnswer = { receipt, balance: receipt.body.balanceAfter, shoe: { number, status: endedHere ? 'ended' : 'in-play', rounds: round } };
    if (endedHere) {
      result.reveal = reveal;
      result.nextShoe = this.#shoeView({ ...this.#store.shoe(number + 1)!, status: 'awaiting-start', start: null, rounds: 0, reveal: null });
    }
    return result;
  }

  /** Session exists, token matches, the origin may embed this affiliate's table, rate limit allows: in that order. */
  #enter(auth: Auth): Entered {
    if (!this.#exists()) return { ok: false, answer: failure(404, 'not_found', 'no such session') };
    if (!matchesAny(auth.tokenHash, this.#tokenHashes())) {
      return { ok: false, answer: failure(401, 'unauthorized', 'the bearer token is not valid for this session') };
    }
    const session = this.#store.session()!;
    if (!isOriginAllowedFor(auth.origin, session.affiliate, this.env)) return { ok: false, answer: originRefusal(auth.origin!, session.affiliate) };
    const taken = this.bucket.take(Date.now());
    if (!taken.ok) return { ok: false, answer: rateLimited(taken.retryAfter, 'on this table session') };
    return { ok: true, session };
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

  #now(): string {
    return new Date().toISOString();
  }

  /** A fresh server seed for shoe `number` and its signed commitment (the seed stays here). */
  async #commit(table: string, number: number, params: ShoeParams, limits: TableLimits, prev: string | null, now: string) {
    const serverSeed = newServerSeed(randomBytes);
    const body = buildCommitmentBody({ table, shoe: number, params, serverSeed, prev, issuedAt: now, limits });
    const commitment = await signRecord(body, await signingKey(this.env));
    return { number, params, serverSeed, commitment };
  }

  /** The reveal of `shoe` (chained after `prev`) and the next shoe's commitment (chained after the reveal). */
  async #endAndCommit(session: SessionRow, shoe: ShoeState, prev: string, reason: RevealBody['reason'], now: string) {
    const revealBody = buildRevealBody({ table: session.sessionId, shoe: shoe.number, serverSeed: shoe.serverSeed, rounds: shoe.rounds, reason, prev, issuedAt: now });
    const reveal = await signRecord(revealBody, await signingKey(this.env));
    const next = await this.#commit(session.sessionId, shoe.number + 1, shoe.params, ROOMS[session.room].limits, reveal.hash, now);
    return { reveal, next };
  }

  /**
   * The shoe the next round is dealt from. Shoe mode: the one derived stack (kept in memory per
   * shoe), at the stored position. Reshuffle mode: round `round`'s own stack.
   */
  #shoeOf(shoe: Pick<ShoeRow, 'number' | 'params' | 'serverSeed' | 'clientSeed' | 'cut' | 'nextPosition' | 'rounds'>, round = 1): Shoe {
    const { params, serverSeed } = shoe;
    const clientSeed = shoe.clientSeed!;
    const cut = shoe.cut!;
    if (params.mode === 'reshuffle') return deriveRoundShoe(params, serverSeed, clientSeed, cut, round);
    const key = `${shoe.number}\n${cut}\n${clientSeed}`;
    if (this.#derived?.key !== key) this.#derived = { key, value: deriveShoe(params, serverSeed, clientSeed, cut) };
    const base = this.#derived.value;
    return shoe.nextPosition === null ? base : { ...base, next: shoe.nextPosition, rounds: shoe.rounds };
  }

  #shoeView(shoe: Pick<ShoeRow, 'number' | 'status' | 'rounds' | 'params' | 'commitment' | 'start' | 'reveal'>): ShoeView {
    const view: ShoeView = {
      number: shoe.number,
      status: shoe.status,
      rounds: shoe.rounds,
      params: shoe.params,
      cutRange: cutRange(shoe.params),
      commitment: shoe.commitment,
    };
    if (shoe.start) view.start = shoe.start;
    if (shoe.reveal) view.reveal = shoe.reveal;
    return view;
  }

  #view(): SessionView {
    const session = this.#store.session()!;
    const room = ROOMS[session.room];
    return {
      sessionId: session.sessionId,
      room: session.room,
      roomName: room.name,
      affiliate: session.affiliate,
      attribution: session.attribution,
      balance: session.balance,
      limits: room.limits,
      shoe: this.#shoeView(this.#store.shoe(session.currentShoe)!),
      lastReceipt: this.#store.lastReceipt(),
    };
  }
}

/** The offending bet's place, when the engine names one. */
function placeOf(error: { sector?: number; box?: string }): { sector?: number; box?: string } | undefined {
  return error.sector === undefined ? undefined : { sector: error.sector, box: error.box };
}
