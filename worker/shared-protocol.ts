/**
 * Shared tables' ids, settings and WebSocket messages (API.md "Shared tables"). Pure: parsing and
 * building, no I/O. Every message is JSON with `v` (the protocol version) and `type`.
 *
 * Table ids: `<room>/<name>[.reshuffle][.fast]`, e.g. `hall-1/a`, `vip/high.reshuffle.fast`:
 * the room sets the limits (shared/ ROOMS), `.reshuffle` deals every round from a fresh stack
 * (shoe mode otherwise), `.fast` shortens the betting window (to a third; wrangler.toml SHARED_WINDOW_MS sets the normal one).
 */
import { type RoomId, isRoomId, type ShoeMode } from '../shared/index.ts';

export const PROTOCOL_VERSION = 1;

/** How often the table asks again for a beacon round not published yet, or retries a transfer. */
export const RETRY_MS = 1_000;
/** Sockets per table, and per player at one table (tabs). */
export const MAX_SOCKETS = 2_000;
export const MAX_SOCKETS_PER_PLAYER = 4;
/**
 * Seats per table: sessions connected at once, and bets taken in one round. With one key, one
 * start request and one bet request per session, this bounds every record and message a table
 * sends whatever its players send (API.md "Bounds"): a start request is at most
 * MAX_START_REQUEST_BYTES, a bet request MAX_BET_REQUEST_BYTES, so the start record, the close and
 * the public state stay under 1 MiB, Cloudflare's WebSocket message limit (and SQLite's 2 MB row).
 */
export const MAX_SEATS = 400;
/** The longest start request (128 four-byte code points of seed, the longest table id) and bet request (nine boxes at the VIP maximum), in JSON bytes. */
export const MAX_START_REQUEST_BYTES = 900;
export const MAX_BET_REQUEST_BYTES = 700;
/** Messages a socket may send: a burst, refilled per second. */
export const MESSAGE_RATE = { burst: 20, perSecond: 5 } as const;
/** The largest message a socket may send, in bytes. */
export const MAX_MESSAGE_BYTES = 4_096;

export interface TableConfig {
  tableId: string;
  room: RoomId;
  name: string;
  mode: ShoeMode;
  speed: 'normal' | 'fast';
  windowMs: number;
}

const NAME = /^[a-z0-9][a-z0-9-]{0,31}$/;

/** The settings a table id names, or null for a malformed id. */
export function parseTableId(room: string, rest: string, windows: { normal: number; fast: number } = { normal: 15_000, fast: 5_000 }): TableConfig | null {
  if (!isRoomId(room)) return null;
  const [name, ...flags] = rest.split('.');
  if (name === undefined || !NAME.test(name)) return null;
  if (new Set(flags).size !== flags.length || flags.some((f) => f !== 'reshuffle' && f !== 'fast')) return null;
  if (flags.length === 2 && flags[0] !== 'reshuffle') return null; // one spelling per table
  const speed = flags.includes('fast') ? 'fast' : 'normal';
  return {
    tableId: `${room}/${rest}`,
    room,
    name,
    mode: flags.includes('reshuffle') ? 'reshuffle' : 'shoe',
    speed,
    windowMs: windows[speed],
  };
}

export const TABLE_ID_RULE =
  'a table id is <room>/<name>[.reshuffle][.fast]: room hall-1, hall-2 or vip; name 1–32 of a–z, 0–9 and "-", starting with a letter or digit';

// ---- messages from the player ------------------------------------------------------------------

/**
 * A player's message. `start` and `bet` carry a request the player signed with its own Ed25519 key
 * (pb-shared-1, FAIRNESS.md part III: the key's `x` is the player's pseudonym at the table); the
 * table checks the signature and the rules (shared/fairness/shared-table).
 */
export type ClientMessage = { type: 'bet'; request: unknown } | { type: 'start'; request: unknown } | { type: 'state' } | { type: 'ping' };

export type ParseFailure = { ok: false; code: 'bad_message' | 'message_too_large' | 'bad_json' | 'bad_version' | 'unknown_type'; message: string };

/** A player's message, checked for its envelope (the request inside is checked by the fairness core). */
export function parseClientMessage(text: string | ArrayBuffer): { ok: true; value: ClientMessage } | ParseFailure {
  if (typeof text !== 'string') return { ok: false, code: 'bad_message', message: 'messages are JSON text frames' };
  if (utf8Length(text) > MAX_MESSAGE_BYTES)
    return { ok: false, code: 'message_too_large', message: `a message is at most ${MAX_MESSAGE_BYTES} bytes of UTF-8` };
  let m: Record<string, unknown>;
  try {
    m = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { ok: false, code: 'bad_json', message: 'a message is one JSON object' };
  }
  if (typeof m !== 'object' || m === null || Array.isArray(m)) return { ok: false, code: 'bad_message', message: 'a message is one JSON object' };
  if (m.v !== PROTOCOL_VERSION)
    return { ok: false, code: 'bad_version', message: `this table speaks protocol version ${PROTOCOL_VERSION}: send "v": ${PROTOCOL_VERSION}` };
  switch (m.type) {
    case 'ping':
    case 'state':
      return { ok: true, value: { type: m.type } };
    case 'start':
    case 'bet':
      if (typeof m.request !== 'object' || m.request === null)
        return { ok: false, code: 'bad_message', message: `a ${m.type} message carries { request: { body, signature } }` };
      return { ok: true, value: { type: m.type, request: m.request } };
    default:
      return { ok: false, code: 'unknown_type', message: 'type is one of start, bet, state, ping' };
  }
}

/** The UTF-8 length of a text (a UTF-16 unit is 1 to 3 bytes; a surrogate pair is 4): counted, never encoded past the limit. */
export function utf8Length(text: string): number {
  if (text.length > MAX_MESSAGE_BYTES) return text.length; // at least one byte per unit: over the limit already
  return new TextEncoder().encode(text).length;
}

/** A message to a player: `{ v, type, … }` as JSON text. */
export function outgoing(type: string, body: object): string {
  return JSON.stringify({ v: PROTOCOL_VERSION, type, ...body });
}
