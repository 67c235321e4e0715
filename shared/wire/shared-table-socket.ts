/**
 * The shared table's WebSocket protocol (API.md "Shared tables"), typed both ways: what a player's
 * socket sends (`ClientMessage`) and what the table sends back (`ServerMessage`), one member per
 * `type`. Pure: parsing and building, no I/O. Every message is one JSON text frame carrying `v`
 * (the protocol version) and `type`; the rest of the message is the member's body.
 *
 * The Worker's `SharedTable` object sends only `ServerMessage`s, each serialised by
 * `serverMessageText`; the widget reads them back with `readServerMessage`.
 */
import type { LimitsRefusalCode } from '../wallet/responsible.ts';
import type { SharedRequestErrorCode, StartRequestErrorCode } from '../fairness/pb-shared-1/operator.ts';
import type { SharedParams } from '../fairness/pb-shared-1/params.ts';
import type {
  SharedBetRequest,
  SharedClose,
  SharedCommitment,
  SharedDeal,
  SharedReveal,
  SharedSettlement,
  SharedStart,
  SharedStartRequest,
  SharedVoid,
  SignedShared,
  SignedSharedRequest,
} from '../fairness/pb-shared-1/records.ts';
import type { TransferKind } from '../fairness/pb-fair-2/records.ts';
import type { BetProof, MerkleClose, MerkleStart, Signed2 } from '../fairness/pb-shared-2/records.ts';
import type { ShoeMode } from '../shoe.ts';
import type { Bet, RoomId, TableLimits } from '../table.ts';

export const PROTOCOL_VERSION = 1;

// ---- bounds ----------------------------------------------------------------------------------------

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

// ---- messages from the player ------------------------------------------------------------------

/**
 * A player's message. `start` and `bet` carry a request the player signed with its own Ed25519 key
 * (pb-shared-1, FAIRNESS.md part III: the key's `x` is the player's pseudonym at the table); the
 * table checks the signature and the rules (shared/fairness/shared-table).
 */
export type ClientMessage = { type: 'bet'; request: unknown } | { type: 'start'; request: unknown } | { type: 'state' } | { type: 'ping' };

export type ParseFailureCode = 'bad_message' | 'message_too_large' | 'bad_json' | 'bad_version' | 'unknown_type';
export type ParseFailure = { ok: false; code: ParseFailureCode; message: string };

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

/** A player's message as the JSON text it is sent as. */
export function clientMessageText(m: ClientMessage): string {
  return JSON.stringify({ v: PROTOCOL_VERSION, ...m });
}

/** The UTF-8 length of a text (a UTF-16 unit is 1 to 3 bytes; a surrogate pair is 4): counted, never encoded past the limit. */
export function utf8Length(text: string): number {
  if (text.length > MAX_MESSAGE_BYTES) return text.length; // at least one byte per unit: over the limit already
  return new TextEncoder().encode(text).length;
}

// ---- what the table says ---------------------------------------------------------------------------

/** Where the table's round stands: no window open (nobody there), taking bets, or closed and waiting for its beacon round. */
export type SharedTablePhase = 'idle' | 'betting' | 'awaiting-beacon';

/** Where a bet request stands at the table: its stake being taken, in the round, refused, or taken after the close (returned). */
export type SharedBetStatus = 'debiting' | 'accepted' | 'refused' | 'late';

/** One accepted bet of the open (or closing) round, as everyone sees it. */
export interface SharedTableBet {
  player: string;
  stake: number;
  bets: Bet[];
}

