/**
 * The routes of shared tables (API.md "Shared tables"), mounted at /api/tables by http/app.ts:
 *
 *   GET /api/tables/:room/:name             the table's public state (no token)
 *   GET /api/tables/:room/:name/transcript  a shoe's signed records (?shoe=n; default: the current one)
 *   GET /api/tables/:room/:name/shoes/:shoe/rounds/:round/bets
 *                                           a pb-shared-2 round's bets file: its close and the bet requests its root commits to
 *   GET /api/tables/:room/:name/shoes/:shoe/start
 *                                           a pb-shared-2 shoe's start file: its start and the start requests its root commits to
 *   POST /api/tables/:room/:name/ticket     a WebSocket ticket for this table (the session token as
 *                                           `Authorization: Bearer …`): single use, 30 s
 *   GET /api/tables/:room/:name/ws          WebSocket upgrade; the session token as
 *                                           `Authorization: Bearer …`, or `?ticket=…` (browsers cannot
 *                                           set headers on a WebSocket; a token never goes in a URL)
 *
 * The Worker checks the table id and the token (with the player's session object), asks the table
 * which of its relays the player goes to, and passes the socket with the session id to that relay
 * (relay.ts): the table then knows whose money each socket may move.
 */
import { Hono } from 'hono';
import { failure } from '../http/answers.ts';
import { isOriginAllowedFor, isSameOrigin, originRefusal } from '../http/cors.ts';
import { beaconProblem, misconfigured } from '../config/deploy-check.ts';
import { type Env, sharedTiming } from '../config/env.ts';
import { relayName } from './relay.ts';
import { parseTableId, TABLE_ID_RULE } from './settings.ts';
import { ROOMS } from '../../shared/table.ts';
import { sharedSeatError } from '../../shared/wallet/operators.ts';
import { bearer, ticketSession, tokenHash, tokenSession } from '../http/tokens.ts';

export const sharedTableRoutes = new Hono<{ Bindings: Env }>();

function refuse(a: { status: number; body: unknown }): Response {
  return Response.json(a.body, { status: a.status });
}

/** The table's object and the URL it is asked at (the id travels as room and name). */
function tableOf(env: Env, room: string, name: string, what: string) {
  const config = parseTableId(room, name, sharedTiming(env).windowMs);
  if (!config) return null;
  const url = `https://shared-table/${what}?room=${encodeURIComponent(room)}&name=${encodeURIComponent(name)}`;
  return { stub: env.SHARED_TABLES.getByName(config.tableId), url, config };
}

/** The table's answer with headers the Worker may still set (CORS, framing, no-store). */
async function passOn(answer: Promise<Response>): Promise<Response> {
  const res = await answer;
  if (res.webSocket) return new Response(null, { status: 101, webSocket: res.webSocket });
  return new Response(res.body, res);
}

/** Without a usable beacon a shared table can deal nothing: 503 `misconfigured` naming the setting (deploy-check.ts). */
sharedTableRoutes.use('*', async (c, next) => {
  const problem = await beaconProblem(c.env, new URL(c.req.url).origin);
  if (problem) return refuse(misconfigured(problem));
  await next();
});

const noTable = () => refuse(failure(404, 'not_found', `no such table: ${TABLE_ID_RULE}`));

sharedTableRoutes.get('/:room/:name', async (c) => {
  const t = tableOf(c.env, c.req.param('room'), c.req.param('name'), 'state');
  if (!t) return noTable();
  return passOn(t.stub.fetch(t.url));
});

sharedTableRoutes.get('/:room/:name/transcript', async (c) => {
  const t = tableOf(c.env, c.req.param('room'), c.req.param('name'), 'transcript');
  if (!t) return noTable();
  const shoe = c.req.query('shoe');
  if (shoe !== undefined && !/^[1-9][0-9]{0,8}$/.test(shoe)) return refuse(failure(400, 'bad_query', `shoe must be a shoe number (1, 2, …), got "${shoe}"`));
  return passOn(t.stub.fetch(shoe === undefined ? t.url : `${t.url}&shoe=${shoe}`));
});

