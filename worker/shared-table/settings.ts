/**
 * Shared tables' ids and settings, and the Worker's own bounds (API.md "Shared tables"). Pure. The
 * WebSocket messages both ways are in shared/wire/shared-table-socket.ts.
 *
 * Table ids: `<room>/<name>[.reshuffle][.fast]`, e.g. `hall-1/a`, `vip/high.reshuffle.fast`:
 * the room sets the limits (shared/ ROOMS), `.reshuffle` deals every round from a fresh stack
 * (shoe mode otherwise), `.fast` shortens the betting window (to a third; wrangler.toml SHARED_WINDOW_MS sets the normal one).
 */
import { type RoomId, isRoomId, type ShoeMode } from '../../shared/index.ts';

/** How often the table asks again for a beacon round not published yet, or retries a transfer. */
export const RETRY_MS = 1_000;
/** Sockets per table, and per player at one table (tabs). */
export const MAX_SOCKETS = 2_000;
export const MAX_SOCKETS_PER_PLAYER = 4;
/** Sockets one relay holds (relay.ts): a table of MAX_SOCKETS speaks to its players through two relays. */
export const RELAY_SOCKETS = 1_000;
/**
 * How long the table gathers its messages to each relay before one `deliver` call, in ms: short,
 * the deal waits for it.
 */
export const RELAY_TICK_MS = 10;
/**
 * How long a relay gathers its players' requests before it passes them to the table in one call,
 * in ms. Each call is a billed Durable Object request where a player's WebSocket message is a
 * twentieth of one: bets spread evenly over a 15 s window at 1,000 a relay make ~730 calls a
 * round at 10 ms, ~150 at 100 ms (DEPLOY.md "What a shared-table round costs"). 100 ms made bets
 * sent late in a short window arrive after its close on a loaded machine: 10 ms, for now.
 */
export const RELAY_BATCH_MS = 10;

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