/** The table as anyone sees it (`GET /api/tables/<room>/<name>` and the socket's `state`). */
export interface SharedTablePublicState {
  tableId: string;
  room: RoomId;
  mode: ShoeMode;
  speed: 'normal' | 'fast';
  windowMs: number;
  limits: TableLimits;
  shoe: {
    number: number;
    params: SharedParams;
    commitment: SignedShared<SharedCommitment>;
    /** The shoe's start once signed (a pb-shared-2 start without its requests: GET …/shoes/:shoe/start lists them). */
    start: SharedStartRecord | null;
    /** Rounds closed in this shoe (dealt or voided). */
    closed: number;
    cardsDealt: number;
    /** Cards left before the shoe's end (shoe mode), or null (reshuffle mode, or not started). */
    cardsLeft: number | null;
  };
  round: number;
  phase: SharedTablePhase;
  /** When the betting window closes (ISO 8601), or null. */
  closesAt: string | null;
  beaconRound: number | null;
  /** The close of the round awaiting its beacon round, or null (a pb-shared-2 close without its bets: GET …/rounds/:round/bets lists them). */
  close: SharedCloseRecord | null;
  bets: SharedTableBet[];
  lastDeal: SignedShared<SharedDeal> | null;
  /** Every deal's outcome in this shoe, in order (outcomeCode). */
  outcomes: string[];
  connections: number;
}

/** A close as the table sends it: pb-shared-1's, listing its bets, or pb-shared-2's, committing to them (FAIRNESS.md part IV). */
export type SharedCloseRecord = SignedShared<SharedClose> | Signed2<MerkleClose>;

/** A start as the table sends it: pb-shared-1's, listing the start requests, or pb-shared-2's, committing to them (FAIRNESS.md §D3a). */
export type SharedStartRecord = SignedShared<SharedStart> | Signed2<MerkleStart>;

/** The asking session's own place at the table (with the socket's `state` only). */
export interface SharedTableSeat {
  /** In a pb-shared-2 shoe whose start holds this session's start request: its inclusion proof in the start. */
  startProof?: BetProof;
  /** With `startProof`: this session's start request as the start holds it (a tab that reloaded checks its proof with it). */
  startRequest?: SignedSharedRequest<SharedStartRequest>;
  /** While a pb-shared-2 round awaits its beacon: the inclusion proof of this session's bet in the close. */
  proof?: BetProof;
  /** The session's balance (on connecting only). */
  balance?: number;
  /** Whether this session's start request for the shoe is in. */
  started: boolean;
  /** This session's bet requests of the round, not refused. */
  bets: { player: string; request: SignedSharedRequest<SharedBetRequest>; stake: number; status: SharedBetStatus }[];
  /**
   * Credits and refunds the table owes this session and its session has not applied yet (a slow
   * or unreachable session object): each is applied once, when the session answers (a `balance`
   * message then). Absent when nothing is owed.
   */
  owed?: { transfer: string; kind: Exclude<TransferKind, 'debit'>; amount: number; shoe: number; round: number }[];
}

/** Why the table could not read or handle a message at all. */
export type SocketErrorCode = ParseFailureCode | 'rate_limited' | 'internal';

/** Why a key may not be used by this session at this table. */
export type KeyRefusalCode = 'player_key_taken' | 'one_key_per_session';

export type StartRefusalCode = SharedRequestErrorCode | StartRequestErrorCode | KeyRefusalCode | 'already_started';

/**
 * Why a session refused to move money (the table's ask of the player's session). A wallet-mode
 * session adds the wallet's codes the player is shown, `wallet_unavailable` (an unknown outcome,
 * rolled back) and the responsible-gaming limits' codes (WALLET.md "Shared tables").
 */
export type TransferRefusalCode =
  | 'insufficient_funds'
  | 'no_session'
  | 'bad_transfer'
  | 'session_busy'
  | 'player_blocked'
  | 'unknown_player'
  | 'limit_reached'
  | 'wrong_currency'
  | 'wallet_unavailable'
  | LimitsRefusalCode;

export type BetRefusalCode =
  | Exclude<SharedRequestErrorCode, 'request_mismatch'>
  | KeyRefusalCode
  | TransferRefusalCode
  | 'betting_closed'
  | 'already_bet'
  | 'start_required'
  | 'round_full'
  /** The session applied nothing and gave no reason. */
  | 'refused';

/** The bet a message is about: its shoe, round and the key that signed it. */
interface BetRef {
  shoe: number;
  round: number;
  player: string;
}

