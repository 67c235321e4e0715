/**
 * The request bodies the API accepts, as valibot schemas. Strict objects: an unknown field is a
 * 400 `invalid_body`, never silently ignored. The schemas check only shapes and types; the game's
 * own rules (limits, sectors, boxes, amounts, the client seed, the cut) are the engine's, in
 * `shared/`, and answer with its codes.
 */
import * as v from 'valibot';
import {
  type BetRoundRequest,
  type CreateSessionRequest,
  type LaunchSessionRequest,
  MAX_DECKS,
  MIN_DECKS,
  oneOf,
  ROOM_IDS,
  SHOE_MODES,
  type RealityCheckAnswerRequest,
  type StartShoeRequest,
} from '../../shared/index.ts';
import { ID_PATTERN } from '../../shared/wallet/transaction.ts';

/** The largest request body the API reads, in bytes. Fifteen bets take about 700. */
export const MAX_BODY_BYTES = 4096;

/**
 * An affiliate id: a short slug that names the partner in receipts, in `EMBED_ORIGINS` and in the
 * operator's report. Case does not matter: it is stored in lower case.
 */
export const AFFILIATE_ID = /^[a-z0-9][a-z0-9_-]{0,39}$/;
export const AFFILIATE_ID_RULE = 'affiliate must be 1–40 letters, digits, "_" or "-", starting with a letter or digit';

export const CreateSessionBody = v.strictObject({
  room: v.picklist(ROOM_IDS, `room must be ${oneOf(ROOM_IDS)}`),
  affiliate: v.optional(v.pipe(v.string('affiliate must be a string'), v.toLowerCase(), v.regex(AFFILIATE_ID, AFFILIATE_ID_RULE))),
  mode: v.optional(v.picklist(SHOE_MODES, `mode must be ${oneOf(SHOE_MODES)}`)),
  decks: v.optional(
    v.pipe(
      v.number('decks must be a number'),
      v.integer('decks must be a whole number'),
      v.minValue(MIN_DECKS, `decks must be ${MIN_DECKS} to ${MAX_DECKS}`),
      v.maxValue(MAX_DECKS, `decks must be ${MIN_DECKS} to ${MAX_DECKS}`),
    ),
  ),
  // The player's Ed25519 public key (pb-fair-2); the table checks it is 32 canonical base64url bytes.
  playerKey: v.string("playerKey must be a string: the player's Ed25519 public key (base64url x)"),
});
export type CreateSessionBody = v.InferOutput<typeof CreateSessionBody>;

/**
 * Wallet mode: a session for a launched player (`POST /api/sessions` with `launchToken`). The
 * room, currency, player and limits come from the launch; the player brings their key and may
 * choose the shoe. `operator`, when given, must be the token's (else 403 `launch_wrong_operator`).
 */
export const LaunchSessionBody = v.strictObject({
  launchToken: v.pipe(v.string('launchToken must be a string'), v.maxLength(256, 'launchToken is at most 256 characters')),
  playerKey: CreateSessionBody.entries.playerKey,
  operator: v.optional(v.pipe(v.string('operator must be a string'), v.regex(ID_PATTERN, 'operator must be 1 to 128 of A-Z a-z 0-9 . _ : -'))),
  mode: CreateSessionBody.entries.mode,
  decks: CreateSessionBody.entries.decks,
});
export type LaunchSessionBody = v.InferOutput<typeof LaunchSessionBody>;

/**
 * Every pb-fair-2 change: `{ request }`, the player's signed request. Its members, types and
 * signature are checked by the fairness module (`validatePlayerRequest`: `bad_request`,
 * `bad_player_signature`), which knows FAIRNESS.md §B7 exactly.
 */
export const SignedRequestBody = v.strictObject({
  request: v.record(v.string(), v.unknown(), 'request must be an object: the signed request { body, signature }'),
});
export type SignedRequestBody = v.InferOutput<typeof SignedRequestBody>;

/** Wallet mode: the player's answer to a reality check. */
export const RealityCheckAnswerBody = v.strictObject({
  choice: v.picklist(['continue', 'stop'] as const, 'choice must be "continue" or "stop"'),
});
export type RealityCheckAnswerBody = v.InferOutput<typeof RealityCheckAnswerBody>;

// The schemas read exactly the wire contract's requests (shared/api.ts); the signed requests'
// own members are the fairness module's. A drift between the two fails to compile.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _contract: [
  Same<CreateSessionBody, CreateSessionRequest>,
  Same<LaunchSessionBody, LaunchSessionRequest>,
  Same<keyof StartShoeRequest, keyof SignedRequestBody>,
  Same<keyof BetRoundRequest, keyof SignedRequestBody>,
  Same<RealityCheckAnswerBody, RealityCheckAnswerRequest>,
] = [true, true, true, true, true];

/** Checks `input` against `schema`; on failure, one readable line naming the field. */
export function parseBody<S extends v.GenericSchema>(schema: S, input: unknown): { ok: true; value: v.InferOutput<S> } | { ok: false; message: string } {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return { ok: false, message: 'the body must be a JSON object' };
  const result = v.safeParse(schema, input, { abortEarly: true });
  if (result.success) return { ok: true, value: result.output };
  const issue = result.issues[0];
  const path = v.getDotPath(issue);
  if (path && issue.received === 'undefined') return { ok: false, message: `${path} is required` };
  if (path && issue.type === 'strict_object' && issue.expected === 'never') return { ok: false, message: `unknown field "${path}"` };
  return { ok: false, message: path ? `${path}: ${issue.message}` : issue.message };
}
