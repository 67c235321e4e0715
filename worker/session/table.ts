/**
 * `Table`: one Durable Object per player table session, addressed by name (the session id), with
 * its state in SQLite (`ctx.storage.sql`, schema in `schema.ts`). The fetch handler calls its RPC
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
 * the Worker's own); the table refuses an origin not allowed for its affiliate (cors.ts) with 403
 * `origin_not_allowed`, after the token check, so only the token's holder learns the affiliate.
 *
 * The operator's ledger. The session keeps running totals (rounds, staked, returned) written
 * with each receipt (in its record's row); `LEDGER_DELAY_MS` after the first change the ledger
 * lacks, the alarm sends them to the `Ledger` (ledger.ts explains why that can neither double
 * count nor lose a round). What the ledger acknowledged is kept in memory, not written. The one
 * alarm serves both the ledger and the table's own timer (`due_at`): it is armed for the earlier
 * of the two, and an alarm already armed earlier is left be (each `setAlarm` is billed as a row
 * written; an early alarm does what is due and arms the next), so voids are never late.
 */
import { DurableObject } from 'cloudflare:workers';
import {
  type AcceptanceAnswer,
  type AcceptanceV2,
  buildAcceptanceV2,
  buildCommitmentV2,
  buildReceiptV2,
  buildRevealV2,
  buildStartV2,
  buildTransferV2,
  buildVoidV2,
  CARDS_PER_DECK,
  type CommitmentV2,
  DEFAULT_ROUND_LIMIT,
  DEFAULT_SHOE_PARAMS,
  defaultShoeRules,
  dealRoundV2,
  type EndAnswerV2,
  type EndRequest,
  FAIRNESS_VERSION,
  isEd25519X,
  newServerSeed,
  type ReceiptsAnswer,
  type ReceiptV2,
  revealDue,
  type RevealReason,
  type RevealV2,
  type RoomId,
  ROOMS,
  type RoundAnswerV2,
  type SessionView,
  type SessionViewV2,
  type ShoeMode,
  type ShoeParamsV2,
  type ShoeStateV2,
  type ShoeSummary,
  type ShoeView,
  type ShoeViewV2,
  type SignedRequest,
  type SignedV2,
  signRecordV2,
  type StartAnswerV2,
  type StartV2,
  startingBalance,
  startShoeV2,
  type TableLimits,
  type TableTranscriptV2,
  type Transcript,
  validateBets,
  checkRecordedClientSeed,
  validateParamsV2,
  validatePlayerRequest,
  type VoidV2,
} from '../../shared/index.ts';
import { type Answer, answer, failure, rateLimited } from '../http/answers.ts';
import type { Attribution } from '../embed/attribution.ts';
import { isOriginAllowedFor, originRefusal } from '../http/cors.ts';
import { type Env, ledgerDelayMs, rateLimits, voidAfterSeconds } from '../config/env.ts';
import { signingKey } from '../keys/keys.ts';
import { LEDGER_NAME } from '../ledger/ledger.ts';
import { TokenBucket } from '../http/limits.ts';
import { migrate, schemaVersion, SCHEMA_VERSION } from './schema.ts';
import { type KeyedRecord, type SessionChange, type SessionRow, type SessionState, type ShoeRowV2, stateAfter, TableStore } from './store.ts';
import { matchesAny, newTicket, TICKET_TTL_MS, tokenHash as tokenHashOf } from '../http/tokens.ts';
import { decideTransfer, type Transfer, transferError, type TransferOutcome, transferOutcome } from '../shared-table/wallet.ts';

/** Reshuffle mode deals every round from its own stack: the seed is revealed ("reshuffle-limit") after this many accepted rounds. */
export const RESHUFFLE_ROUNDS_PER_SEED = DEFAULT_ROUND_LIMIT;

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
  /** The player's Ed25519 public key (base64url x): every commitment names it, every request is signed by it. */
  playerKey: string;
  mode?: ShoeMode;
  decks?: number;
}

type Entered = { ok: true; session: SessionRow } | { ok: false; answer: Answer<never> };

/** A change computed and ready to commit: its answer, and its writes (given the answer's key, time included). */
interface Computed<T> {
  kind: ChangeKind;
  result: Answer<T>;
  write: (key: { key: string; requestHash: string; at: string }) => void;
}

/** The kinds of writes `stats()` counts rows for. */
export type ChangeKind = 'create' | 'start' | 'bet' | 'secret' | 'secret-ending-shoe' | 'end' | 'void' | 'idle-reveal' | 'transfer' | 'transfer-refused';

/** Rows written since the instance started (indexes included, as billed), in all and per kind of change. */
export interface TableStats {
  rowsWritten: number;
  /** Rows read by the table's queries (reads and changes alike), indexes included. */
  rowsRead: number;
  changes: Partial<Record<ChangeKind, { count: number; rowsWritten: number }>>;
  /** The alarm: times armed (`setAlarm`, billed as a row written each) and run (a Durable Object request each). */
  alarm: { set: number; runs: number };
  /** Totals sent to the ledger (an RPC each: a Durable Object request); `failed`: not delivered. */
  ledger: { pushes: number; failed: number };
}

const randomBytes = (n: number): Uint8Array => crypto.getRandomValues(new Uint8Array(n));

const iso = (ms: number): string => new Date(ms).toISOString();

const stakeOf = (a: AcceptanceV2): number => a.request.body.bets.reduce((sum, b) => sum + b.amount, 0);

