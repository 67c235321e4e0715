/**
 * The HTTP API's wire contract (API.md): what each request sends, what each answer holds, and
 * every error code. Types only: the Worker builds these answers, the widget, the CLI and the
 * tests' fake Worker read them, so one declaration keeps all four in step.
 */
import type { ClientSeedErrorCode } from './fairness/common/seeds.ts';
import type { Fair1ShoeParams } from './fairness/pb-fair-1/params.ts';
import type { Fair1CommitmentBody, Fair1ReceiptBody, Fair1RevealBody, Fair1Signed, Fair1StartBody } from './fairness/pb-fair-1/records.ts';
import type { ShoeMode } from './shoe.ts';
import type { ShoeParams } from './fairness/pb-fair-2/params.ts';
import type {
  Acceptance,
  BetRequest,
  Commitment,
  EndRequest,
  FairnessFile,
  Receipt,
  Reveal,
  SecretRequest,
  SignedRequest,
  Signed,
  StartRequest,
  Start,
  Void,
} from './fairness/pb-fair-2/records.ts';
import type { Bet, BetErrorCode, RoomId, TableLimits } from './table.ts';
import type { Language } from './languages.ts';
import type { SignatureErrorCode } from './wallet/sign.ts';
import type { LimitsRefusalCode, PlayerLimits, RealityCheck, SessionEndCode } from './wallet/responsible.ts';

// ---- requests -------------------------------------------------------------------------------------

/** `POST /api/sessions`. */
export interface Fair1CreateSessionRequest {
  room: RoomId;
  affiliate?: string;
  mode?: ShoeMode;
  decks?: number;
}

/** `POST /api/sessions/:id/shoe/start`: the player's client seed and cut. */
export interface Fair1StartShoeRequest {
  clientSeed: string;
  cut: number;
}

/** `POST /api/sessions/:id/rounds`. */
export interface Fair1PlayRoundRequest {
  bets: Bet[];
}

// ---- answers --------------------------------------------------------------------------------------

/**
 * How a session's affiliate was attributed: `signed` (a valid Affiliate-Token from the affiliate's
 * server), `origin` (a browser on an origin listed for that affiliate), `claimed` (neither).
 */
export type Attribution = 'signed' | 'origin' | 'claimed';

export type ShoeStatus = 'awaiting-start' | 'in-play' | 'ended';

/** The shoe a round or an early end leaves behind: where it stands, without its records. */
export interface ShoeSummary {
  number: number;
  status: ShoeStatus;
  rounds: number;
}

/** A shoe as the API shows it: never the server seed before the reveal (then only inside `reveal`). */
export interface Fair1ShoeView extends ShoeSummary {
  params: Fair1ShoeParams;
  cutRange: { min: number; max: number };
  commitment: Fair1Signed<Fair1CommitmentBody>;
  start?: Fair1Signed<Fair1StartBody>;
  reveal?: Fair1Signed<Fair1RevealBody>;
}

/** What a session view says of the session whatever its protocol. */
export interface SessionCommon {
  sessionId: string;
  room: RoomId;
  roomName: string;
  affiliate: string | null;
  /** How the session's affiliate was attributed (API.md "Affiliate attribution"). */
  attribution: Attribution;
  balance: number;
  limits: TableLimits;
  /** Wallet mode only: the operator, currency, limits and payments of the session; absent in play mode. */
  wallet?: WalletSessionView;
}

/** `GET /api/sessions/:id` → 200. */
export interface Fair1SessionView extends SessionCommon {
  shoe: Fair1ShoeView;
  lastReceipt: Fair1Signed<Fair1ReceiptBody> | null;
}

/** `POST /api/sessions` → 201: the session and a bearer token for it. */
export interface Fair1CreatedSession extends Fair1SessionView {
  token: string;
}

/** `POST /api/sessions/:id/shoe/start` → 200. */
export interface Fair1StartAnswer {
  shoe: Fair1ShoeView;
}

/** `POST /api/sessions/:id/rounds` → 200; `reveal` and `nextShoe` when the cut card came out. */
export interface Fair1RoundAnswer {
  receipt: Fair1Signed<Fair1ReceiptBody>;
  balance: number;
  shoe: ShoeSummary;
  reveal?: Fair1Signed<Fair1RevealBody>;
  nextShoe?: Fair1ShoeView;
}

/** `POST /api/sessions/:id/shoe/end` → 200. */
export interface Fair1EndAnswer {
  reveal: Fair1Signed<Fair1RevealBody>;
  balance: number;
  shoe: ShoeSummary;
  nextShoe: Fair1ShoeView;
}

