/**
 * The Worker's fetch handler (index.ts hands it every request): routes the HTTP API (API.md), checks what can be checked without
 * the table (client address rate limit, CORS origin, session id, bearer token, Idempotency-Key,
 * body size, JSON, body shape), then calls the table session's Durable Object over RPC and turns
 * its `Answer` into the response. Everything else is served from the static assets in dist/
 * (wrangler.toml `run_worker_first` sends only /api/*, /.well-known/* and /embed here).
 *
 * Embedding origins (cors.ts): a preflight needs an origin allowed for some affiliate; creation
 * checks the origin against the body's affiliate; later calls pass the origin to the table, which
 * checks it against the session's affiliate. CORS headers go only on answers to an origin that is
 * allowed somewhere and was not refused.
 *
 * Every refusal is a 4xx `{ error: { code, message } }`. An exception is a real fault: it is
 * logged and becomes a 500 `internal` (or 503 `unavailable` when the platform says to retry).
 */
import { Hono, type Context, type Next } from 'hono';
import { type Answer, answer, failure, rateLimited } from './answers.ts';
import { AFFILIATE_TOKEN_HEADER, attribute } from '../embed/attribution.ts';
import { readJsonBody } from './body.ts';
import { adminAccess } from '../ledger/admin.ts';
import { LOCAL_BEACON_PATH, localBeaconRoutes } from '../beacon/local.ts';
import { misconfigured, operatorsProblem, signingKeyProblem } from '../config/deploy-check.ts';
import { corsHeaders, isKnownOrigin, isOriginAllowedFor, isSameOrigin, originRefusal } from './cors.ts';
import { frameResponse, parseEmbedQuery } from '../embed/frame.ts';
import { type Env, operators, rateLimits } from '../config/env.ts';
import { isIdempotencyKey, requestHash } from './idempotency.ts';
import { jwks } from '../keys/keys.ts';
import { LEDGER_NAME } from '../ledger/ledger.ts';
import { addressKey, KeyedBuckets } from './limits.ts';
import { AFFILIATE_ID, AFFILIATE_ID_RULE, CreateSessionBody, LaunchSessionBody, parseBody, RealityCheckAnswerBody, SignedRequestBody } from './bodies.ts';
import { operatorRoutes } from './operator-routes.ts';
import { launchTokenUnknown } from '../operator/operator.ts';
import type { Auth } from '../session/auth.ts';
import type { Idem } from '../session/replay.ts';
import type { Table } from '../session/table.ts';
import { sharedTableRoutes } from '../shared-table/routes.ts';
import { bearer, isSessionId, launchTokenOperator, tokenHash, tokenSession } from './tokens.ts';

type App = {
  Bindings: Env;
  Variables: {
    /** The browser origin of a cross-origin call; null without `Origin` or from the Worker's own origin. */
    origin: string | null;
    /** The answer refused the origin: it gets no CORS headers. */
    originRefused: boolean;
    /** The answer set its own CORS headers (public endpoints). */
    ownCors: boolean;
  };
};
type C = Context<App>;

/** Per-isolate buckets of API requests by client address. */
const perAddress = new KeyedBuckets();

const app = new Hono<App>();

/** The client's address as a rate-limit key (IPv6 by /64). */
function clientAddress(c: C): string {
  return addressKey(c.req.header('CF-Connecting-IP') ?? 'unknown');
}

function send(c: C, a: Answer): Response {
  if ((a.body as { error?: { code?: string } }).error?.code === 'origin_not_allowed') c.set('originRefused', true);
  const res = c.json(a.body as object, a.status as 200);
  for (const [k, v] of Object.entries(a.headers ?? {})) res.headers.set(k, v);
  return res;
}

// ---- the edge: no framing, CORS, rate limit per address, no caching ------------------------------

/**
 * Only /embed may be framed, by the origins embed/frame.ts names. Everything else the Worker
 * answers (the API, the JWKS, an unknown path) says so; the static pages get the same headers
 * from dist/_headers (scripts/cdn-headers.ts).
 */