export class Table extends DurableObject<Env> {
  readonly #store: TableStore;
  #tail: Promise<unknown> = Promise.resolve();
  #tokens: string[] | null = null;
  #created = false;
  /** The current shoe's state after its settled rounds (the remaining stack: server-side only), by shoe and settled count. */
  #dealt: { shoe: number; settled: number; state: ShoeStateV2 } | null = null;
  /** When the ledger push is due (table clock, ms), while the ledger may lack some totals. */
  #ledgerDue: number | null = null;
  /**
   * Rounds the ledger has acknowledged, as far as this instance knows (kept in memory only: no row
   * written for it). A fresh instance starts from the session row's `ledger_rounds` (a lower
   * bound: no longer written, -1 for newer sessions), so after an eviction it sends its totals once
   * more, which the ledger ignores when it has them.
   */
  #ledgerRounds = -1;
  /** The alarm time this instance has set or found armed (ms), to set it again only when it must fire earlier. */
  #armedAt: number | null = null;
  #changes: TableStats['changes'] = {};
  readonly #alarm: TableStats['alarm'] = { set: 0, runs: 0 };
  readonly #ledger: TableStats['ledger'] = { pushes: 0, failed: 0 };
  /** Shared-table WebSocket tickets not used yet: hash → table and expiry (sharedTicket). */
  readonly #tickets = new Map<string, { table: string; expires: number }>();
  /** The per-session rate limit; public so that tests can drain it instead of sending hundreds of requests. */
  readonly bucket: TokenBucket;
  /** The table's clock (ms); public so that tests can move it past a void deadline instead of waiting. */
  clock: () => number = () => Date.now();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#store = new TableStore(ctx.storage.sql);
    this.bucket = new TokenBucket(rateLimits(env).session, Date.now());
    // An existing table written by an older version is brought up to date before any call.
    // A name that was never created stays empty: reads never create tables.
    const version = schemaVersion(ctx.storage.sql);
    if (version > 0 && version < SCHEMA_VERSION) ctx.storage.transactionSync(() => migrate(ctx.storage.sql));
    // Totals the ledger may have missed, or a timer whose alarm was lost, are looked at as soon as
    // the table wakes; an alarm still armed (by the instance before) is kept.
    if (version > 0)
      void ctx.blockConcurrencyWhile(async () => {
        this.#armedAt = await ctx.storage.getAlarm();
        await this.#schedule();
      });
  }

  // ---- RPC: session ---------------------------------------------------------------------------

  /** Creates the session: its one token, the play-money balance and the signed commitment of shoe 1 naming the player's key. */
  async create(init: CreateInit): Promise<Answer<SessionViewV2>> {
    return this.#exclusive(async () => {
      if (this.#exists()) return failure(409, 'idempotency_conflict', 'this session already exists');
      if (!isEd25519X(init.playerKey))
        return failure(400, 'invalid_body', 'playerKey must be an Ed25519 public key: 32 bytes in canonical base64url (43 characters)');
      const mode = init.mode ?? DEFAULT_SHOE_PARAMS.mode;
      const decks = init.decks ?? DEFAULT_SHOE_PARAMS.decks;
      const vas = voidAfterSeconds(this.env);
      // The cut card in the middle of the stack (rule text 000), a committed parameter.
      const shoeRules = defaultShoeRules('shoe', decks);
      const params: ShoeParamsV2 =
        mode === 'shoe'
          ? { algorithm: 'pb-fair-2', mode, decks, burn: shoeRules.burn, cutCardFromEnd: shoeRules.cutCardFromEnd, voidAfterSeconds: vas }
          : { algorithm: 'pb-fair-2', mode, decks, roundLimit: RESHUFFLE_ROUNDS_PER_SEED, voidAfterSeconds: vas };
      const valid = validateParamsV2(params);
      if (!valid.ok) return failure(400, 'invalid_body', valid.error.message);
      const now = this.#iso();
      const balance = startingBalance(init.room);
      const next = await this.#commit({
        table: init.sessionId,
        number: 1,
        params,
        limits: ROOMS[init.room].limits,
        playerKey: init.playerKey,
        openingBalance: balance,
        prev: null,
        now,
      });
      this.#counted('create', () => {
        migrate(this.ctx.storage.sql);
        this.#store.insertSession({
          sessionId: init.sessionId,
          room: init.room,
          affiliate: init.affiliate,
          attribution: init.attribution,
          playerKey: init.playerKey,
          createdAt: now,
        });
        this.#store.insertToken(init.tokenHash, now);
        this.#store.insertShoe(next);
        this.#store.appendRecord(next.commitment, { balance, shoeRounds: 0, pendingRound: null, dueAt: null, rounds: 0, staked: 0, returned: 0 });
      });
      this.#tokens = [init.tokenHash];
      return answer(201, this.#viewV2(this.#store.session()!));
    });
  }

  /** Whether the token is one of this session's (the fetch handler's 401/403 distinction). */
  async checkToken(tokenHash: string): Promise<boolean> {
    return this.#exists() && matchesAny(tokenHash, this.#tokenHashes());
  }

  /** The session: balance, limits, current shoe (committed, never its seed), head, pending round, last receipt. */
  async state(auth: Auth): Promise<Answer<SessionViewV2 | SessionView>> {
    const entered = this.#enter(auth);
    if (!entered.ok) return entered.answer;
    const s = entered.session;
    return answer(200, s.protocol === 'pb-fair-1' ? this.#viewV1(s) : this.#viewV2(s));
  }

  // ---- RPC: the shoe ------------------------------------------------------------------------------

  /** The player's signed client seed and cut start the committed shoe. */
  async startShoe(auth: Auth, idem: Idem, body: { request: unknown }): Promise<Answer<StartAnswerV2>> {
    return this.#change(auth, idem, async (session) => {
      const checked = await validatePlayerRequest(session.playerKey!, body.request, 'start');
      if (!checked.ok) return failure(400, checked.error.code, checked.error.message);
      const request = checked.value;
      const shoe = this.#store.shoeV2(session.currentShoe)!;
      if (shoe.status !== 'awaiting-start') return failure(409, 'shoe_already_started', `shoe ${shoe.number} has already started`);
      const r = request.body;
      if (r.table !== session.sessionId || r.shoe !== shoe.number || r.commitment !== shoe.commitment.hash) {
        return failure(409, 'request_mismatch', `the start request does not answer the commitment of shoe ${shoe.number}`);
      }
      const seed = checkRecordedClientSeed(r.clientSeed);
      if (!seed.ok) return failure(400, 'bad_client_seed', seed.error.message);
      const range = cutRangeV2(shoe.params);
      if (!Number.isInteger(r.cut) || r.cut < range.min || r.cut > range.max)
        return failure(400, 'bad_cut', `the cut must be a whole number from ${range.min} to ${range.max}, got ${r.cut}`);
      const key = await signingKey(this.env);
      // Shared-table transfers may sit after the commitment (FAIRNESS.md §B14): the start follows the newest record.
      const start = await signRecordV2(buildStartV2(shoe.commitment, request, key.keyId, this.#iso(), session.head!), key);
      return {
        kind: 'start',
        result: answer(200, { shoe: this.#shoeView({ ...shoe, status: 'in-play', start, rounds: 0 }) }),
        write: (k) => {
          this.#store.appendRecord(start, stateAfter(session, { shoeRounds: 0 }), k);
          this.#store.startShoe(shoe.number, start);
        },
      };
    });
  }

  /**
   * Phase 1: the player's signed bets and lock. The stake is debited and a signed acceptance
   * stored in the same transaction; the acceptance holds no card and nothing a card follows from.
   */
  async placeBet(auth: Auth, idem: Idem, body: { request: unknown }): Promise<Answer<AcceptanceAnswer>> {
    return this.#change(auth, idem, async (session) => {
      const checked = await validatePlayerRequest(session.playerKey!, body.request, 'bet');
      if (!checked.ok) return failure(400, checked.error.code, checked.error.message);
      const request = checked.value;
      if (session.pendingRound !== null) {
        // The same signed bet sent again under another key: the acceptance it already has.
        const pending = this.#store.lastRecord<AcceptanceV2>('acceptance', session.currentShoe, session.pendingRound)!;
        if (sameRequest(pending.body.request, request)) return answer(200, this.#acceptanceAnswer(pending));
        return failure(
          409,
          'round_pending',
          `round ${session.pendingRound} is waiting for its secret: send it first (or wait for the void at ${session.dueAt})`,
        );
      }
      const shoe = this.#store.shoeV2(session.currentShoe)!;
      if (shoe.status !== 'in-play') return failure(409, 'shoe_not_started', `shoe ${shoe.number} has not started: send the signed start request first`);
      const room = ROOMS[session.room];
      const bets = validateBets(request.body.bets, room.limits, session.balance);
      if (!bets.ok) return failure(422, bets.error.code, bets.error.message, placeOf(bets.error));
      const last = this.#store.lastRecord(null)!;
      const key = await signingKey(this.env);
      const round = session.shoeRounds + 1;
      const built = buildAcceptanceV2({
        last,
        // After shared-table transfers the player may name the newest record it saw before them (§B14).
        ...(last.body.type === 'transfer' ? { seen: this.#store.lastPrivateRecord()!.hash } : {}),
        round,
        request,
        limits: room.limits,
        balanceBefore: session.balance,
        affiliate: session.affiliate,
        keyId: key.keyId,
        issuedAt: this.#iso(),
      });
      if (!built.ok) {
        const status = built.error.code === 'request_mismatch' ? 409 : built.error.code === 'bad_lock' ? 400 : 422;
        return failure(
          status,
          built.error.code,
          built.error.code === 'request_mismatch' ? `${built.error.message}: bet round ${round} after the record ${last.hash}` : built.error.message,
        );
      }
      const acceptance = await signRecordV2(built.value, key);
      const result = this.#acceptanceAnswer(acceptance, shoe.params);
      return {
        kind: 'bet',
        result: answer(200, result),
        write: (k) => {
          const change = { balance: result.balance, shoeRounds: round, pendingRound: round, dueAt: result.voidAt };
          this.#store.appendRecord(acceptance, stateAfter(session, change), k);
        },
      };
    });
  }

  /** Phase 2: the round's secret opens the lock; the round is dealt, settled and signed; the reveal and the next shoe when it ends the shoe. */
  async revealSecret(auth: Auth, idem: Idem, round: number, body: { request: unknown }): Promise<Answer<RoundAnswerV2>> {
    return this.#change(auth, idem, async (session) => {
      const checked = await validatePlayerRequest(session.playerKey!, body.request, 'secret');
      if (!checked.ok) return failure(400, checked.error.code, checked.error.message);
      const request = checked.value;
      const r = request.body;
      if (r.round !== round) return failure(400, 'bad_request', `the request is for round ${r.round}, the path names round ${round}`);
      if (session.pendingRound !== round || r.shoe !== session.currentShoe) return this.#notPending(r.shoe, round, request);
      const acceptance = this.#store.lastRecord<AcceptanceV2>('acceptance', session.currentShoe, round)!;
      const shoe = this.#store.shoeV2(session.currentShoe)!;
      const key = await signingKey(this.env);
      const settled = buildReceiptV2({
        params: shoe.params,
        state: this.#stateOf(shoe),
        serverSeed: shoe.serverSeed,
        cut: shoe.cut!,
        acceptance,
        request,
        keyId: key.keyId,
        issuedAt: this.#iso(),
      });
      if (!settled.ok) return failure(settled.error.code === 'request_mismatch' ? 409 : 422, settled.error.code, settled.error.message);
      const receipt = await signRecordV2(settled.value.body, key);
      const reason = revealDue(shoe.params, { cutCardOut: receipt.body.cutCardOut, accepted: round });
      const ending = reason ? await this.#endAndCommit(session, shoe, receipt, reason, receipt.body.balanceAfter) : null;
      const result = this.#roundAnswer(receipt, ending);
      return {
        kind: ending ? 'secret-ending-shoe' : 'secret',
        result: answer(200, result),
        write: (k) => {
          const settledState = stateAfter(session, {
            balance: receipt.body.balanceAfter,
            pendingRound: null,
            dueAt: null,
            settled: { staked: receipt.body.staked, returned: receipt.body.returned },
          });
          this.#store.appendRecord(receipt, settledState, k);
          if (ending) this.#writeEnding(shoe.number, ending, settledState);
          this.#dealt = ending ? null : { shoe: shoe.number, settled: settled.value.state.rounds, state: settled.value.state };
        },
      };
    });
  }

  /** The player's signed end request: the shoe's seed is revealed and the next shoe committed. */
  async endShoe(auth: Auth, idem: Idem, body: { request: unknown }): Promise<Answer<EndAnswerV2>> {
    return this.#change(auth, idem, async (session) => {
      const checked = await validatePlayerRequest(session.playerKey!, body.request, 'end');
      if (!checked.ok) return failure(400, checked.error.code, checked.error.message);
      const request = checked.value;
      if (session.pendingRound !== null)
        return failure(409, 'round_pending', `round ${session.pendingRound} is waiting for its secret: send it before ending the shoe`);
      const r = request.body;
      const last = this.#store.lastRecord(null)!;
      // After shared-table transfers the player may name the newest record it saw before them (§B14).
      const seen = last.body.type === 'transfer' ? this.#store.lastPrivateRecord()!.hash : session.head;
      if (r.table !== session.sessionId || r.shoe !== session.currentShoe || (r.prev !== session.head && r.prev !== seen)) {
        return failure(409, 'request_mismatch', `the end request must follow the newest record of shoe ${session.currentShoe} (${session.head})`);
      }
      const shoe = this.#store.shoeV2(session.currentShoe)!;
      const ending = await this.#endAndCommit(session, shoe, last, 'player', session.balance, request);
      const result = this.#endAnswer(ending.reveal, ending.next);
      return {
        kind: 'end',
        result: answer(200, result),
        write: (k) => {
          const ended = stateAfter(session, { dueAt: null });
          this.#store.appendRecord(ending.reveal, ended, k);
          this.#writeEnding(shoe.number, ending, ended, false);
          this.#dealt = null;
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

  /**
   * A WebSocket ticket for shared table `table` (tokens.ts `newTicket`): valid TICKET_TTL_MS, once.
   * Kept in memory only: an object evicted meanwhile forgets it, and the player asks for another.
   */
  async sharedTicket(tokenHash: string, table: string): Promise<{ ticket: string; expiresAt: string } | null> {
    if (!this.#exists() || !matchesAny(tokenHash, this.#tokenHashes())) return null;
    const now = this.clock();
    for (const [hash, t] of this.#tickets) if (t.expires <= now) this.#tickets.delete(hash);
    const ticket = newTicket(this.#store.session()!.sessionId, (n) => crypto.getRandomValues(new Uint8Array(n)));
    this.#tickets.set(tokenHashOf(ticket), { table, expires: now + TICKET_TTL_MS });
    return { ticket, expiresAt: new Date(now + TICKET_TTL_MS).toISOString() };
  }

  /** The seat a ticket opens, taking the ticket (single use); null when unknown, used, expired or for another table. */
  async sharedSeatByTicket(ticketHash: string, table: string): Promise<{ sessionId: string; room: RoomId; affiliate: string | null; balance: number } | null> {
    const t = this.#tickets.get(ticketHash);
    if (!t) return null;
    this.#tickets.delete(ticketHash);
    if (t.expires <= this.clock() || t.table !== table || !this.#exists()) return null;
    const s = this.#store.session()!;
    return { sessionId: s.sessionId, room: s.room, affiliate: s.affiliate, balance: s.balance };
  }

  /**
   * A shared table moves this session's money: exactly once per transfer id, in the queue of
   * changes. An applied transfer is a signed `transfer` record of the session's chain (FAIRNESS.md
   * §B14), written with the balance and the transfer's outcome in one transaction; a refused debit
   * changes nothing, so it is no record, only its outcome is kept (a retry stays refused).
   */
  async sharedTransfer(t: Transfer): Promise<TransferOutcome> {
    return this.#exclusive(async () => {
      if (!this.#exists()) return { ok: false, id: String(t?.id), code: 'no_session', message: 'no such session' } as const;
      let session = this.#store.session()!;
      // A timer already due runs first, as before any change: an overdue round is voided, then the transfer applies.
      if (session.dueAt !== null && this.clock() >= Date.parse(session.dueAt)) {
        await this.#runTimer();
        session = this.#store.session()!;
        await this.#schedule();
      }
      // A private round between its acceptance and its settlement writes the balance it computed
      // then: no shared transfer may move the balance under it. Nothing is recorded; the table asks again.
      if (session.pendingRound !== null)
        return { ok: false, id: String(t?.id), code: 'session_busy', message: 'a private round of this session is awaiting its settlement' } as const;
      const bad = transferError(t);
      if (bad) return { ok: false, id: String(t?.id), code: 'bad_transfer', message: bad } as const;
      const seen = this.#store.transfer(t.id);
      if (seen) return transferOutcome(t, seen, true);
      const decided = decideTransfer(t, session.balance);
      const now = this.#iso();
      if (!decided.applied || session.protocol !== 'pb-fair-2') {
        // A refusal, or a retired pb-fair-1 session (no pb-fair-2 chain to record in): the outcome and the balance only.
        this.#counted(decided.applied ? 'transfer' : 'transfer-refused', () => {
          this.#store.insertTransfer(t, decided, now);
          if (decided.applied) this.#store.setBalance(decided.balanceAfter);
        });
        return transferOutcome(t, decided, false);
      }
      const key = await signingKey(this.env);
      const last = this.#store.lastRecord(null)!;
      const record = await signRecordV2(
        buildTransferV2({ ask: t, last, shoe: session.currentShoe, balanceBefore: session.balance, keyId: key.keyId, issuedAt: now }),
        key,
      );
      const change: SessionChange = { balance: decided.balanceAfter };
      // A shoe left idle after a void is revealed voidAfterSeconds after its newest record (§B6): the transfer is one.
      if (session.dueAt !== null) change.dueAt = iso(Date.parse(now) + this.#store.shoeV2(session.currentShoe)!.params.voidAfterSeconds * 1000);
      this.#counted('transfer', () => {
        this.#store.insertTransfer(t, decided, now);
        this.#store.appendRecord(record, stateAfter(session, change));
      });
      await this.#schedule();
      return transferOutcome(t, decided, false);
    });
  }

  /** This session's transfers with shared tables, oldest first. */
  async sharedTransfers(): Promise<ReturnType<TableStore['transfers']>> {
    return this.#exists() ? this.#store.transfers() : [];
  }

  // ---- RPC: reading -------------------------------------------------------------------------------

  /** The receipts of one shoe (default: the current one), in round order. */
  async receipts(auth: Auth, shoeNumber: number | null): Promise<Answer<ReceiptsAnswer | { shoe: number; receipts: SignedV2<ReceiptV2>[] }>> {
    const entered = this.#enter(auth);
    if (!entered.ok) return entered.answer;
    const number = shoeNumber ?? entered.session.currentShoe;
    if (entered.session.protocol === 'pb-fair-1') {
      if (!this.#store.shoe(number)) return failure(404, 'not_found', `there is no shoe ${number} at this table`);
      return answer(200, { shoe: number, receipts: this.#store.receipts(number) });
    }
    const records = this.#store.records(number);
    if (records.length === 0) return failure(404, 'not_found', `there is no shoe ${number} at this table`);
    return answer(200, { shoe: number, receipts: records.filter((x) => x.body.type === 'receipt') as SignedV2<ReceiptV2>[] });
  }

  /** One shoe's transcript: pb-fair-1, its records; pb-fair-2, an excerpt of the table's file (that shoe's records). */
  async transcript(auth: Auth, shoeNumber: number): Promise<Answer<Transcript | TableTranscriptV2>> {
    const entered = this.#enter(auth);
    if (!entered.ok) return entered.answer;
    if (entered.session.protocol === 'pb-fair-1') {
      const shoe = this.#store.shoe(shoeNumber);
      if (!shoe) return failure(404, 'not_found', `there is no shoe ${shoeNumber} at this table`);
      const t: Transcript = { version: FAIRNESS_VERSION, commitment: shoe.commitment, receipts: this.#store.receipts(shoe.number) };
      if (shoe.start) t.start = shoe.start;
      if (shoe.reveal) t.reveal = shoe.reveal;
      return answer(200, t);
    }
    const records = this.#store.records(shoeNumber);
    if (records.length === 0) return failure(404, 'not_found', `there is no shoe ${shoeNumber} at this table`);
    return answer(200, { version: 'pb-fair-2', records });
  }

  /** The table's whole history as one pb-fair-2 file (`verifyTextV2`). */
  async tableTranscript(auth: Auth): Promise<Answer<TableTranscriptV2>> {
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
      alarm: { ...this.#alarm },
      ledger: { ...this.#ledger },
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
    this.#alarm.runs++;
    this.#armedAt = null;
    await this.#exclusive(() => this.#runTimer());
    // Whatever the alarm was armed for (a void, the ledger, or an instance since evicted whose due
    // time this one never knew), the ledger gets what it may lack now: later would be another alarm.
    await this.#pushLedger();
    await this.#schedule();
  }

  /**
   * Sends this table's totals to the ledger now, when it is behind; true when the ledger has them.
   * The alarm does this on its own after every change; operators and tests may call it to settle.
   */
  async syncLedger(): Promise<boolean> {
    return this.#pushLedger();
  }

  /**
   * Sets the one alarm for the earlier of the ledger push and the table's timer (when either is
   * due). `bet`: just after a change that left a round pending, whose settlement the ledger will
   * lack within seconds: its delay starts now, so that the bet arms the one alarm for both (the
   * void deadline is later) and the secret arms nothing.
   */
  async #schedule(bet = false): Promise<void> {
    if (!this.#exists()) return;
    const s = this.#store.session()!;
    // Measured from the first change the ledger lacks, never pushed back by later ones: the ledger
    // lags by at most the delay, and the rounds played meanwhile go in one push.
    if (this.#ledgerBehind(s) || (bet && s.pendingRound !== null)) this.#ledgerDue ??= this.clock() + ledgerDelayMs(this.env);
    else this.#ledgerDue = null;
    const timer = s.dueAt === null ? null : Date.parse(s.dueAt);
    const at = [this.#ledgerDue, timer].filter((t): t is number => t !== null).reduce((a, b) => Math.min(a, b), Infinity);
    // An alarm armed no later serves as well: it does what is due and arms the next. Each setAlarm
    // is a row written, so a player's bets (their void deadlines) mostly leave the ledger's alarm be.
    if (at === Infinity || (this.#armedAt !== null && this.#armedAt <= at)) return;
    try {
      this.#alarm.set++;
      await this.ctx.storage.setAlarm(at);
      this.#armedAt = at;
    } catch (err) {
      // The change itself is committed: never fail its answer for this. The next change, or the
      // table's next wake-up, arms the alarm again.
      console.error('punto-banco: could not arm the alarm:', (err as Error).message);
    }
  }

  /** Whether the ledger may lack these totals (-1 acknowledged: it may not know the session yet). */
  #ledgerBehind(s: SessionRow): boolean {
    this.#ledgerRounds = Math.max(this.#ledgerRounds, s.ledgerRounds);
    return this.#ledgerRounds < s.rounds;
  }

  async #pushLedger(): Promise<boolean> {
    if (!this.#exists()) return true;
    const s = this.#store.session()!;
    if (!this.#ledgerBehind(s)) return true;
    this.#ledger.pushes++;
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
      this.#ledger.failed++;
      this.#ledgerDue = this.clock() + LEDGER_RETRY_MS;
      await this.#schedule();
      return false;
    }
    // Applied or a repeat, the ledger now has these totals: remembered here, no row written.
    this.#ledgerRounds = Math.max(this.#ledgerRounds, s.rounds);
    this.#ledgerDue = null;
    // Rounds played while the totals were on their way go in the next push.
    await this.#schedule();
    return true;
  }

  /**
   * The table's own timer (`due_at`), run inside the queue: a pending round past its deadline is
   * voided (signed, its stake returned; the shoe revealed when that was its last round); a shoe
   * whose newest record is a void, idle for `voidAfterSeconds`, is revealed ("void-timeout").
   */
  async #runTimer(): Promise<void> {
    if (!this.#exists()) return;
    const session = this.#store.session()!;
    if (session.protocol !== 'pb-fair-2' || session.dueAt === null || this.clock() < Date.parse(session.dueAt)) return;
    const shoe = this.#store.shoeV2(session.currentShoe)!;
    const key = await signingKey(this.env);
    const now = this.#iso();
    if (session.pendingRound !== null) {
      const acceptance = this.#store.lastRecord<AcceptanceV2>('acceptance', shoe.number, session.pendingRound)!;
      const voided = await signRecordV2(buildVoidV2(acceptance, key.keyId, now), key);
      const reason = revealDue(shoe.params, { cutCardOut: false, accepted: session.shoeRounds });
      const ending = reason ? await this.#endAndCommit(session, shoe, voided, reason, voided.body.balanceAfter) : null;
      this.#counted('void', () => {
        const voidedState = stateAfter(session, {
          balance: voided.body.balanceAfter,
          pendingRound: null,
          dueAt: iso(Date.parse(now) + shoe.params.voidAfterSeconds * 1000),
        });
        this.#store.appendRecord(voided, voidedState);
        if (ending) this.#writeEnding(shoe.number, ending, voidedState);
      });
      return;
    }
    const last = this.#store.lastRecord(null)!;
    // Idle after a void, shared-table transfers aside (§B14): the reveal follows the newest record.
    if ((last.body.type === 'transfer' ? this.#store.lastPrivateRecord()! : last).body.type !== 'void') return;
    const ending = await this.#endAndCommit(session, shoe, last, 'void-timeout', session.balance);
    this.#counted('idle-reveal', () => {
      this.#writeEnding(shoe.number, ending, session);
      this.#dealt = null;
    });
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
  #change<T>(auth: Auth, idem: Idem, compute: (session: SessionRow) => Promise<Answer<never> | Answer<T> | Computed<T>>): Promise<Answer<T>> {
    return this.#exclusive(async () => {
      const entered = this.#enter(auth);
      if (!entered.ok) return entered.answer;
      if (entered.session.protocol !== 'pb-fair-2') return retired();
      let session = entered.session;
      // The timer first, when it is due and its alarm has not run yet: a secret after the
      // deadline finds its round voided, as it would a moment later.
      if (session.dueAt !== null && this.clock() >= Date.parse(session.dueAt)) {
        await this.#runTimer();
        session = this.#store.session()!;
        await this.#schedule();
      }
      const stored = this.#store.answered(idem.key, iso(Date.now() - IDEMPOTENCY_TTL_MS));
      if (stored) {
        if (stored.requestHash !== idem.requestHash) {
          return failure(409, 'idempotency_conflict', 'this Idempotency-Key was already used with another request: use a new key for a new request');
        }
        return { ...answer(200, this.#replay(stored)), headers: { 'Idempotent-Replayed': 'true' } } as Answer<T>;
      }
      const computed = await compute(session);
      if (!('write' in computed)) return computed;
      const { kind, result, write } = computed;
      const key = { key: idem.key, requestHash: idem.requestHash, at: iso(Date.now()) };
      this.#counted(kind, () => write(key));
      await this.#schedule(kind === 'bet');
      return result;
    });
  }

  /** The answer a record gave to the request it answers, rebuilt exactly as it was first sent. */
  #replay(stored: KeyedRecord): unknown {
    const record = stored.record;
    switch (record.body.type) {
      case 'start': {
        const shoe = this.#store.shoeV2(record.body.shoe)!;
        return { shoe: this.#shoeView({ ...shoe, status: 'in-play', start: record as SignedV2<StartV2>, rounds: 0, reveal: null }) };
      }
      case 'acceptance':
        return this.#acceptanceAnswer(record as SignedV2<AcceptanceV2>);
      case 'receipt': {
        const after = this.#store.recordAfter(stored.seq);
        const ending =
          after?.body.type === 'reveal' && after.body.prev === record.hash && after.body.reason !== 'void-timeout'
            ? this.#endingAfter(after as SignedV2<RevealV2>)
            : null;
        return this.#roundAnswer(record as SignedV2<ReceiptV2>, ending);
      }
      case 'reveal': {
        const ending = this.#endingAfter(record as SignedV2<RevealV2>);
        return this.#endAnswer(ending.reveal, ending.next);
      }
      default:
        throw new Error(`no request is answered by a ${record.body.type} record`);
    }
  }

  /** A reveal and the commitment of the shoe after it, as stored. */
  #endingAfter(reveal: SignedV2<RevealV2>): Ending {
    const next = this.#store.shoeV2(reveal.body.shoe + 1)!;
    return { reveal, next };
  }

  /** Why a secret finds no pending round: voided (with the void), already settled (its answer again, when the request is the same), or none. */
  #notPending(shoe: number, round: number, request: SignedRequest): Answer<RoundAnswerV2> {
    const voided = this.#store.lastRecord<VoidV2>('void', shoe, round);
    if (voided)
      return failure(
        409,
        'round_voided',
        `round ${round} of shoe ${shoe} was voided at ${voided.body.issuedAt}: its secret came too late; the stake is returned`,
        { void: voided },
      );
    const receipt = this.#store.lastRecord<ReceiptV2>('receipt', shoe, round);
    if (receipt && sameRequest(receipt.body.request, request)) {
      const after = this.#store.lastRecord(null, shoe);
      const ending = after?.body.type === 'reveal' && after.body.prev === receipt.hash ? this.#endingAfter(after as SignedV2<RevealV2>) : null;
      return answer(200, this.#roundAnswer(receipt, ending));
    }
    return failure(409, 'no_pending_round', `round ${round} of shoe ${shoe} is not waiting for a secret`);
  }

  #acceptanceAnswer(acceptance: SignedV2<AcceptanceV2>, params?: ShoeParamsV2): AcceptanceAnswer {
    const a = acceptance.body;
    const vas = (params ?? this.#store.shoeV2(a.shoe)!.params).voidAfterSeconds;
    return {
      acceptance,
      balance: a.balanceBefore - stakeOf(a),
      voidAt: iso(Date.parse(a.issuedAt) + vas * 1000),
      shoe: { number: a.shoe, status: 'in-play', rounds: a.round },
    };
  }

  #roundAnswer(receipt: SignedV2<ReceiptV2>, ending: Ending | null): RoundAnswerV2 {
    const b = receipt.body;
    const result: RoundAnswerV2 = { receipt, balance: b.balanceAfter, shoe: { number: b.shoe, status: ending ? 'ended' : 'in-play', rounds: b.round } };
    if (ending) {
      result.reveal = ending.reveal;
      result.nextShoe = this.#shoeView({ ...ending.next, status: 'awaiting-start', start: null, rounds: 0, reveal: null });
    }
    return result;
  }

  #endAnswer(reveal: SignedV2<RevealV2>, next: NextShoe): EndAnswerV2 {
    const b = reveal.body;
    const shoe: ShoeSummary = { number: b.shoe, status: 'ended', rounds: b.rounds };
    return { reveal, balance: b.closingBalance, shoe, nextShoe: this.#shoeView({ ...next, status: 'awaiting-start', start: null, rounds: 0, reveal: null }) };
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

  #iso(): string {
    return iso(this.clock());
  }

  /** A fresh server seed for shoe `number` and its signed commitment (the seed stays here). */
  async #commit(a: {
    table: string;
    number: number;
    params: ShoeParamsV2;
    limits: TableLimits;
    playerKey: string;
    openingBalance: number;
    prev: string | null;
    now: string;
  }): Promise<NextShoe> {
    const serverSeed = newServerSeed(randomBytes);
    const key = await signingKey(this.env);
    const body = buildCommitmentV2({
      table: a.table,
      shoe: a.number,
      keyId: key.keyId,
      params: a.params,
      limits: a.limits,
      serverSeed,
      playerKey: a.playerKey,
      openingBalance: a.openingBalance,
      prev: a.prev,
      issuedAt: a.now,
    });
    const commitment = await signRecordV2(body, key);
    return { number: a.number, params: a.params, serverSeed, commitment };
  }

  /** The reveal of `shoe` after `last` (saying who ended it), and the next shoe's commitment opening with the closing balance. */
  async #endAndCommit(
    session: SessionRow,
    shoe: ShoeRowV2,
    last: SignedV2,
    reason: RevealReason,
    closingBalance: number,
    request?: SignedRequest<EndRequest>,
  ): Promise<Ending> {
    const key = await signingKey(this.env);
    const now = this.#iso();
    const reveal = await signRecordV2(
      buildRevealV2({
        last,
        serverSeed: shoe.serverSeed,
        rounds: session.shoeRounds,
        reason,
        ...(request ? { request } : {}),
        closingBalance,
        keyId: key.keyId,
        issuedAt: now,
      }),
      key,
    );
    const next = await this.#commit({
      table: session.sessionId,
      number: shoe.number + 1,
      params: shoe.params,
      limits: ROOMS[session.room].limits,
      playerKey: session.playerKey!,
      openingBalance: closingBalance,
      prev: reveal.hash,
      now,
    });
    return { reveal, next };
  }

  /**
   * The rows of a shoe's end after the record that left the session in `state`: its reveal
   * (unless `appendReveal` is false: it answers the request, appended already), the shoe ended,
   * the next shoe and its commitment, which opens the session's state for that shoe.
   */
  #writeEnding(shoeNumber: number, ending: Ending, state: SessionState, appendReveal = true): void {
    const revealed = stateAfter(state, { pendingRound: null, dueAt: null });
    if (appendReveal) this.#store.appendRecord(ending.reveal, revealed);
    this.#store.endShoe(shoeNumber, ending.reveal);
    this.#store.insertShoe(ending.next);
    this.#store.appendRecord(ending.next.commitment, stateAfter(revealed, { shoeRounds: 0 }));
  }

  /**
   * The shoe's state before its next round: the remaining stack after the settled rounds. Kept in
   * memory; rebuilt after a restart by replaying the shoe's receipts (each names its secret and
   * acceptance), which is what a verifier does after the reveal.
   */
  #stateOf(shoe: ShoeRowV2): ShoeStateV2 {
    const receipts = () => this.#store.records(shoe.number).filter((x) => x.body.type === 'receipt') as SignedV2<ReceiptV2>[];
    if (this.#dealt?.shoe === shoe.number) return this.#dealt.state;
    let state = startShoeV2(shoe.params, shoe.serverSeed, shoe.clientSeed!, shoe.cut!);
    for (const r of receipts()) {
      const q = r.body.request.body;
      state = dealRoundV2(shoe.params, state, shoe.serverSeed, shoe.cut!, q.secret, q.acceptance).state;
    }
    this.#dealt = { shoe: shoe.number, settled: state.rounds, state };
    return state;
  }

  #shoeView(shoe: Pick<ShoeRowV2, 'number' | 'status' | 'rounds' | 'params' | 'commitment' | 'start' | 'reveal'>): ShoeViewV2 {
    const view: ShoeViewV2 = {
      number: shoe.number,
      status: shoe.status,
      rounds: shoe.rounds,
      params: shoe.params,
      cutRange: cutRangeV2(shoe.params),
      commitment: shoe.commitment,
    };
    if (shoe.start) view.start = shoe.start;
    if (shoe.reveal) view.reveal = shoe.reveal;
    return view;
  }

  #viewV2(session: SessionRow): SessionViewV2 {
    const room = ROOMS[session.room];
    const head = this.#store.lastRecord(null)!;
    return {
      protocol: 'pb-fair-2',
      sessionId: session.sessionId,
      room: session.room,
      roomName: room.name,
      affiliate: session.affiliate,
      attribution: session.attribution,
      balance: session.balance,
      limits: room.limits,
      playerKey: session.playerKey!,
      shoe: this.#shoeView(this.#store.shoeV2(session.currentShoe)!),
      head,
      pending: session.pendingRound === null ? null : { acceptance: head as SignedV2<AcceptanceV2>, voidAt: session.dueAt! },
      lastReceipt: this.#store.lastRecord<ReceiptV2>('receipt'),
    };
  }

  /** A pb-fair-1 session, read-only. */
  #viewV1(session: SessionRow): SessionView {
    const room = ROOMS[session.room];
    const shoe = this.#store.shoe(session.currentShoe)!;
    const view: ShoeView = {
      number: shoe.number,
      status: shoe.status,
      rounds: shoe.rounds,
      params: shoe.params,
      cutRange: { min: 1, max: shoe.params.decks * CARDS_PER_DECK - 1 },
      commitment: shoe.commitment,
    };
    if (shoe.start) view.start = shoe.start;
    if (shoe.reveal) view.reveal = shoe.reveal;
    return {
      sessionId: session.sessionId,
      room: session.room,
      roomName: room.name,
      affiliate: session.affiliate,
      attribution: session.attribution,
      balance: session.balance,
      limits: room.limits,
      shoe: view,
      lastReceipt: this.#store.lastReceipt(),
    };
  }
}

/** A new shoe: its seed (kept here) and its signed commitment. */
interface NextShoe {
  number: number;
  params: ShoeParamsV2;
  serverSeed: string;
  commitment: SignedV2<CommitmentV2>;
}

interface Ending {
  reveal: SignedV2<RevealV2>;
  next: NextShoe;
}

/** The cuts a pb-fair-2 player may choose: 1 … N − 1 (FAIRNESS.md §B5). */
export function cutRangeV2(params: ShoeParamsV2): { min: number; max: number } {
  return { min: 1, max: params.decks * CARDS_PER_DECK - 1 };
}

function retired(): Answer<never> {
  return failure(409, 'protocol_retired', 'this session plays pb-fair-1, which is retired: its history stays readable; start a new session to play on');
}

function sameRequest(a: SignedRequest, b: SignedRequest): boolean {
  return a.signature === b.signature && JSON.stringify(a.body) === JSON.stringify(b.body);
}

/** The offending bet's place, when the engine names one. */
function placeOf(error: { sector?: number; box?: string }): { sector?: number; box?: string } | undefined {
  return error.sector === undefined ? undefined : { sector: error.sector, box: error.box };
}
