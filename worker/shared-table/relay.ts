/**
 * `SharedTableRelay`: the sockets of up to `relaySockets` players of one shared table (settings.ts
 * RELAY_SOCKETS; tests use a few), one object per table and index, addressed as `<table id>@<n>`
 * (`relayName`). The table chooses each player's relay (relays.ts) and keeps only the list of its
 * relays and seats, never a socket: so the table's work per message does not grow with the
 * sockets, and one message from the table reaches every player through one level of relays.
 *
 * Players' sockets use the Hibernation API here (`ctx.acceptWebSocket`, tagged with the session
 * id, the attachment saying whose each is and which table it sits at): an idle relay is evicted
 * from memory and its sockets stay open. From the players: pings are answered by the runtime; each
 * socket's messages are rate-limited and their envelopes checked here (the table checks the
 * requests inside); `start`, `bet` and `state` are batched, one RPC to the table per relay per
 * tick (RELAY_BATCH_MS, 10 ms), and each answer goes back to the socket that asked. From the table:
 * `deliver`, a batch of messages, each to every socket here or to one session's.
 *
 * A relay holds no state of the round: restarted or evicted, it has lost nothing but its sockets
 * (the players reconnect and resynchronise from the table's `state`, their bets kept by the table
 * under their ids, exactly once). The table learns a relay's seats again from `seats()`.
 */
import { DurableObject } from 'cloudflare:workers';
import { clientMessageText, MESSAGE_RATE, parseClientMessage, serverMessageText } from '../../shared/wire/shared-table-socket.ts';
import type { Env } from '../config/env.ts';
import { addressKey, TokenBucket } from '../http/limits.ts';
import { MAX_SOCKETS_PER_PLAYER, RELAY_BATCH_MS } from './settings.ts';
import { type Attachment, attachment, logFault, send, trySend } from './sockets.ts';

/** A relay's object name: the table id and the relay's index (`hall-1/a@0`). */
export function relayName(tableId: string, index: number): string {
  return `${tableId}@${index}`;
}

/** What a relay passes on to its table: a player's request, or a session whose last socket here closed. */
export type RelayItem = { session: string; message: { type: 'start' | 'bet'; request: unknown } | { type: 'state' } } | { session: string; left: true };

/** A message for the players of one relay: to every socket (`to` null) or to one session's. */
export interface RelayDelivery {
  to: string | null;
  text: string;
}

/** A relay's seat: a session, its address and last activity, and its sockets here. */
export interface RelaySeat {
  session: string;
  address: string;
  active: number;
  sockets: number;
}

/** A socket's place: the table it sits at and this relay's index (in its attachment: it survives hibernation). */
interface RelayAttachment extends Attachment {
  table: { id: string; room: string; name: string };
  relay: number;
}

/** The answers the table gives a relay's batch: for each item, the messages to its socket. */
export type RelayAnswers = string[][];