app.use('*', async (c, next) => {
  await next();
  // The frame itself carries its own frame-ancestors (embed/frame.ts); its refusals do not.
  if (new URL(c.req.url).pathname === '/embed' && c.res.headers.has('Content-Security-Policy')) return;
  c.res.headers.set('X-Frame-Options', 'DENY');
  if (!c.res.headers.has('Content-Security-Policy')) c.res.headers.set('Content-Security-Policy', "frame-ancestors 'none'");
});

app.use('/api/*', async (c, next) => {
  const origin = c.req.header('Origin');
  const cross = origin === undefined || isSameOrigin(origin, c.req.url) ? null : origin;
  c.set('origin', cross);
  // Allowed for some affiliate (or no cross-origin browser at all); the exact check comes later.
  const known = cross === null || isKnownOrigin(cross, c.env);
  if (c.req.method === 'OPTIONS') {
    if (!known) return send(c, originRefusal(cross, null));
    return new Response(null, { status: 204, headers: origin === undefined ? {} : corsHeaders(origin, true) });
  }
  const taken = perAddress.take(clientAddress(c), rateLimits(c.env).ip, Date.now());
  if (!taken.ok) return send(c, rateLimited(taken.retryAfter, 'from this address'));
  await next();
  c.res.headers.set('Cache-Control', 'no-store');
  if (origin !== undefined && known && !c.get('originRefused') && !c.get('ownCors')) {
    for (const [k, v] of Object.entries(corsHeaders(origin, false))) c.res.headers.set(k, v);
  }
});

/**
 * A deploy fails closed (deploy-check.ts): without SIGNING_KEY on a public host, or with a malformed
 * one, the API and the JWKS answer 503 `misconfigured` naming the setting (with CORS headers, so
 * that an embedding page can read why).
 */
async function signingKeyGate(c: C, next: Next) {
  const problem = await signingKeyProblem(c.env, c.req.url);
  if (problem) return send(c, misconfigured(problem));
  await next();
}
app.use('/api/*', signingKeyGate);
app.use('/.well-known/*', signingKeyGate);

// ---- checks shared by the table routes -------------------------------------------------------

type Gate = { ok: true; sessionId: string; auth: Auth } | { ok: false; res: Response };

/** The session id in the path and the bearer token: 404 / 401 / 403. */
async function authenticate(c: C): Promise<Gate> {
  const sessionId = c.req.param('id') ?? '';
  if (!isSessionId(sessionId)) return { ok: false, res: send(c, failure(404, 'not_found', 'no such session')) };
  const token = bearer(c.req.header('Authorization'));
  const owner = token === null ? null : tokenSession(token);
  if (token === null || owner === null) {
    return { ok: false, res: send(c, failure(401, 'unauthorized', 'send the session\'s token as "Authorization: Bearer <token>"')) };
  }
  const hash = tokenHash(token);
  const origin = c.get('origin');
  if (owner !== sessionId) {
    // A token for another table: 403 if it really is that table's token, 401 if it is no token at all.
    const real = await c.env.TABLES.getByName(owner).checkToken(hash);
    return {
      ok: false,
      res: real
        ? send(c, failure(403, 'forbidden', 'this token belongs to another table session'))
        : send(c, failure(401, 'unauthorized', 'the bearer token is not valid')),
    };
  }
  return { ok: true, sessionId, auth: { tokenHash: hash, origin } };
}

function idempotencyKey(c: C): { ok: true; key: string } | { ok: false; res: Response } {
  const key = c.req.header('Idempotency-Key');
  if (isIdempotencyKey(key)) return { ok: true, key };
  return {
    ok: false,
    res: send(c, failure(400, 'idempotency_key_required', 'this request changes state: send an Idempotency-Key header of 1–64 printable characters (a UUID)')),
  };
}

/** Checks a read body against `schema`: 400 invalid_body. */
function parsed<S extends Parameters<typeof parseBody>[0]>(c: C, schema: S, value: unknown) {
  const result = parseBody(schema, value);
  if (!result.ok) return { ok: false as const, res: send(c, failure(400, 'invalid_body', result.message)) };
  return { ok: true as const, value: result.value };
}

/** Reads and checks the body against `schema`: 413, 400 bad_json, 400 invalid_body. */
async function body<S extends Parameters<typeof parseBody>[0]>(c: C, schema: S, emptyIs: 'object' | 'error' = 'error') {
  const read = await readJsonBody(c.req.raw, emptyIs);
  if (!read.ok) return { ok: false as const, res: send(c, read.answer) };
  return parsed(c, schema, read.value);
}