/** Each message the table sends, by `type`. */
export type ServerMessage =
  /** The whole table, and the asking session's seat: on connecting (with the balance) and on a `state` message. */
  | ({ type: 'state' } & SharedTablePublicState & { you: SharedTableSeat })
  | { type: 'pong' }
  | { type: 'error'; code: SocketErrorCode; message: string }
  | { type: 'start-refused'; code: StartRefusalCode; message: string }
  | { type: 'start-ack'; shoe: number; player: string }
  /** A bet refused: by the table's rules (no bet named), or the named bet's stake was not taken. `duplicate`: an answer to a resent copy. */
  | ({ type: 'bet-refused' } & Partial<BetRef> & { duplicate?: true; code: BetRefusalCode; message: string; balance?: number })
  /** A resent copy of a bet whose stake is being taken: its ack follows. */
  | ({ type: 'bet-pending' } & BetRef & { duplicate: true; message: string })
  /** The sender's bet is in the round. `balance`: the session's after the stake (absent on a resent copy). */
  | ({ type: 'bet-ack' } & BetRef & { duplicate?: true; stake: number; balance?: number })
  /** Someone's bet is in the round (to everyone, at small tables only). */
  | ({ type: 'bet' } & BetRef & { stake: number; bets: Bet[] })
  /** Betting closed: the signed close (and the shoe's start record, at its first close); a pb-shared-2 close without its bets. */
  | { type: 'close'; shoe: number; round: number; close: SharedCloseRecord; connections: number; start?: SharedStartRecord }
  /** To a seated player's session right after a pb-shared-2 shoe's first close: where its start request sits in the start's tree (FAIRNESS.md §D6). */
  | { type: 'start-proof'; shoe: number; player: string; proof: BetProof }
  /** To a bettor's session right after a pb-shared-2 close: where its bet sits in the close's tree (FAIRNESS.md §D6). */
  | { type: 'proof'; shoe: number; round: number; player: string; proof: BetProof }
  | { type: 'deal'; shoe: number; round: number; deal: SignedShared<SharedDeal> }
  /** The session's own settlement of the round, after the deal. */
  | { type: 'settlement'; shoe: number; round: number; settlement: SignedShared<SharedSettlement> }
  /** The round is void (its beacon round came too late): every stake returned. */
  | { type: 'void'; shoe: number; round: number; void: SignedShared<SharedVoid>; refunds: { player: string; returned: number }[] }
  /** The shoe ended: its reveal, and the next shoe's commitment chained to it. */
  | { type: 'reveal'; shoe: number; reveal: SignedShared<SharedReveal>; commitment: SignedShared<SharedCommitment> }
  /** A betting window opened. */
  | { type: 'open'; shoe: number; round: number; closesAt: string; connections: number }
  /** Money the table moved for the session outside a bet's answer (a credit or a refund applied, a debit retried). */
  | { type: 'balance'; balance: number; transfer: string; kind: TransferKind; shoe: number; round: number };

export type ServerMessageType = ServerMessage['type'];
/** The member of `ServerMessage` of one `type`. */
export type ServerMessageOf<T extends ServerMessageType> = Extract<ServerMessage, { type: T }>;

const SERVER_TYPES: ReadonlySet<string> = new Set<ServerMessageType>([
  'state',
  'pong',
  'error',
  'start-refused',
  'start-ack',
  'bet-refused',
  'bet-pending',
  'bet-ack',
  'bet',
  'close',
  'proof',
  'start-proof',
  'deal',
  'settlement',
  'void',
  'reveal',
  'open',
  'balance',
]);

/** A table's message as the JSON text it is sent as: `{ v, type, … }`. The one serialiser of the table's side. */
export function serverMessageText(m: ServerMessage): string {
  return JSON.stringify({ v: PROTOCOL_VERSION, ...m });
}

/**
 * A table's message read back, checked for its envelope (one JSON object of this protocol
 * version with a known `type`), or null. The records inside are checked where they are used.
 */
export function readServerMessage(text: string): ServerMessage | null {
  let m: unknown;
  try {
    m = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof m !== 'object' || m === null || Array.isArray(m)) return null;
  const { v, type } = m as { v?: unknown; type?: unknown };
  if (v !== PROTOCOL_VERSION || typeof type !== 'string' || !SERVER_TYPES.has(type)) return null;
  return m as ServerMessage;
}
