/**
 * The HTTP API's wire contract (API.md): what each request sends, what each answer holds, and
 * every error code. Types only: the Worker builds these answers, the widget, the CLI and the
 * tests' fake Worker read them, so one declaration keeps all four in step.
 */
import type { ClientSeedErrorCode } from './fairness/commit.ts';
import type { ShoeParams } from './fairness/params.ts';
import type { CommitmentBody, ReceiptBody, RevealBody, Signed, StartBody } from './fairness/records.ts';
import type { ShoeMode } from './shoe.ts';
import type { Bet, BetErrorCode, RoomId, TableLimits } from './table.ts';

// ---- requests -------------------------------------------------------------------------------------

/** `POST /api/sessions`. */
export interface CreateSessionRequest {
  room: RoomId;
  affiliate?: string;
  mode?: ShoeMode;
  decks?: number;
}

/** `POST /api/sessions/:id/shoe/start`: the player's client seed and cut. */
export interface StartShoeRequest {
  clientSeed: string;
  cut: number;
}

/** `POST /api/sessions/:id/rounds`. */
export interface PlayRoundRequest {
  bets: Bet[];
}

// ---- answers --------------------------------------------------------------------------------------

/**
 * How a session's affiliate was attributed: `signed` (a valid Affiliate-Token from the affiliate's
 * server), `origin` (a browser on an origin listed for that affiliate), `claimed` (neither).
 */
export type Attribution = 'signed' | 'origin' | 'claimed';

export type ShoeStatus = 'awaiting-start' | 'in-play' | 'ended';

/** A shoe as the API shows it: never the server seed before the reveal (then only inside `reveal`). */
export interface ShoeView {
  number: number;
  status: ShoeStatus;
  rounds: number;
  params: ShoeParams;
  cutRange: { min: number; max: number };
  commitment: Signed<CommitmentBody>;
  start?: Signed<StartBody>;
  reveal?: Signed<RevealBody>;
}

/** The shoe a round or an early end leaves behind: where it stands, without its records. */
export type ShoeSummary = Pick<ShoeView, 'number' | 'status' | 'rounds'>;

/** `GET /api/sessions/:id` → 200. */
export interface SessionView {
  sessionId: string;
  room: RoomId;
  roomName: string;
  affiliate: string | null;
  /** How the session's affiliate was attributed (API.md "Affiliate attribution"). */
  attribution: Attribution;
  balance: number;
  limits: TableLimits;
  shoe: ShoeView;
  lastReceipt: Signed<ReceiptBody> | null;
}

/** `POST /api/sessions` → 201: the session and a bearer token for it. */
export interface CreatedSession extends SessionView {
  token: string;
}

/** `POST /api/sessions/:id/shoe/start` → 200. */
export interface StartAnswer {
  shoe: ShoeView;
}

/** `POST /api/sessions/:id/rounds` → 200; `reveal` and `nextShoe` when the cut card came out. */
export interface RoundAnswer {
  receipt: Signed<ReceiptBody>;
  balance: number;
  shoe: ShoeSummary;
  reveal?: Signed<RevealBody>;
  nextShoe?: ShoeView;
}

/** `POST /api/sessions/:id/shoe/end` → 200. */
export interface EndAnswer {
  reveal: Signed<RevealBody>;
  balance: number;
  shoe: ShoeSummary;
  nextShoe: ShoeView;
}

/** `GET /api/sessions/:id/receipts[?shoe=n]` → 200. */
export interface ReceiptsAnswer {
  shoe: number;
  receipts: Signed<ReceiptBody>[];
}

// ---- errors ---------------------------------------------------------------------------------------

/** Every code an error answer can carry (API.md "Errors"). */
export type ApiErrorCode =
  | 'bad_json'
  | 'invalid_body'
  | 'bad_query'
  | 'bad_cut'
  | 'idempotency_key_required'
  | 'unauthorized'
  | 'forbidden'
  | 'origin_not_allowed'
  | 'not_found'
  | 'method_not_allowed'
  | 'idempotency_conflict'
  | 'shoe_not_started'
  | 'shoe_already_started'
  | 'body_too_large'
  | 'body_aborted'
  | 'bad_affiliate_token'
  | 'affiliate_token_expired'
  | 'rate_limited'
  | 'internal'
  | 'unavailable'
  // the engine's own refusals, passed through unchanged
  | ClientSeedErrorCode
  | BetErrorCode;

/** Extra fields of an error: the offending bet's sector and box; the refused origin and its affiliate. */
export interface ApiErrorDetail {
  sector?: number;
  box?: string;
  origin?: string;
  affiliate?: string | null;
}

/** The one shape of every error answer. */
export interface ApiErrorBody {
  error: { code: ApiErrorCode; message: string } & ApiErrorDetail;
}