// ---- routes ---------------------------------------------------------------------------------------

app.post('/api/sessions', async (c) => {
  const key = idempotencyKey(c);
  if (!key.ok) return key.res;
  const read = await readJsonBody(c.req.raw);
  if (!read.ok) return send(c, read.answer);
  if (typeof read.value === 'object' && read.value !== null && Object.hasOwn(read.value, 'launchToken')) return redeemLaunch(c, key.key, read.value);
  const b = parsed(c, CreateSessionBody, read.value);
  if (!b.ok) return b.res;
  const origin = c.get('origin');
  const affiliate = b.value.affiliate ?? null;
  if (!isOriginAllowedFor(origin, affiliate, c.env)) return send(c, originRefusal(origin!, affiliate));
  const claim = { affiliate, origin, token: c.req.header(AFFILIATE_TOKEN_HEADER) ?? null, idempotencyKey: key.key, now: Math.floor(Date.now() / 1000) };
  const attributed = attribute(claim, c.env);
  if (!attributed.ok) return send(c, attributed.answer);
  const client = c.env.CLIENTS.getByName(`ip:${clientAddress(c)}`);
  return send(c, await client.createSession({ key: key.key, requestHash: requestHash('create', b.value) }, b.value, attributed.attribution));
});

/**
 * Wallet mode: a launch token (minted by `POST /api/operator/launch`) for a session of the launched
 * player. The token names its operator, whose object redeems it once (operator/operator.ts); a
 * retry with the same Idempotency-Key and body gets the same session. The session belongs to the
 * operator's own site: the origins allowed for everyone (EMBED_ORIGINS "*").
 */
async function redeemLaunch(c: C, idempotencyKey: string, value: unknown): Promise<Response> {
  const problem = operatorsProblem(c.env);
  if (problem) return send(c, misconfigured(problem));
  const b = parsed(c, LaunchSessionBody, value);
  if (!b.ok) return b.res;
  const origin = c.get('origin');
  if (!isOriginAllowedFor(origin, null, c.env)) return send(c, originRefusal(origin!, null));
  const operatorId = launchTokenOperator(b.value.launchToken);
  const known = operators(c.env);
  if (operatorId === null || !known.ok || !known.value.has(operatorId)) {
    return send(c, launchTokenUnknown());
  }
  const redemption = {
    tokenHash: tokenHash(b.value.launchToken),
    expectedOperator: b.value.operator ?? null,
    idem: { key: idempotencyKey, requestHash: requestHash('launch', b.value) },
    playerKey: b.value.playerKey,
    mode: b.value.mode,
    decks: b.value.decks,
  };
  return send(c, await c.env.OPERATORS.getByName(operatorId).redeem(operatorId, redemption));
}

app.get('/api/sessions/:id', async (c) => {
  const gate = await authenticate(c);
  if (!gate.ok) return gate.res;
  return send(c, await c.env.TABLES.getByName(gate.sessionId).state(gate.auth));
});

/**
 * The pb-fair-2 changes: each body is `{ request }`, the player's signed request; the table checks
 * it (its signature under the session's player key) and answers with operator-signed records.
 */
function signedChange(
  kind: 'start' | 'bet' | 'secret' | 'end',
  call: (table: DurableObjectStub<Table>, auth: Auth, idem: Idem, value: SignedRequestBody, c: C) => Promise<Answer>,
) {
  return async (c: C) => {
    const gate = await authenticate(c);
    if (!gate.ok) return gate.res;
    const key = idempotencyKey(c);
    if (!key.ok) return key.res;
    const b = await body(c, SignedRequestBody);
    if (!b.ok) return b.res;
    const idem = { key: key.key, requestHash: requestHash(kind, b.value) };
    return send(c, await call(c.env.TABLES.getByName(gate.sessionId), gate.auth, idem, b.value, c));
  };
}

app.post(
  '/api/sessions/:id/shoe/start',
  signedChange('start', (t, auth, idem, b) => t.startShoe(auth, idem, b)),
);

