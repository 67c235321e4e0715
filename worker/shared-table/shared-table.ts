/**
 * `SharedTable`: one Durable Object per shared table, addressed by its table id
 * (`hall-1/a`, settings.ts). Players connect by WebSocket through the Hibernation API
 * (`ctx.acceptWebSocket`): an idle table is evicted from memory and costs nothing; each socket is
 * tagged with its session id, and its attachment says whose it is. The table holds the round and
 * signs its pb-shared-1 records (shared/fairness/shared-table, FAIRNESS.md part III); each
 * player's money stays in their session object (`Table`), moved only by exactly-once transfers
 * (transfers.ts here, wallet.ts the session's half). Players sign their own start and bet requests; their key is their pseudonym.
 *
 * The parts, one file each: the sockets (sockets.ts), the seats (seats.ts), the betting window's
 * requests (betting.ts), the round loop on the alarm: close, deal or void, reveal (round.ts), the
 * transfers with the sessions (transfers.ts), the public state (public-state.ts), the rows
 * (store.ts). This file is the object: its HTTP and WebSocket handlers, its alarm, its state.
 *
 * Crash safety: every step is one `transactionSync` writing its records and the next state
 * together, re-entered from the stored state by the next alarm (the platform re-runs an alarm that
 * threw; a restart finds the stored alarm, and any request re-arms what the state needs). A
 * transfer is written as pending before the session is asked and settled when its answer is
 * recorded; pending ones are asked again, with the same id, after the alarm's step, in the
 * background (transfers.ts: the round never waits for a session). With nobody connected
 * and nothing owed, no alarm is left: the table sleeps.
 */
import { DurableObject } from 'cloudflare:workers';
import { timeOfRound } from '../../shared/beacon.ts';
import type { SignedShared } from '../../shared/fairness/pb-shared-1/records.ts';
import { MAX_SEATS, serverMessageText, type SharedTablePhase } from '../../shared/wire/shared-table-socket.ts';
import { beaconSource, type BeaconSource, type Fetcher } from '../beacon/beacon.ts';
import { configuredTables, type Env, isDev, seatsPerAddress, sharedTiming } from '../config/env.ts';
import { Betting } from './betting.ts';
import type { SharedTableHooks, SharedTableParts, TableState } from './parts.ts';
import { publicState, seatOf } from './public-state.ts';
import type { RelayAnswers, RelayItem } from './relay.ts';
import { Relays } from './relays.ts';
import { RoundLoop } from './round.ts';
import { Seats } from './seats.ts';
import { MAX_SOCKETS, MAX_SOCKETS_PER_PLAYER, parseTableId, RELAY_SOCKETS, RETRY_MS, type TableConfig } from './settings.ts';
import { type Attachment, logFault, type Replier, send } from './sockets.ts';
import { SharedStore } from './store.ts';
import { transcriptOf } from './transcript.ts';
import { TableTransfers, TRANSFER_CONCURRENCY, TRANSFER_TIMEOUT_MS } from './transfers.ts';

function notOpened(tableId: string): Response {
  return Response.json(
    { error: { code: 'not_found', message: `nobody has sat at table ${tableId} yet: a table opens with its first seated player` } },
    { status: 404 },
  );
}

/** The bench's seats per table (`SHARED_TEST_SEATS`, honoured only with DEV=true), or null. */
function testSeats(env: Env): number | null {
  const asked = Number(env.SHARED_TEST_SEATS ?? '');
  return isDev(env) && Number.isSafeInteger(asked) && asked >= 1 ? asked : null;
}

export interface SharedBooks {
  tableId: string;
  shoe: number;
  round: number;
  phase: SharedTablePhase;
  /** Per session: what the table has taken and given back (applied transfers), and how many are still pending. */
  sessions: Record<string, { debited: number; credited: number; refunded: number; pending: number }>;
  /** Stakes taken minus everything paid back: the house's result at this table. */
  houseNet: number;
  pending: number;
}

