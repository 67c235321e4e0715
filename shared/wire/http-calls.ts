/**
 * Every path of the Worker's HTTP API, written once (API.md): one function per endpoint builds
 * the call that asks it (method, path, body, the idempotency key the caller passes in), typed by
 * what a success answers; `sendApiCall` (http-client.ts) sends it. Read as a namespace,
 * `import * as apiCalls from './http-calls.ts'`, so a bundle keeps only the calls it makes.
 */
import type {
  AcceptanceAnswer,
  CreatedSession,
  CreateSessionRequest,
  EndAnswer,
  LaunchSessionRequest,
  RealityCheckAnswerRequest,
  RoundAnswer,
  SessionView,
  SharedTableTicket,
  StartAnswer,
  TableTranscript,
} from '../api.ts';
import type { Jwks } from '../fairness/common/keys.ts';
import type { BetRequest, EndRequest, SecretRequest, SignedRequest, StartRequest } from '../fairness/pb-fair-2/records.ts';
import type { ApiCall } from './http-client.ts';

const session = (sessionId: string): string => `api/sessions/${encodeURIComponent(sessionId)}`;
/** A shared table's id (`<room>/<name>`, of a–z, 0–9, "-" and ".") is a path as it is. */
const sharedTable = (tableId: string): string => `api/tables/${tableId}`;
const post = <T>(path: string, body: unknown, idempotencyKey: string): ApiCall<T> => ({ method: 'POST', path, body, idempotencyKey });
const get = <T>(path: string): ApiCall<T> => ({ method: 'GET', path });

/** `POST /api/sessions` → 201: a pb-fair-2 table session for the player's key, and its token. */
export const createSession = (body: CreateSessionRequest, idempotencyKey: string) => post<CreatedSession>('api/sessions', body, idempotencyKey);

/** `POST /api/sessions` with a launch token → 201: a wallet-mode session for the launched player (WALLET.md "The launch"). */
export const launchSession = (body: LaunchSessionRequest, idempotencyKey: string) => post<CreatedSession>('api/sessions', body, idempotencyKey);

/** `POST /api/sessions/:id/reality-check`: the player's answer to a reality check (wallet mode) → the session. */
export const answerRealityCheck = (sessionId: string, body: RealityCheckAnswerRequest, idempotencyKey: string) =>
  post<SessionView>(`${session(sessionId)}/reality-check`, body, idempotencyKey);

/** `GET /api/sessions/:id`: the session's state (its shoe, head, pending round). */
export const sessionState = (sessionId: string) => get<SessionView>(session(sessionId));

/** `POST /api/sessions/:id/shoe/start`: the player's signed client seed and cut. */
export const startShoe = (sessionId: string, request: SignedRequest<StartRequest>, idempotencyKey: string) =>
  post<StartAnswer>(`${session(sessionId)}/shoe/start`, { request }, idempotencyKey);

/** `POST /api/sessions/:id/rounds` (phase 1): the signed bet with its lock → the signed acceptance. */
export const placeBet = (sessionId: string, request: SignedRequest<BetRequest>, idempotencyKey: string) =>
  post<AcceptanceAnswer>(`${session(sessionId)}/rounds`, { request }, idempotencyKey);

/** `POST /api/sessions/:id/rounds/:round/secret` (phase 2): the round's secret → the signed receipt. */
export const revealSecret = (sessionId: string, request: SignedRequest<SecretRequest>, idempotencyKey: string) =>
  post<RoundAnswer>(`${session(sessionId)}/rounds/${request.body.round}/secret`, { request }, idempotencyKey);

/** `POST /api/sessions/:id/shoe/end`: the player ends the shoe; its seed is revealed. */
export const endShoe = (sessionId: string, request: SignedRequest<EndRequest>, idempotencyKey: string) =>
  post<EndAnswer>(`${session(sessionId)}/shoe/end`, { request }, idempotencyKey);

/** The path of `GET /api/sessions/:id/transcript` (also a link the fairness panel offers). */
export const transcriptPath = (sessionId: string): string => `${session(sessionId)}/transcript`;

/** `GET /api/sessions/:id/transcript`: the table's whole history, verifiable as one file. */
export const transcript = (sessionId: string) => get<TableTranscript>(transcriptPath(sessionId));

/** The path of `GET /api/embed-check?affiliate=ID`: may the calling page embed this affiliate's table (a plain GET, no headers: no preflight). */
export const embedCheckPath = 'api/embed-check';

/** `GET /.well-known/jwks.json`: the operator's public keys, retired ones included. */
export const jwks = () => get<Jwks>('.well-known/jwks.json');

/** `POST /api/tables/:room/:name/ticket`: a single-use WebSocket ticket for the shared table (the session's token). */
export const sharedTableTicket = (tableId: string): ApiCall<SharedTableTicket> => ({ method: 'POST', path: `${sharedTable(tableId)}/ticket` });

/** The path of `GET /api/tables/:room/:name/transcript`: the shared table's current shoe as one file (a link). */
export const sharedTableTranscriptPath = (tableId: string): string => `${sharedTable(tableId)}/transcript`;

/** The path of `GET /api/tables/:room/:name/ws`: the shared table's WebSocket (with `?ticket=`). */
export const sharedTableSocketPath = (tableId: string): string => `${sharedTable(tableId)}/ws`;