/** Phase 1 of a round: the bet and its lock → the acceptance (stake debited). */
app.post(
  '/api/sessions/:id/rounds',
  signedChange('bet', (t, auth, idem, b) => t.placeBet(auth, idem, b)),
);

/** Phase 2: the round's secret → the receipt. */
app.post('/api/sessions/:id/rounds/:round/secret', async (c) => {
  const raw = c.req.param('round');
  if (!ROUND_NUMBER.test(raw)) return send(c, failure(404, 'not_found', `there is no round "${raw}"`));
  return signedChange('secret', (t, auth, idem, b) => t.revealSecret(auth, idem, Number(raw), b))(c);
});

app.post(
  '/api/sessions/:id/shoe/end',
  signedChange('end', (t, auth, idem, b) => t.endShoe(auth, idem, b)),
);

/** Wallet mode: the player's answer to a reality check (`RealityCheckAnswerRequest`) → the session. */
app.post('/api/sessions/:id/reality-check', async (c) => {
  const gate = await authenticate(c);
  if (!gate.ok) return gate.res;
  const key = idempotencyKey(c);
  if (!key.ok) return key.res;
  const b = await body(c, RealityCheckAnswerBody);
  if (!b.ok) return b.res;
  return send(c, await c.env.TABLES.getByName(gate.sessionId).answerRealityCheck(gate.auth, b.value.choice));
});

/** The table's whole history, one pb-fair-2 file. */
app.get('/api/sessions/:id/transcript', async (c) => {
  const gate = await authenticate(c);
  if (!gate.ok) return gate.res;
  return send(c, await c.env.TABLES.getByName(gate.sessionId).tableTranscript(gate.auth));
});

const ROUND_NUMBER = /^[1-9][0-9]{0,8}$/;
const SHOE_NUMBER = /^[1-9][0-9]{0,8}$/;

app.get('/api/sessions/:id/receipts', async (c) => {
  const gate = await authenticate(c);
  if (!gate.ok) return gate.res;
  const raw = c.req.query('shoe');
  if (raw !== undefined && !SHOE_NUMBER.test(raw)) return send(c, failure(400, 'bad_query', `shoe must be a shoe number (1, 2, …), got "${raw}"`));
  return send(c, await c.env.TABLES.getByName(gate.sessionId).receipts(gate.auth, raw === undefined ? null : Number(raw)));
});

app.get('/api/sessions/:id/shoes/:n/transcript', async (c) => {
  const gate = await authenticate(c);
  if (!gate.ok) return gate.res;
  const raw = c.req.param('n');
  if (!SHOE_NUMBER.test(raw)) return send(c, failure(404, 'not_found', `there is no shoe "${raw}"`));
  return send(c, await c.env.TABLES.getByName(gate.sessionId).transcript(gate.auth, Number(raw)));
});

/**
 * Public and readable from any page (a simple GET, no preflight): may this page embed a table of
 * this affiliate? The API itself gives a refused origin no CORS allowance, so the browser hides
 * its 403 from the page; the widget asks here to show the operator's reason.
 */
app.get('/api/embed-check', (c) => {
  c.set('ownCors', true);
  const raw = c.req.query('affiliate');
  const affiliate = raw === undefined || raw === '' ? null : raw.toLowerCase();
  let res: Response;
  if (affiliate !== null && !AFFILIATE_ID.test(affiliate)) {
    res = send(c, failure(400, 'bad_query', AFFILIATE_ID_RULE));
  } else {
    const origin = c.get('origin');
    res = isOriginAllowedFor(origin, affiliate, c.env)
      ? send(c, { status: 200, body: { allowed: true, origin, affiliate } })
      : send(c, originRefusal(origin!, affiliate));
  }
  res.headers.set('Access-Control-Allow-Origin', '*');
  return res;
});

/**
 * The operator's report: sessions, rounds, turnover and house result per affiliate and room
 * (ledger/ledger.ts). `Authorization: Bearer <ADMIN_TOKEN>`; off (404) while no ADMIN_TOKEN is set; for
 * servers and the command line, not for pages on other origins.
 */