/** `GET /api/sessions/:id/receipts[?shoe=n]` → 200. */
export interface ReceiptsAnswer {
  shoe: number;
  receipts: Fair1Signed<Fair1ReceiptBody>[];
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
  // a setting of the deploy is missing or malformed (the error's `setting` names it)
  | 'misconfigured'
  // shared tables (API.md "Shared tables"): a WebSocket route asked without the upgrade; a session of another room
  | 'upgrade_required'
  | 'wrong_room'
  // the engine's own refusals, passed through unchanged
  | ProtocolErrorCode
  | ClientSeedErrorCode
  | BetErrorCode
  | WalletApiErrorCode;

/** Extra fields of an error: the offending bet's sector and box; the refused origin and its affiliate. */
export interface ApiErrorDetail {
  sector?: number;
  box?: string;
  origin?: string;
  affiliate?: string | null;
  /** 503 `misconfigured`: the setting to fix (e.g. "SIGNING_KEY", "BEACON_URL"). */
  setting?: string;
  /** 409 `round_voided` (pb-fair-2): the signed void record of the round. */
  void?: Signed<Void>;
  /** Wallet mode, 409 `reality_check_pending`: what the reality check shows. */
  realityCheck?: RealityCheck;
  /** Wallet mode, 403 `session_ended`: why the session ended. */
  ended?: SessionEndCode;
  /** A refused launch token whose launch is known (`launch_token_used`, `launch_token_expired`): where the table sends the player back. */
  returnUrl?: string;
}

/** The one shape of every error answer. */
export interface ApiErrorBody {
  error: { code: ApiErrorCode; message: string } & ApiErrorDetail;
}

// ---- pb-fair-2: locked bets, both sides sign (FAIRNESS.md part II) ------------------------------
//
// Every state-changing request carries one player-signed request (`shared/fairness/v2`); the
// Worker answers with operator-signed records. A round takes two requests: the bet with its lock
// (→ acceptance, stake debited, no card known to anyone), then the round's secret (→ receipt).
// Sessions created under pb-fair-1 stay readable; their changes answer 409 `protocol_retired`.

/** `POST /api/sessions` (pb-fair-2): the player's Ed25519 public key (`playerKeyOf`, base64url x). */
export interface CreateSessionRequest extends Fair1CreateSessionRequest {
  playerKey: string;
}

/** `POST /api/sessions/:id/shoe/start`: `signRequest(startRequest(commitment, clientSeed, cut), key)`. */
export interface StartShoeRequest {
  request: SignedRequest<StartRequest>;
}

/** `POST /api/sessions/:id/rounds` (phase 1): `signRequest(betRequest(head, round, bets, secret), key)`. */
export interface BetRoundRequest {
  request: SignedRequest<BetRequest>;
}

/** `POST /api/sessions/:id/rounds/:round/secret` (phase 2): `signRequest(secretRequest(acceptance, secret), key)`. */
export interface SecretRoundRequest {
  request: SignedRequest<SecretRequest>;
}

/** `POST /api/sessions/:id/shoe/end`: `signRequest(endRequest(head), key)`. */
export interface EndShoeRequest {
  request: SignedRequest<EndRequest>;
}

/** A pb-fair-2 shoe as the API shows it: never the server seed before the reveal. */
export interface ShoeView extends ShoeSummary {
  params: ShoeParams;
  cutRange: { min: number; max: number };
  commitment: Signed<Commitment>;
  start?: Signed<Start>;
  reveal?: Signed<Reveal>;
}

/** `GET /api/sessions/:id` → 200 for a pb-fair-2 session. */
export interface SessionView extends SessionCommon {
  protocol: 'pb-fair-2';
  /** The player's public key the records name (`playerKey` of every commitment). */
  playerKey: string;
  shoe: ShoeView;
  /** The table's newest record: the next bet or end request chains to its hash (`prev`). */
  head: Signed;
  /** An accepted round still waiting for its secret (the stake is already debited), else null. */
  pending: { acceptance: Signed<Acceptance>; voidAt: string } | null;
  lastReceipt: Signed<Receipt> | null;
}

/** `POST /api/sessions` → 201 (pb-fair-2). */
export interface CreatedSession extends SessionView {
  token: string;
}

/** `POST /api/sessions/:id/shoe/start` → 200 (pb-fair-2). */
export interface StartAnswer {
  shoe: ShoeView;
}

/** `POST /api/sessions/:id/rounds` → 200: the bet is locked; deal by sending the secret before `voidAt`. */
export interface AcceptanceAnswer {
  acceptance: Signed<Acceptance>;
  balance: number;
  /** After this instant the round voids (a signed void record, the stake returned). */
  voidAt: string;
  shoe: ShoeSummary;
}

/** `POST /api/sessions/:id/rounds/:round/secret` → 200; `reveal` and `nextShoe` when the shoe ended. */
export interface RoundAnswer {
  receipt: Signed<Receipt>;
  balance: number;
  shoe: ShoeSummary;
  reveal?: Signed<Reveal>;
  nextShoe?: ShoeView;
}

/** `POST /api/sessions/:id/shoe/end` → 200 (pb-fair-2). */
export interface EndAnswer {
  reveal: Signed<Reveal>;
  balance: number;
  shoe: ShoeSummary;
  nextShoe: ShoeView;
}

/** `POST /api/tables/:room/:name/ticket` → 200: a single-use WebSocket ticket for the shared table. */
export interface SharedTableTicket {
  ticket: string;
  expiresAt: string;
}

/** `GET /api/sessions/:id/transcript` → 200: the table's whole history, verifiable as one file. */
export type TableTranscript = Pick<FairnessFile, 'version' | 'records'>;

/** The codes the pb-fair-2 flow adds to `ApiErrorCode`. */
export type ProtocolErrorCode =
  | 'protocol_retired'
  | 'bad_request'
  | 'bad_player_signature'
  | 'request_mismatch'
  | 'bets_invalid'
  | 'bad_lock'
  | 'lock_mismatch'
  | 'round_pending'
  | 'no_pending_round'
  | 'round_voided';

// ---- wallet mode: the operator's wallet holds the money (WALLET.md) ------------------------------
//
// An operator's back end launches a player (`POST /api/operator/launch`, HMAC-signed); the element
// redeems the launch token for a session (`POST /api/sessions` with `launchToken`). Every balance of
// such a session is the operator's wallet's, in the currency's ISO 4217 minor units; a bet is
// debited from that wallet before its acceptance is signed, a payout credited after the receipt.

/** `POST /api/operator/launch` → 201. */
export interface LaunchAnswer {
  /** Single use, short-lived: give it to the element (`launch-token`) or open `url`. */
  token: string;
  /** A ready `/embed?launch=…` URL for an iframe or a new window. */
  url: string;
  expiresAt: string;
}

/** `POST /api/sessions` with a launch token instead of a room: the room, currency and player come from the launch. */
export interface LaunchSessionRequest {
  launchToken: string;
  playerKey: string;
  /** When set, the token must be this operator's (else 403 `launch_wrong_operator`). */
  operator?: string;
  mode?: ShoeMode;
  decks?: number;
}

/** A credit or rollback the wallet has not acknowledged yet: the player sees "payout pending". */
export interface PendingPayment {
  kind: 'credit' | 'rollback';
  shoe: number;
  round: number;
  transaction: string;
  amount: number;
}

/** What a wallet-mode session view adds (`SessionCommon.wallet`). */
export interface WalletSessionView {
  operator: string;
  currency: string;
  /** The currency's ISO 4217 minor-unit digits (JPY 0, EUR 2, BHD 3). */
  minorUnits: number;
  lang: Language;
  returnUrl: string;
  /** The player's limits from the launch. */
  playerLimits: PlayerLimits;
  /** Wagered and net of this session so far, and when it started. */
  played: { startedAt: string; wagered: number; net: number };
  pendingPayments: PendingPayment[];
  /** A reality check waiting for the player's answer (betting is refused until then). */
  realityCheck: RealityCheck | null;
  /** The session has ended (time limit, player, operator); no bet is taken any more. */
  ended: { code: SessionEndCode; at: string } | null;
}

/** `POST /api/sessions/:id/reality-check`: the player's answer. */
export interface RealityCheckAnswerRequest {
  choice: 'continue' | 'stop';
}

/** The codes wallet mode adds to `ApiErrorCode`. */
export type WalletApiErrorCode =
  // the launch and its token
  | 'bad_launch'
  | 'unknown_operator'
  | 'launch_token_unknown'
  | 'launch_token_used'
  | 'launch_token_expired'
  | 'launch_wrong_operator'
  // an operator's signature (launch and operator calls)
  | SignatureErrorCode
  // the wallet refused the debit (its own code, passed to the player)
  | 'insufficient_funds'
  | 'limit_reached'
  | 'player_blocked'
  | 'unknown_player'
  | 'wrong_currency'
  // the debit's outcome is unknown: it is rolled back and the bet refused
  | 'wallet_unavailable'
  // a wallet-mode session's limits in its currency do not take this shared table's stakes
  | 'shared_table_currency'
  // responsible gaming (shared/wallet/responsible.ts)
  | LimitsRefusalCode;