/** A file of the table's records asked by number (`what` at the table: bets, start), each number 1, 2, … */
function numbered(c: { env: Env; req: { param(name: string): string | undefined } }, what: string, names: readonly ('shoe' | 'round')[]) {
  const t = tableOf(c.env, c.req.param('room')!, c.req.param('name')!, what);
  if (!t) return noTable();
  let url = t.url;
  for (const name of names) {
    const value = c.req.param(name)!;
    if (!/^[1-9][0-9]{0,8}$/.test(value)) return refuse(failure(400, 'bad_query', `${name} must be a number (1, 2, …), got "${value}"`));
    url += `&${name}=${value}`;
  }
  return passOn(t.stub.fetch(url));
}

sharedTableRoutes.get('/:room/:name/shoes/:shoe/rounds/:round/bets', (c) => numbered(c, 'bets', ['shoe', 'round']));
sharedTableRoutes.get('/:room/:name/shoes/:shoe/start', (c) => numbered(c, 'start', ['shoe']));

sharedTableRoutes.post('/:room/:name/ticket', async (c) => {
  const t = tableOf(c.env, c.req.param('room'), c.req.param('name'), 'ws');
  if (!t) return noTable();
  const token = bearer(c.req.header('Authorization'));
  const owner = token === null ? null : tokenSession(token);
  if (token === null || owner === null) return refuse(failure(401, 'unauthorized', 'send your session\'s token as "Authorization: Bearer <token>"'));
  const ticket = await c.env.TABLES.getByName(owner).sharedTicket(tokenHash(token), t.config.tableId);
  if (!ticket) return refuse(failure(401, 'unauthorized', 'the token is not valid'));
  if ('refused' in ticket) return refuse(failure(409, ticket.refused.code, ticket.refused.message));
  return Response.json(ticket, { headers: { 'Cache-Control': 'no-store' } });
});

sharedTableRoutes.get('/:room/:name/ws', async (c) => {
  const t = tableOf(c.env, c.req.param('room'), c.req.param('name'), 'ws');
  if (!t) return noTable();
  if (c.req.header('Upgrade')?.toLowerCase() !== 'websocket') {
    return refuse(failure(426, 'upgrade_required', 'this is the table\'s WebSocket: connect with "Upgrade: websocket"'));
  }
  // A browser cannot set headers on a WebSocket: it sends a ticket (POST …/ticket), never its session token, in the URL.
  const token = bearer(c.req.header('Authorization'));
  const ticket = c.req.query('ticket') ?? null;
  const owner = token !== null ? tokenSession(token) : ticket !== null ? ticketSession(ticket) : null;
  if (owner === null)
    return refuse(
      failure(401, 'unauthorized', 'send your session\'s token as "Authorization: Bearer <token>", or a ticket from POST …/ticket as ?ticket=<ticket>'),
    );
  const sessionObject = c.env.TABLES.getByName(owner);
  const seat = token !== null ? await sessionObject.sharedSeat(tokenHash(token)) : await sessionObject.sharedSeatByTicket(tokenHash(ticket!), t.config.tableId);
  if (!seat)
    return refuse(
      failure(401, 'unauthorized', token !== null ? 'the token is not valid' : 'the ticket is not valid: unknown, used, expired or for another table'),
    );
  const origin = c.req.header('Origin');
  const cross = origin === undefined || isSameOrigin(origin, c.req.url) ? null : origin;
  if (!isOriginAllowedFor(cross, seat.affiliate, c.env)) return refuse(originRefusal(cross!, seat.affiliate));
  if (seat.room !== t.config.room) {
    return refuse(failure(403, 'wrong_room', `this session plays in room ${seat.room}; this table is in room ${t.config.room}`));
  }
  // A wallet-mode seat: the table's stakes, in the wallet's currency, must be stakes its limits take.
  const misfit = seat.wallet ? sharedSeatError(ROOMS[t.config.room].limits, seat.wallet.limits, seat.wallet.currency) : null;
  if (misfit) return refuse(failure(409, 'shared_table_currency', misfit));
  const headers = new Headers(c.req.raw.headers);
  headers.set('X-Player-Session', seat.sessionId);
  headers.set('X-Player-Balance', String(seat.balance));
  headers.delete('Authorization');
  // The table chooses the player's relay (relay.ts); the socket is the relay's, never the table's.
  const routed = await t.stub.route(c.req.param('room'), c.req.param('name'), seat.sessionId);
  if (!routed.ok) return refuse(routed as unknown as { status: number; body: unknown });
  const relayStub = c.env.SHARED_TABLE_RELAYS.getByName(relayName(t.config.tableId, routed.relay));
  return passOn(relayStub.fetch(new Request(`${t.url}&relay=${routed.relay}`, { headers })));
});
