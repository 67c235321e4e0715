/**
 * A shared table's WebSocket, kept open: a single-use ticket for the table (the session token
 * never goes in a URL, API.md "Routes"), the socket, its messages read through the protocol's
 * `ServerMessage` union (shared/wire/shared-table-socket.ts), and a reconnect with a jittered,
 * doubling backoff whenever the ticket or the socket fails — except a ticket the table refuses with a
 * code (the seat is not this session's: asking again would be refused again). The session decides what the messages
 * mean (shared-table-session.ts).
 */
import { type ClientMessage, clientMessageText, readServerMessage, type ServerMessage } from '../../shared/wire/shared-table-socket.ts';
import type { SocketFactory, SocketLike } from '../element/host-types.ts';
import type { ApiClient, ApiError } from './api-client.ts';

/** Reconnect backoff: first wait, doubling up to the cap. */
const RECONNECT_MS = { first: 500, max: 10_000 };
/** Failed connections in a row before the table says it cannot reach the table. */
const UNREACHABLE_AFTER = 3;

/** What the connection needs of the session, and what it tells it. */
export interface ConnectionLink {
  readonly api: ApiClient;
  readonly socketFactory: SocketFactory | null;
  /** The session's token (null: no session, nothing to connect). */
  token(): string | null;
  /** The table is still wanted: the element is in the page and the session has not left. */
  wanted(): boolean;
  /** Asking for a ticket, or the socket closed: not connected now. */
  connecting(): void;
  /** Still nothing after a few tries (the connection goes on trying). */
  unreachable(): void;
  /** The table refused the seat for good (a ticket answered with a code asking again will not change): no more tries. */
  refused(error: ApiError): void;
  message(m: ServerMessage): void;
}

/**
 * The table answered and said no (a 4xx with its code, not a rate limit): asking again would get the
 * same answer. A session the Worker no longer knows is not one: the backoff goes on as before.
 */
function isRefusal(error: ApiError): boolean {
  return !error.retryable && error.status >= 400 && error.status < 500 && error.code !== 'session_expired';
}

export class SharedTableConnection {
  readonly #tableId: string;
  readonly #link: ConnectionLink;
  #socket: SocketLike | null = null;
  #attempt = 0;
  #reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  /** A ticket for the socket is being asked for. */
  #ticketing = false;

  constructor(tableId: string, link: ConnectionLink) {
    this.#tableId = tableId;
    this.#link = link;
  }

  /** A socket is open (or opening). */
  get open(): boolean {
    return this.#socket !== null;
  }

  /** The table answered: the next failure starts the backoff afresh. */
  answered(): void {
    this.#attempt = 0;
  }

  /** Asks for a ticket and opens the socket (nothing while one is being asked for). */
  connect(): void {
    const token = this.#link.token();
    const table = this.#tableId;
    if (!token || !table || this.#ticketing) return;
    this.#link.connecting();
    this.#ticketing = true;
    void this.#link.api.sharedTableTicket(table, token).then((answer) => {
      this.#ticketing = false;
      if (!this.#link.wanted() || this.#socket) return;
      if (answer.ok) return this.#open(table, answer.value);
      // A refusal with a code (409 `shared_table_currency`, 403 `wrong_room`…): the same ticket would be refused again.
      if (isRefusal(answer.error)) return this.#link.refused(answer.error);
      this.#reconnectLater();
    });
  }

  /** Connects again now, the backoff reset (the player's Retry). */
  reconnectNow(): void {
    this.#attempt = 0;
    this.leave();
    this.connect();
  }

  /** Closes the socket and stops reconnecting. */
  leave(): void {
    clearTimeout(this.#reconnectTimer);
    const s = this.#socket;
    this.#socket = null;
    try {
      s?.close(1000, 'left');
    } catch {
      // already closed
    }
  }

  send(m: ClientMessage): void {
    try {
      this.#socket?.send(clientMessageText(m));
    } catch {
      // the socket is closing: the reconnect resends what is still unanswered
    }
  }

  #open(table: string, ticket: string): void {
    const url = this.#link.api.sharedTableSocketUrl(table, ticket);
    const make = this.#link.socketFactory ?? ((u: string) => new WebSocket(u));
    const socket = make(url);
    this.#socket = socket;
    socket.addEventListener('message', (e) => {
      if (this.#socket !== socket) return;
      const m = readServerMessage(String(e.data));
      if (m === null) return console.warn('punto-banco: a shared-table message could not be read:', String(e.data).slice(0, 80));
      try {
        this.#link.message(m);
      } catch (err) {
        console.warn('punto-banco: a shared-table message could not be read:', err);
      }
    });
    socket.addEventListener('close', () => {
      if (this.#socket !== socket) return;
      this.#socket = null;
      this.#link.connecting();
      if (this.#link.wanted()) this.#reconnectLater();
    });
  }

  #reconnectLater(): void {
    // Still nothing after a few tries: say so (with Retry), and go on trying.
    if (this.#attempt >= UNREACHABLE_AFTER) this.#link.unreachable();
    const wait = Math.min(RECONNECT_MS.max, RECONNECT_MS.first * 2 ** this.#attempt) * (0.75 + Math.random() * 0.5);
    this.#attempt++;
    clearTimeout(this.#reconnectTimer);
    this.#reconnectTimer = setTimeout(() => this.connect(), wait);
  }
}
