/**
 * Opening a private table's session: on the first boot the one this tab stored for this endpoint,
 * room and affiliate (if the Worker still knows it: session-store.ts), else a new one for a fresh
 * player key; a table with a casino's launch token redeems it instead (`launchSession`: a
 * wallet-mode session, stored under the token, never under a room). A create keeps its idempotency key and player key (`Creating`) until it is answered,
 * so a Retry sends the same request and the Worker answers with the same session.
 */
import * as apiCalls from '../../shared/wire/http-calls.ts';
import type { RoomId } from '../../shared/table.ts';
import type { ShoeMode } from '../../shared/shoe.ts';
import { type ApiClient, type ApiError, type ApiResult, type FetchLike, newIdempotencyKey } from './api-client.ts';
import type { SessionAnswer, ReadSessionView, Signed } from './api-types.ts';
import { embedRefusal } from './embed.ts';
import { newPlayerKey, type PlayerCopy, playerKeyOf, restorePlayerKey, type SigningKey } from './player.ts';
import { resumeSession, type SessionStore } from './session-store.ts';

/** A create under way: its idempotency key and the player key it sends (a Retry sends the same). */
export interface Creating {
  key: string;
  player: SigningKey;
  jwk: JsonWebKey;
}

/**
 * The table's session: none; one being created (its idempotency key and the player key it sends:
 * a Retry sends the same); open (its id and token, the player's signing key and own copy of the
 * records, player.ts); or expired (the Worker no longer knows it: the next deal opens a new one,
 * the key and the copy stay readable until then).
 */
export type SessionState =
  | { kind: 'none' }
  | { kind: 'creating'; key: string; player: SigningKey; jwk: JsonWebKey }
  | { kind: 'open'; id: string; token: string; player: SigningKey; copy: PlayerCopy }
  | { kind: 'expired'; player: SigningKey; copy: PlayerCopy };

export type OpenSession = Extract<SessionState, { kind: 'open' }>;

/** The session the Worker gave (resumed with the records of its current shoe, or new), or why not. */
export type Opening =
  | { kind: 'opened'; session: { sessionId: string; token: string }; player: SigningKey; view: ReadSessionView; records: Signed[] }
  | { kind: 'failed'; error: ApiError };

/** What the table asks for: the page's attributes. */
export interface OpeningRequest {
  room: RoomId;
  affiliate: string | null;
  mode: ShoeMode;
  endpoint: string;
  /** A casino's launch (`launch-token`, `operator`): redeemed for a wallet-mode session instead of creating a play one. */
  launch?: { token: string; operator: string | null } | null;
  /** The element, that claims a stored session for itself (one table per stored session). */
  claimer: Element;
}

/**
 * Opens a session: the one `store` keeps (when `resume`), else a new one — `creating` goes on if a
 * create is under way, else `created` is told of the new one before it is sent.
 */
export async function openSession(
  api: ApiClient,
  fetcher: FetchLike,
  request: OpeningRequest,
  store: SessionStore | null,
  resume: boolean,
  creating: Creating | null,
  created: (creating: Creating) => void,
): Promise<Opening> {
  const { room, affiliate } = request;
  const stored = resume && store ? store.claim(request.claimer) : null;
  if (stored && store) {
    const player = await restorePlayerKey(stored.player);
    const result = player ? await resumeSession(api, store, stored, room, affiliate, Boolean(request.launch)) : ({ kind: 'gone' } as const);
    if (result.kind === 'resumed' && player) return { kind: 'opened', session: stored, player, view: result.value.view, records: result.value.records };
    if (result.kind === 'failed') return result;
    store.forget(stored.sessionId);
  }
  if (!creating) {
    const { key, jwk } = await newPlayerKey();
    creating = { key: newIdempotencyKey(), player: key, jwk };
    created(creating);
  }
  api.token = null;
  const playerKey = playerKeyOf(creating.player);
  const mode = request.mode === 'reshuffle' ? { mode: request.mode } : {};
  const launch = request.launch;
  const call = launch
    ? apiCalls.launchSession({ launchToken: launch.token, playerKey, ...(launch.operator ? { operator: launch.operator } : {}), ...mode }, creating.key)
    : apiCalls.createSession({ room, ...(affiliate ? { affiliate } : {}), ...mode, playerKey }, creating.key);
  const answer: ApiResult<SessionAnswer> = await api.send(call);
  if (!answer.ok) {
    let error = answer.error;
    // A page the Worker refuses gets no CORS headers, which looks like a dead network: ask why.
    if (error.code === 'unreachable' && error.status === 0) error = (await embedRefusal(fetcher, request.endpoint, affiliate)) ?? error;
    return { kind: 'failed', error };
  }
  const s = answer.value;
  const session = { sessionId: s.sessionId, token: s.token, player: creating.jwk };
  store?.keep(request.claimer, session);
  return { kind: 'opened', session, player: creating.player, view: s, records: [] };
}
