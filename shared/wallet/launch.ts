/**
 * The operator's launch request, `POST /api/operator/launch` (WALLET.md "Launch"): the operator's
 * back end says which player, currency, language, room and limits a session is for, signed like a
 * wallet answer (operator → provider secret, direction `request`, headers PB-Signature,
 * PB-Timestamp, PB-Nonce), with `PB-Operator` naming the operator whose secret signs it.
 */
import { type EngineError, fail, ok, oneOf, type Result } from '../errors.ts';
import { LANGUAGES, type Language } from '../languages.ts';
import { isRoomId, ROOM_IDS, type RoomId } from '../table.ts';
import { isCurrency } from './currency.ts';
import type { PlayerLimits } from './responsible.ts';
import { limitsProblem } from './responsible.ts';
import { header, signWalletMessage, verifyWalletMessage, type HeaderSource, type SignatureErrorCode, type SignatureHeaders } from './sign.ts';
import { ID_PATTERN } from './transaction.ts';

export const LAUNCH_PATH = '/api/operator/launch';
export const OPERATOR_HEADER = 'PB-Operator';

export interface LaunchRequest {
  /** The operator's opaque id of the player. */
  playerId: string;
  currency: string;
  lang: Language;
  room: RoomId;
  limits: PlayerLimits;
  /** Where the table sends the player back ("return to the casino"): https, or http on a loopback host. */
  returnUrl: string;
}

export type LaunchErrorCode = 'bad_launch';

const FIELDS = ['playerId', 'currency', 'lang', 'room', 'limits', 'returnUrl'];

function returnUrlProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 2048) return '"returnUrl" must be a URL of at most 2048 characters';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `"returnUrl" is not a URL: ${JSON.stringify(value)}`;
  }
  const loopback = url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) return '"returnUrl" must be https (http only on a loopback host)';
  return undefined;
}

/** A launch body, checked strictly: every field, nothing else. */
export function parseLaunchRequest(value: unknown): Result<LaunchRequest, EngineError<LaunchErrorCode>> {
  const bad = (message: string) => fail('bad_launch', message);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return bad('a launch is a JSON object');
  const r = value as Record<string, unknown>;
  const extra = Object.keys(r).find((k) => !FIELDS.includes(k));
  if (extra !== undefined) return bad(`unknown field "${extra}"`);
  for (const name of FIELDS) if (!(name in r)) return bad(`the field "${name}" is missing`);
  if (typeof r.playerId !== 'string' || !ID_PATTERN.test(r.playerId)) return bad('"playerId" must be 1 to 128 of A-Z a-z 0-9 . _ : -');
  if (!isCurrency(r.currency)) return bad(`"currency" must be an active ISO 4217 code, got ${JSON.stringify(r.currency)}`);
  if (!(LANGUAGES as readonly unknown[]).includes(r.lang)) return bad(`"lang" must be ${oneOf(LANGUAGES)}`);
  if (!isRoomId(r.room)) return bad(`"room" must be ${oneOf(ROOM_IDS)}`);
  const limits = limitsProblem(r.limits);
  if (limits) return bad(limits);
  const url = returnUrlProblem(r.returnUrl);
  if (url) return bad(url);
  return ok({
    playerId: r.playerId,
    currency: r.currency,
    lang: r.lang as Language,
    room: r.room,
    limits: r.limits as PlayerLimits,
    returnUrl: r.returnUrl as string,
  });
}

/** The body and headers of a signed launch, ready to POST to `<endpoint>/api/operator/launch`. */
export async function signLaunchRequest(
  operatorId: string,
  operatorSecret: string,
  launch: LaunchRequest,
  now: number,
  nonce: string,
): Promise<{ body: string; headers: SignatureHeaders & { 'PB-Operator': string; 'content-type': string } }> {
  if (!ID_PATTERN.test(operatorId)) throw new RangeError('an operator id is 1 to 128 of A-Z a-z 0-9 . _ : -');
  const body = JSON.stringify({
    playerId: launch.playerId,
    currency: launch.currency,
    lang: launch.lang,
    room: launch.room,
    limits: launch.limits,
    returnUrl: launch.returnUrl,
  });
  const signed = await signWalletMessage(operatorSecret, {
    direction: 'request',
    method: 'POST',
    path: LAUNCH_PATH,
    timestamp: Math.floor(now / 1000),
    nonce,
    body,
  });
  return {
    body,
    headers: { ...signed, [OPERATOR_HEADER]: operatorId, 'content-type': 'application/json' } as SignatureHeaders & {
      'PB-Operator': string;
      'content-type': string;
    },
  };
}

export type LaunchCheckCode = LaunchErrorCode | SignatureErrorCode | 'unknown_operator';

/**
 * The provider's check of a launch, in order: the operator is named and known
 * (`unknown_operator`), the signature holds over the launch path with that operator's secret, in
 * the window, with a new nonce (the codes of verifyWalletMessage), then the body (`bad_launch`).
 * `operatorSecret` answers undefined for an operator the provider does not know.
 */
export async function verifyLaunchRequest(input: {
  headers: HeaderSource;
  body: string;
  /** Unix seconds. */
  now: number;
  operatorSecret: (operatorId: string) => string | undefined;
  nonceRefused: (nonce: string) => boolean;
}): Promise<Result<{ operatorId: string; launch: LaunchRequest }, EngineError<LaunchCheckCode>>> {
  const operatorId = header(input.headers, OPERATOR_HEADER);
  const secret = operatorId === undefined || !ID_PATTERN.test(operatorId) ? undefined : input.operatorSecret(operatorId);
  if (operatorId === undefined || secret === undefined) return fail('unknown_operator', `the ${OPERATOR_HEADER} header must name a configured operator`);
  const verified = await verifyWalletMessage({
    secret,
    direction: 'request',
    method: 'POST',
    path: LAUNCH_PATH,
    headers: input.headers,
    body: input.body,
    now: input.now,
    nonceRefused: input.nonceRefused,
  });
  if (!verified.ok) return verified;
  let value: unknown;
  try {
    value = JSON.parse(input.body);
  } catch {
    return fail('bad_launch', 'the launch body is not JSON');
  }
  const launch = parseLaunchRequest(value);
  return launch.ok ? ok({ operatorId, launch: launch.value }) : launch;
}