app.get('/api/admin/affiliates', async (c) => {
  const access = adminAccess(c.env, c.req.header('Authorization'));
  if (access === 'disabled') return send(c, failure(404, 'not_found', 'the operator report is off: set the ADMIN_TOKEN secret to turn it on (DEPLOY.md)'));
  if (access === 'denied') return send(c, failure(401, 'unauthorized', 'send the operator token as "Authorization: Bearer <ADMIN_TOKEN>"'));
  const origin = c.get('origin');
  if (origin !== null) {
    return send(
      c,
      failure(403, 'origin_not_allowed', `The operator report may not be read from ${origin}: call it from a server or the command line.`, { origin }),
    );
  }
  return send(c, answer(200, await c.env.LEDGER.getByName(LEDGER_NAME).report()));
});

/** The Worker's own randomness beacon, a drand relay's routes, while no BEACON_URL is set (beacon/local.ts). */
app.route(LOCAL_BEACON_PATH, localBeaconRoutes);

/** Wallet mode: the operator's signed routes, its launches among them (operator-routes.ts). */
app.route('/api/operator', operatorRoutes);

/** Shared tables: state, transcript, and the players' WebSocket (shared-table/routes.ts). */
app.route('/api/tables', sharedTableRoutes);

app.get('/.well-known/jwks.json', async (c) => {
  const res = c.json(await jwks(c.env));
  res.headers.set('Cache-Control', 'public, max-age=300');
  res.headers.set('Access-Control-Allow-Origin', '*');
  return res;
});

/** The table alone, as a page for an iframe (embed/frame.ts); its frame-ancestors follow EMBED_ORIGINS. */
app.get('/embed', (c) => {
  const query = parseEmbedQuery(new URL(c.req.url).searchParams);
  if (query.ok) return frameResponse(query.value, c.env);
  const res = send(c, query.answer);
  res.headers.set('Cache-Control', 'no-store');
  return res;
});

// ---- everything else --------------------------------------------------------------------------------

const ROUTES: Array<[RegExp, string]> = [
  [/^\/api\/sessions$/, 'POST'],
  [/^\/api\/sessions\/[^/]+$/, 'GET'],
  [/^\/api\/sessions\/[^/]+\/shoe\/(start|end)$/, 'POST'],
  [/^\/api\/sessions\/[^/]+\/rounds$/, 'POST'],
  [/^\/api\/sessions\/[^/]+\/rounds\/[^/]+\/secret$/, 'POST'],
  [/^\/api\/sessions\/[^/]+\/reality-check$/, 'POST'],
  [/^\/api\/sessions\/[^/]+\/transcript$/, 'GET'],
  [/^\/api\/sessions\/[^/]+\/receipts$/, 'GET'],
  [/^\/api\/sessions\/[^/]+\/shoes\/[^/]+\/transcript$/, 'GET'],
  [/^\/api\/operator\/(launch|players\/[^/]+\/end)$/, 'POST'],
  [/^\/api\/operator\/(transactions|summary|rounds\/[^/]+\/[^/]+\/[^/]+)$/, 'GET'],
  [/^\/api\/embed-check$/, 'GET'],
  [/^\/api\/admin\/affiliates$/, 'GET'],
  [/^\/api\/beacon\//, 'GET'],
  [/^\/api\/tables\//, 'GET'],
  [/^\/\.well-known\/jwks\.json$/, 'GET'],
  [/^\/embed$/, 'GET'],
];

app.notFound((c) => {
  const path = new URL(c.req.url).pathname;
  const route = ROUTES.find(([re]) => re.test(path));
  if (route) {
    const res = send(c, failure(405, 'method_not_allowed', `${c.req.method} is not allowed here: use ${route[1]}`));
    res.headers.set('Allow', route[1]);
    return res;
  }
  return send(c, failure(404, 'not_found', `no route for ${c.req.method} ${path}`));
});

app.onError((err, c) => {
  const e = err as Error & { retryable?: boolean; overloaded?: boolean };
  console.error(`punto-banco: ${c.req.method} ${new URL(c.req.url).pathname} failed:`, e.stack ?? e.message);
  if (e.retryable || e.overloaded) {
    const res = send(c, failure(503, 'unavailable', 'the table is briefly unavailable: retry with the same Idempotency-Key'));
    res.headers.set('Retry-After', '1');
    return res;
  }
  return send(c, failure(500, 'internal', 'an internal error occurred; it has been logged'));
});

export { app };