export class SharedTableRelay extends DurableObject<Env> {
  readonly #buckets = new WeakMap<WebSocket, TokenBucket>();
  /** Items waiting for the next tick, each with the socket that sent it (null: a leaving session). */
  #batch: Array<{ item: RelayItem; ws: WebSocket | null }> = [];
  #tick: ReturnType<typeof setTimeout> | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // Keep-alive pings are answered by the runtime without waking the relay.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(clientMessageText({ type: 'ping' }), serverMessageText({ type: 'pong' })));
  }

  // ---- a player's socket (from the Worker: routes.ts asked the table which relay) ------------------

  override async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const room = url.searchParams.get('room') ?? '';
    const name = url.searchParams.get('name') ?? '';
    const relay = Number(url.searchParams.get('relay') ?? '');
    const session = request.headers.get('X-Player-Session') ?? '';
    const balance = Number(request.headers.get('X-Player-Balance') ?? '0');
    // An IPv6 address counts by its /64, as the rate limits count it.
    const address = addressKey(request.headers.get('CF-Connecting-IP') ?? 'unknown');
    if (!session || !Number.isSafeInteger(relay) || relay < 0)
      return Response.json({ error: { code: 'not_found', message: 'no such relay' } }, { status: 404 });
    // The table takes the seat (or refuses it) and answers with the state to send first.
    const hello = await this.env.SHARED_TABLES.getByName(`${room}/${name}`).hello({ room, name, relay, session, address, balance });
    if (!hello.ok) {
      const refused = hello as unknown as { status: number; body: unknown };
      return Response.json(refused.body, { status: refused.status });
    }
    // Nothing awaited from here on: the state is this socket's first message.
    const mine = this.ctx.getWebSockets(session).filter((w) => w.readyState === WebSocket.OPEN);
    // A player's oldest tabs give way beyond the bound: a reconnect is never locked out.
    for (const old of mine.slice(0, Math.max(0, mine.length - MAX_SOCKETS_PER_PLAYER + 1))) {
      old.close(4000, 'replaced by a newer connection');
    }
    const pair = new WebSocketPair();
    this.ctx.acceptWebSocket(pair[1], [session]);
    const active = Math.max(Date.now(), ...mine.map((w) => attachment(w).active));
    pair[1].serializeAttachment({ session, address, active, table: { id: hello.tableId, room, name }, relay } satisfies RelayAttachment);
    pair[1].send(hello.state);
    return new Response(null, { status: 101, webSocket: pair[0] });
  }

  override async webSocketMessage(ws: WebSocket, raw: string | ArrayBuffer): Promise<void> {
    const who = attachment(ws);
    if (!who.session) return;
    let bucket = this.#buckets.get(ws);
    if (!bucket) this.#buckets.set(ws, (bucket = new TokenBucket(MESSAGE_RATE, Date.now())));
    const taken = bucket.take(Date.now());
    if (!taken.ok) return send(ws, { type: 'error', code: 'rate_limited', message: `too many messages: retry in ${Math.ceil(taken.retryAfter)} s` });
    const parsed = parseClientMessage(raw);
    if (!parsed.ok) return send(ws, { type: 'error', code: parsed.code, message: parsed.message });
    const m = parsed.value;
    if (m.type === 'ping') return send(ws, { type: 'pong' });
    if (m.type === 'bet') {
      // A bet is activity: the seat is not idle (kept here, where it survives the table's restarts).
      for (const w of this.ctx.getWebSockets(who.session)) w.serializeAttachment({ ...(w.deserializeAttachment() as RelayAttachment), active: Date.now() });
    }
    this.#queue({ session: who.session, message: m }, ws);
  }

  override async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    // A player who leaves is still settled: their bets stay in the round. The table frees the seat
    // when the session's last socket here is gone.
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, 'bye');
    } catch {
      // already closed
    }
    this.#left(ws);
  }

  override async webSocketError(ws: WebSocket): Promise<void> {
    this.#left(ws);
  }

  #left(ws: WebSocket): void {
    const who = attachment(ws);
    if (!who.session) return;
    if (this.ctx.getWebSockets(who.session).some((w) => w !== ws && w.readyState === WebSocket.OPEN)) return;
    this.#queue({ session: who.session, left: true }, ws);
  }

  // ---- the table's side (RPC) ------------------------------------------------------------------

  /** Sends each message to every socket here (`to` null) or to one session's; one call per tick from the table. */
  deliver(batch: RelayDelivery[]): number {
    let sent = 0;
    for (const d of batch) {
      for (const ws of d.to === null ? this.ctx.getWebSockets() : this.ctx.getWebSockets(d.to)) {
        trySend(ws, d.text);
        sent++;
      }
    }
    return sent;
  }

  /** The seats here: the sessions with a socket open, their address and last activity. */
  seats(): RelaySeat[] {
    const seats = new Map<string, RelaySeat>();
    for (const ws of this.ctx.getWebSockets()) {
      if (ws.readyState !== WebSocket.OPEN) continue;
      const a = attachment(ws);
      const seat = seats.get(a.session);
      if (seat) {
        seat.active = Math.max(seat.active, a.active);
        seat.sockets++;
      } else seats.set(a.session, { session: a.session, address: a.address, active: a.active, sockets: 1 });
    }
    return [...seats.values()];
  }

  /** Closes a session's sockets here (a seat given up at a full table: 4001). */
  closeSession(session: string, code: number, reason: string): void {
    for (const ws of this.ctx.getWebSockets(session)) {
      try {
        ws.close(code, reason);
      } catch {
        // already closing
      }
    }
  }

  // ---- the batch to the table ---------------------------------------------------------------------

  #queue(item: RelayItem, ws: WebSocket): void {
    this.#batch.push({ item, ws: 'left' in item ? null : ws });
    const at = ws.deserializeAttachment() as Partial<RelayAttachment> | null;
    if (this.#tick !== null || !at?.table || at.relay === undefined) return;
    const { table, relay } = at;
    this.#tick = setTimeout(() => void this.#flush(table, relay), RELAY_BATCH_MS);
  }

  /** One RPC to the table with every item of the tick; each answer goes back to the socket that asked. */
  async #flush(place: RelayAttachment['table'], relay: number): Promise<void> {
    const batch = this.#batch;
    this.#batch = [];
    this.#tick = null;
    try {
      const answers = await this.env.SHARED_TABLES.getByName(place.id).fromRelay(
        { room: place.room, name: place.name, relay },
        batch.map((b) => b.item),
      );
      answers.forEach((texts, i) => {
        const ws = batch[i]!.ws;
        if (ws) for (const text of texts) trySend(ws, text);
      });
    } catch (err) {
      logFault(err);
      for (const b of batch) if (b.ws) send(b.ws, { type: 'error', code: 'internal', message: 'the table could not handle this message; it has been logged' });
    }
  }
}