export class SharedTable extends DurableObject<Env> implements SharedTableHooks {
  readonly #store: SharedStore;
  #state: TableState | null;
  #tail: Promise<unknown> = Promise.resolve();
  readonly #parts: SharedTableParts;
  readonly #relays: Relays;
  /** Newcomers sent to a relay whose socket has not reached it yet (session → relay, when): counted in the relay's share. */
  readonly #routed = new Map<string, { relay: number; at: number }>();
  readonly #seats: Seats;
  readonly #transfers: TableTransfers;
  readonly #betting: Betting;
  readonly #round: RoundLoop;
  /** Tests play a late or failing beacon relay through this. */
  beaconFetch: Fetcher | undefined;
  /** Seats of this table (MAX_SEATS; tests fill a smaller table). */
  seatCap = MAX_SEATS;
  /** How long a seat goes without a bet before it is idle; null: IDLE_ROUNDS betting windows (tests set 0). */
  idleMs: number | null = null;
  /** Sockets per relay (RELAY_SOCKETS; tests spread a few players over several relays). */
  relaySockets = RELAY_SOCKETS;
  /** How long a transfer call to a session is waited for (tests shorten it). */
  transferTimeoutMs = TRANSFER_TIMEOUT_MS;
  /** Transfer calls waited for at once (tests narrow it). */
  transferConcurrency = TRANSFER_CONCURRENCY;
  /** The relays' calls with their players' requests, and the requests in them (tests and the bench count them). */
  readonly relayCalls = { batches: 0, items: 0 };

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#store = new SharedStore(ctx.storage.sql);
    this.seatCap = testSeats(env) ?? MAX_SEATS;
    this.#state = this.#store.state<TableState>();
    // The settings are read through the object each time: tests swap them on a live instance.
    const settings = () => this.env;
    this.#relays = new Relays(ctx, settings, () => this.#state!.config.tableId);
    this.#parts = {
      ctx,
      get env() {
        return settings();
      },
      store: this.#store,
      hooks: this,
      state: () => this.#state!,
      save: (state) => this.#save(state),
      now: () => this.#now(),
      schedule: () => this.#schedule(),
      beaconSource: () => this.#beaconSource(),
      fanOut: (m) => this.#relays.fanOut(m),
      toPlayer: (session, m) => this.#relays.toPlayer(this.#seats.of(session)?.relay, session, m),
      connections: () => this.#seats.connections(),
    };
    this.#seats = new Seats(this.#parts, this.#relays);
    this.#transfers = new TableTransfers(this.#parts);
    this.#betting = new Betting(this.#parts, this.#seats, this.#transfers);
    this.#round = new RoundLoop(this.#parts, this.#seats, this.#transfers);
  }

  // ---- HTTP (from the Worker: routes.ts has checked the table id) ----------------------------------

  override async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const config = parseTableId(url.searchParams.get('room') ?? '', url.searchParams.get('name') ?? '', sharedTiming(this.env).windowMs);
    if (!config) return Response.json({ error: { code: 'not_found', message: 'no such table' } }, { status: 404 });
    // A table comes into being by configuration or with its first seated player (`route`), never by a read.
    if (!this.#state && !configuredTables(this.env).has(config.tableId)) return notOpened(config.tableId);
    const state = await this.#ensure(config);
    if (url.pathname.endsWith('/transcript')) {
      const raw = url.searchParams.get('shoe');
      const shoe = raw === null ? null : Number(raw);
      if (shoe !== null && (shoe < 1 || shoe > state.shoe.number)) {
        return Response.json({ error: { code: 'not_found', message: `there is no shoe ${raw} at this table` } }, { status: 404 });
      }
      return Response.json(transcriptOf(this.#store.records(shoe).map((r) => r.record)));
    }
    if (url.pathname.endsWith('/bets')) return this.#listed('close', Number(url.searchParams.get('shoe')), Number(url.searchParams.get('round')));
    if (url.pathname.endsWith('/start')) return this.#listed('start', Number(url.searchParams.get('shoe')));
    await this.#seats.load();
    await this.#schedule(); // re-arms whatever a restart may have left unarmed
    return Response.json(publicState(this.#parts, state));
  }

  /**
   * A pb-shared-2 file of one signed record with the list its root commits to (API.md): a round's
   * bets file (its close and `bets`) or a shoe's start file (its start and `requests`).
   */
  #listed(type: 'close' | 'start', shoe: number, round?: number): Response {
    const list = type === 'close' ? 'bets' : 'requests';
    const record = this.#store.record(shoe, type, round)?.record as (SignedShared & Partial<Record<typeof list, unknown>>) | undefined;
    const missing = (message: string) => Response.json({ error: { code: 'not_found', message } }, { status: 404 });
    if (!record)
      return missing(type === 'close' ? `round ${round} of shoe ${shoe} has not closed at this table` : `shoe ${shoe} has not started at this table`);
    if (record[list] === undefined) return missing(`shoe ${shoe} is pb-shared-1: its ${type} lists the ${list} itself (GET …/transcript?shoe=${shoe})`);
    return Response.json({ version: 'pb-shared-2', [type]: record });
  }

  // ---- seating, through the relays (RPC) ----------------------------------------------------------

  /**
   * The relay a player's socket goes to (the Worker checked the session): the one its seat is at,
   * else the first with room. The table comes into being here, with its first seated player.
   */
  async route(room: string, name: string, session: string): Promise<{ ok: true; relay: number } | { ok: false; status: number; body: unknown }> {
    const config = parseTableId(room, name, sharedTiming(this.env).windowMs);
    if (!config) return { ok: false, status: 404, body: { error: { code: 'not_found', message: 'no such table' } } };
    await this.#ensure(config);
    await this.#seats.load();
    const seated = this.#seats.of(session);
    if (seated) return { ok: true, relay: seated.relay };
    const now = this.#now();
    const sockets = this.#seats.perRelay();
    for (const [who, r] of this.#routed) {
      if (r.at < now - 10_000 || this.#seats.of(who)) this.#routed.delete(who);
      else sockets[r.relay] = (sockets[r.relay] ?? 0) + 1;
    }
    const relay = await this.#relays.choose(sockets, this.relaySockets);
    this.#routed.set(session, { relay, at: now });
    return { ok: true, relay };
  }

  /**
   * A player's socket at a relay: the seat is taken (within the address's share; on a full table
   * only in place of an idle seat) and the relay gets the state to send it first, or a refusal.
   */
  async hello(a: {
    room: string;
    name: string;
    relay: number;
    session: string;
    address: string;
    balance: number;
  }): Promise<{ ok: true; tableId: string; state: string } | { ok: false; status: number; body: unknown }> {
    const config = parseTableId(a.room, a.name, sharedTiming(this.env).windowMs);
    if (!config) return { ok: false, status: 404, body: { error: { code: 'not_found', message: 'no such table' } } };
    const state = await this.#ensure(config);
    await this.#seats.load();
    const seated = this.#seats.of(a.session);
    const refuse = (status: number, code: string, message: string) => ({ ok: false as const, status, body: { error: { code, message } } });
    if (!seated) {
      const cap = seatsPerAddress(this.env);
      const fromAddress = [...this.#seats.all().values()].filter((seat) => seat.address === a.address).length;
      if (fromAddress >= cap)
        return refuse(429, 'too_many_seats', `${cap} sessions from your address sit at this table already: leave one, or try another table`);
      if (this.#seats.all().size >= this.seatCap && !(await this.#seats.releaseIdle(state)))
        return refuse(503, 'table_full', `this table seats ${this.seatCap} players, none of them idle: try another table`);
    }
    const maxSockets = Math.max(MAX_SOCKETS, this.seatCap);
    if (this.#seats.connections() >= maxSockets) return refuse(503, 'table_full', `this table holds ${maxSockets} connections: try another table`);
    // A session sits at one relay: a socket arriving at another moves the seat there (its older sockets close).
    if (seated && seated.relay !== a.relay) await this.#relays.closeSession(seated.relay, a.session, 4000, 'replaced by a newer connection');
    const sockets = seated && seated.relay === a.relay ? Math.min(MAX_SOCKETS_PER_PLAYER, seated.sockets + 1) : 1;
    this.#seats.join(a.session, a.relay, a.address, sockets);
    this.#routed.delete(a.session);
    const text = serverMessageText({ type: 'state', ...publicState(this.#parts, this.#state!), you: seatOf(this.#parts, this.#state!, a.session, a.balance) });
    this.#exclusive(async () => {
      if (this.#state!.phase === 'idle') await this.#round.openWindow(this.#now());
      else await this.#schedule();
    }).catch(logFault);
    return { ok: true, tableId: config.tableId, state: text };
  }

  // ---- the players' requests, batched by each relay (RPC) ------------------------------------------

  /** One relay's batch: each item's answers, in order (a bet's ack follows through `toPlayer` once its stake is taken). */
  async fromRelay(from: { room: string; name: string; relay: number }, items: RelayItem[]): Promise<RelayAnswers> {
    if (!this.#state) return items.map(() => []);
    this.relayCalls.batches++;
    this.relayCalls.items += items.length;
    await this.#seats.load();
    return Promise.all(
      items.map(async (item) => {
        if ('left' in item) {
          this.#seats.leave(item.session, from.relay);
          return [];
        }
        const answers: string[] = [];
        const reply: Replier = { send: (text) => answers.push(text) };
        const seat = this.#seats.of(item.session);
        const who: Attachment = { session: item.session, address: seat?.address ?? '', active: seat?.active ?? 0 };
        try {
          await this.#onMessage(reply, who, item.message);
        } catch (err) {
          logFault(err);
          send(reply, { type: 'error', code: 'internal', message: 'the table could not handle this message; it has been logged' });
        }
        return answers;
      }),
    );
  }

  async #onMessage(reply: Replier, who: Attachment, m: Extract<RelayItem, { message: unknown }>['message']): Promise<void> {
    const state = this.#state!;
    switch (m.type) {
      case 'state':
        return send(reply, { type: 'state', ...publicState(this.#parts, state), you: seatOf(this.#parts, state, who.session, null) });
      case 'start':
        return this.#betting.start(reply, who, m.request);
      case 'bet':
        return this.#betting.bet(reply, who, m.request);
    }
  }

  // ---- the alarm: the round loop --------------------------------------------------------------------

  override async alarm(): Promise<void> {
    await this.#exclusive(async () => {
      if (!this.#state) return;
      await this.#seats.load();
      const now = this.#now();
      const s = this.#state;
      if (s.phase === 'betting' && now >= (s.closesAt ?? 0)) {
        // The seats as the relays hold them now (a relay that restarted lost its sockets): the start names the seated.
        await this.#seats.sync().catch(logFault);
        await this.#round.close(now);
      } else if (s.phase === 'awaiting-beacon') await this.#round.awaitBeacon(now);
      await this.#schedule();
    });
    // The round first, the money after, outside the lock: no session's answer holds a close or a deal.
    if (this.#state) this.#transfers.askPending();
  }

  /** Sets the alarm the state needs, or none: a sleeping table holds no alarm. */
  async #schedule(): Promise<void> {
    const s = this.#state;
    if (!s) return;
    const now = this.#now();
    const times: number[] = [];
    if (s.phase === 'betting') times.push(s.closesAt!);
    if (s.phase === 'awaiting-beacon') {
      const source = await this.#beaconSource();
      times.push(Math.max(now + 50, Math.min(timeOfRound(source.chain, s.beaconRound!), now + RETRY_MS)));
    }
    if (this.#store.hasPendingTransfers()) times.push(now + RETRY_MS);
    if (times.length === 0) return this.ctx.storage.deleteAlarm();
    const want = Math.min(...times);
    // Never postpone an alarm already due sooner: a client polling the state would keep pushing it away.
    const set = await this.ctx.storage.getAlarm();
    if (set === null || set > want || set < now - RETRY_MS) await this.ctx.storage.setAlarm(want);
  }

  // ---- reading ------------------------------------------------------------------------------------

  /** The table's books: every transfer by session (tests and audits compare them with the sessions'). */
  async books(): Promise<SharedBooks | null> {
    const s = this.#state;
    if (!s) return null;
    const sessions: SharedBooks['sessions'] = {};
    let houseNet = 0;
    let pending = 0;
    for (const t of this.#store.transfers()) {
      const p = (sessions[t.session] ??= { debited: 0, credited: 0, refunded: 0, pending: 0 });
      if (t.status === 'pending') {
        p.pending++;
        pending++;
      } else if (t.status === 'applied') {
        const sign = t.kind === 'debit' ? 1 : -1;
        houseNet += sign * t.amount;
        if (t.kind === 'debit') p.debited += t.amount;
        else if (t.kind === 'credit') p.credited += t.amount;
        else p.refunded += t.amount;
      }
    }
    return {
      tableId: s.config.tableId,
      shoe: s.shoe.number,
      round: s.shoe.closed + (s.phase === 'awaiting-beacon' ? 0 : 1),
      phase: s.phase,
      sessions,
      houseNet,
      pending,
    };
  }

  /** The table's traffic with its relays so far (the bench reports it per round): calls and requests in, calls and messages out. */
  async traffic(): Promise<{ relays: number; connections: number; in: { batches: number; items: number }; out: { calls: number; messages: number } }> {
    await this.#seats.load();
    return { relays: this.#relays.count(), connections: this.#seats.connections(), in: { ...this.relayCalls }, out: { ...this.#relays.delivered } };
  }

  /** The alarm's time, or null (tests: a table with no activity holds none). */
  async alarmAt(): Promise<number | null> {
    return this.ctx.storage.getAlarm();
  }

  // ---- internals ------------------------------------------------------------------------------------

  async #ensure(config: TableConfig): Promise<TableState> {
    if (this.#state) return this.#state;
    return this.#exclusive(async () => {
      if (this.#state) return this.#state;
      const { shoe, commitment } = await this.#round.commitShoe(config, 1, null, this.#now());
      const state: TableState = { config, phase: 'idle', closesAt: null, beaconRound: null, shoe };
      this.ctx.storage.transactionSync(() => {
        this.#store.insertRecord(0, null, commitment);
        this.#save(state);
      });
      return state;
    });
  }

  #save(state: TableState): void {
    this.#store.saveState(state);
    this.#state = state;
  }

  async #beaconSource(): Promise<BeaconSource> {
    const source = await beaconSource(this.env);
    if (!source.ok) throw new Error(`the beacon is misconfigured: ${source.error.message}`);
    return source.value;
  }

  #exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(fn, fn);
    this.#tail = run.catch(() => undefined);
    return run;
  }

  #now(): number {
    return Date.now();
  }
}
