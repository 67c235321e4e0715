/**
 * The operator's routes (wallet mode, API.md "Operators"), mounted at /api/operator by app.ts.
 * Each is called by the operator's back end, signed with its operator secret (WALLET.md
 * "Signatures": PB-Operator names the operator; PB-Timestamp, PB-Nonce, PB-Signature over the
 * method, the path with its query, the timestamp, the nonce and the body; a GET signs an empty body):
 *
 *   POST /api/operator/launch                              a player's launch → a launch token and URL
 *   POST /api/operator/players/:playerId/end               { "code": "self_exclusion" | "operator_ended" }
 *   GET  /api/operator/transactions?from=&to=              every wallet call of its sessions in [from, to)
 *   GET  /api/operator/rounds/:sessionId/:shoe/:round      a round's signed records
 *   GET  /api/operator/summary?day=YYYY-MM-DD              the day's figures per currency
 *
 * The fetch handler checks what needs no secret (the settings, the operator's name, the query),
 * then hands the signed call to the operator's Durable Object (operator/operator.ts), which checks
 * the signature and its nonce before anything else.
 */
import { type Context, Hono } from 'hono';
import { ID_PATTERN } from '../../shared/wallet/transaction.ts';
import { OPERATOR_HEADER } from '../../shared/wallet/launch.ts';
import { NONCE_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../../shared/wallet/sign.ts';
import { misconfigured, operatorsProblem } from '../config/deploy-check.ts';
import { type Env, operators } from '../config/env.ts';
import { type Operator, type SignedCall, unknownOperator } from '../operator/operator.ts';
import { type Answer, failure } from './answers.ts';
import { readTextBody } from './body.ts';
import { isSameOrigin } from './cors.ts';
import { isSessionId } from './tokens.ts';

export const operatorRoutes = new Hono<{ Bindings: Env }>();
type C = Context<{ Bindings: Env }>;

function reply(a: Answer): Response {
  const res = Response.json(a.body, { status: a.status });
  for (const [k, v] of Object.entries(a.headers ?? {})) res.headers.set(k, v);
  return res;
}

/**
 * Wallet routes answer 503 `misconfigured` naming a malformed OPERATOR_SETTINGS or OPERATOR_SECRETS;
 * and they are for servers: a browser on another origin is refused (no CORS allowance either).
 */
operatorRoutes.use('*', async (c, next) => {
  const problem = operatorsProblem(c.env);
  if (problem) return reply(misconfigured(problem));
  const origin = c.req.header('Origin');
  if (origin !== undefined && !isSameOrigin(origin, c.req.url)) {
    return reply(failure(403, 'origin_not_allowed', `The operator routes may not be called from ${origin}: call them from the operator's server.`, { origin }));
  }
  await next();
});

/** The signed call and the operator's object, or the refusal (unknown operator, unreadable body). */
async function signed(c: C): Promise<{ ok: true; call: SignedCall; stub: DurableObjectStub<Operator> } | { ok: false; res: Response }> {
  const operatorId = c.req.header(OPERATOR_HEADER);
  const known = operators(c.env);
  if (operatorId === undefined || !ID_PATTERN.test(operatorId) || !known.ok || !known.value.has(operatorId)) {
    return { ok: false, res: reply(unknownOperator()) };
  }
  const body = await readTextBody(c.req.raw);
  if (!body.ok) return { ok: false, res: reply(body.answer) };
  const url = new URL(c.req.url);
  const headers: Record<string, string> = {};
  for (const name of [SIGNATURE_HEADER, TIMESTAMP_HEADER, NONCE_HEADER]) {
    const value = c.req.header(name);
    if (value !== undefined) headers[name] = value;
  }
  return {
    ok: true,
    call: { operatorId, method: c.req.method, path: url.pathname + url.search, headers, body: body.value },
    stub: c.env.OPERATORS.getByName(operatorId),
  };
}

operatorRoutes.post('/launch', async (c) => {
  const s = await signed(c);
  if (!s.ok) return s.res;
  return reply(await s.stub.launch(s.call, new URL(c.req.url).origin));
});

operatorRoutes.post('/players/:playerId/end', async (c) => {
  const s = await signed(c);
  if (!s.ok) return s.res;
  return reply(await s.stub.endPlayer(s.call, c.req.param('playerId')));
});

/** The longest range one transactions call may ask for. */
export const MAX_RANGE_DAYS = 31;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** A `from`/`to` value: a day (its midnight, UTC) or an ISO 8601 time with its zone, as ISO UTC. */
function instant(raw: string | undefined): string | null {
  if (raw === undefined || !DATE_TIME.test(raw)) return null;
  const ms = Date.parse(DAY.test(raw) ? `${raw}T00:00:00Z` : raw);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

operatorRoutes.get('/transactions', async (c) => {
  const from = instant(c.req.query('from'));
  const to = instant(c.req.query('to'));
  if (from === null || to === null) {
    return reply(failure(400, 'bad_query', 'from and to must be days (2026-12-01) or ISO 8601 times with a zone (2026-12-01T12:00:00Z)'));
  }
  if (!(from < to) || Date.parse(to) - Date.parse(from) > MAX_RANGE_DAYS * 86_400_000) {
    return reply(failure(400, 'bad_query', `from must be before to, at most ${MAX_RANGE_DAYS} days apart`));
  }
  const s = await signed(c);
  if (!s.ok) return s.res;
  return reply(await s.stub.transactions(s.call, from, to));
});

const NUMBER = /^[1-9][0-9]{0,8}$/;

operatorRoutes.get('/rounds/:sessionId/:shoe/:round', async (c) => {
  const { sessionId, shoe, round } = c.req.param();
  if (!isSessionId(sessionId) || !NUMBER.test(shoe) || !NUMBER.test(round)) {
    return reply(failure(404, 'not_found', 'a round is /api/operator/rounds/<sessionId>/<shoe>/<round>'));
  }
  const s = await signed(c);
  if (!s.ok) return s.res;
  return reply(await s.stub.round(s.call, sessionId, Number(shoe), Number(round)));
});

operatorRoutes.get('/summary', async (c) => {
  const day = c.req.query('day');
  if (day === undefined || !DAY.test(day) || instant(day) === null || !instant(day)!.startsWith(day)) {
    return reply(failure(400, 'bad_query', 'day must be a day, YYYY-MM-DD (UTC)'));
  }
  const s = await signed(c);
  if (!s.ok) return s.res;
  return reply(await s.stub.summary(s.call, day));
});
