/**
 * Shared tables' ids, settings and WebSocket messages (API.md "Shared tables"). Pure: parsing and
 * building, no I/O. Every message is JSON with `v` (the protocol version) and `type`.
 *
 * Table ids: `<room>/<name>[.reshuffle][.fast]`, e.g. `hall-1/a`, `vip/high.reshuffle.fast`:
 * the room sets the limits (shared/ ROOMS), `.reshuffle` deals every round from a fresh stack
 * (shoe mode otherwise), `.fast` shortens the betting window (to a third; wrangler.toml SHARED_WINDOW_MS sets the normal one).
 */
import { type Bet, type RoomId, isRoomId, type ShoeMode } from '../shared/index.ts';

export const PROTOCOL_VERSION = 1;

/** How often the table asks again for a beacon round not published yet, or retries a transfer. */
export const RETRY_MS = 1_000;
/** Sockets per table, and per player at one table (tabs). */
export const MAX_SOCKETS = 2_000;
export const MAX_SOCKETS_PER_PLAYER = 4;
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

export type ClientMessage =
  | { type: 'bet'; round: number; betId: string; bets: Bet[] }
  | { type: 'seed'; clientSeed: string; cut?: number }
  | { type: 'state' }
  | { type: 'ping' };

const BET_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** A player's message, checked for shape (the rules check the bets themselves). */
export function parseClientMessage(text: string | ArrayBuffer): { ok: true; value: ClientMessage } | { ok: false; code: string; message: string } {
  if (typeof text !== 'string') return { ok: false, code: 'bad_message', message: 'messages are JSON text frames' };
  if (text.length > MAX_MESSAGE_BYTES) return { ok: false, code: 'message_too_large', message: `a message is at most ${MAX_MESSAGE_BYTES} bytes` };
  let m: Record<string, unknown>;
  try {
    m = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { ok: false, code: 'bad_json', message: 'a message is one JSON object' };
  }
  if (typeof m !== 'object' || m === null || Array.isArray(m)) return { ok: false, code: 'bad_message', message: 'a message is one JSON object' };
  if (m.v !== PROTOCOL_VERSION) return { ok: false, code: 'bad_version', message: `this table speaks protocol version ${PROTOCOL_VERSION}: send "v": ${PROTOCOL_VERSION}` };
  switch (m.type) {
    case 'ping':
    case 'state':
      return { ok: true, value: { type: m.type } };
    case 'seed': {
      if (typeof m.clientSeed !== 'string' || m.clientSeed.length < 1 || m.clientSeed.length > 128) {
        return { ok: false, code: 'bad_message', message: 'clientSeed is 1–128 characters' };
      }
      if (m.cut !== undefined && !Number.isSafeInteger(m.cut)) return { ok: false, code: 'bad_message', message: 'cut is an integer' };
      return { ok: true, value: { type: 'seed', clientSeed: m.clientSeed, ...(m.cut === undefined ? {} : { cut: m.cut as number }) } };
    }
    case 'bet': {
      if (!Number.isSafeInteger(m.round) || (m.round as number) < 1) return { ok: false, code: 'bad_message', message: 'round is the round number of the open window' };
      if (typeof m.betId !== 'string' || !BET_ID.test(m.betId)) return { ok: false, code: 'bad_message', message: 'betId is 1–64 of A–Z, a–z, 0–9, "_" and "-" (a UUID)' };
      if (!Array.isArray(m.bets) || m.bets.length === 0 || m.bets.length > 15) return { ok: false, code: 'bad_message', message: 'bets is a list of 1–15 { sector, box, amount }' };
      const bets: Bet[] = [];
      for (const b of m.bets as Array<Record<string, unknown>>) {
        if (typeof b !== 'object' || b === null) return { ok: false, code: 'bad_message', message: 'each bet is { sector, box, amount }' };
        bets.push({ sector: b.sector as number, box: b.box as Bet['box'], amount: b.amount as number });
      }
      return { ok: true, value: { type: 'bet', round: m.round as number, betId: m.betId, bets } };
    }
    default:
      return { ok: false, code: 'unknown_type', message: 'type is one of bet, seed, state, ping' };
  }
}

/** A message to a player: `{ v, type, … }` as JSON text. */
export function outgoing(type: string, body: object): string {
  return JSON.stringify({ v: PROTOCOL_VERSION, type, ...body });
}
