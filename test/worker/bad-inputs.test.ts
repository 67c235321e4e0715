/** Every bad input gets the right 4xx JSON error and changes nothing. */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, test } from 'vitest';
import { betRequest, endRequest, generateSigningKey, secretRequest, type SigningKey, signRequest } from '../../shared/index.ts';
import { api, bet, betBody, type CallOptions, createSession, PLAYER_KEY, readySession, reveal, type Session, snapshot, startBody, state } from './helpers.ts';

let s: Session;
let other: Session;
let fresh: Session;
/** A session with a round accepted and waiting for its secret. */
let pend: Session;
let pending: any;
let stranger: SigningKey;

beforeAll(async () => {
  s = await readySession({ room: 'hall-1' });
  other = await readySession({ room: 'hall-1' });
  fresh = await createSession({ room: 'hall-1' });
  pend = await readySession({ room: 'hall-1' });
  pending = (await bet(pend, [{ sector: 0, box: 'player', amount: 1000 }])).body.acceptance;
  stranger = (await generateSigningKey()).key;
});

const ok = [{ sector: 0, box: 'player', amount: 1000 }];

interface Case {
  name: string;
  status: number;
  code: string;
  request: () => Promise<[method: string, path: string, opts: CallOptions]> | [method: string, path: string, opts: CallOptions];
}

const rounds = (opts: CallOptions): [string, string, CallOptions] => ['POST', `/api/sessions/${s.id}/rounds`, { token: s.token, ...opts }];

/** A bet request exactly as given (no normalising), on `s`'s head, signed by `key` (default: the player's). */
async function signedBet(b: unknown, over: Record<string, unknown> = {}, key?: SigningKey) {
  const view = await state(s);
  const body = { ...betRequest(view.head, view.shoe.rounds + 1, [], 'ab'.repeat(32)), bets: b, ...over };
  return signRequest(body as never, key ?? (await s.player));
}
const bets = async (b: unknown) => rounds({ body: { request: await signedBet(b) } });
const start = async (x: Session, clientSeed: string, cut: number) =>
  ['POST', `/api/sessions/${x.id}/shoe/start`, { token: x.token, body: await startBody(x, clientSeed, cut) }] as [string, string, CallOptions];
const secretOf = async (acceptance: any, secret: string, over: Record<string, unknown> = {}, x: Session = pend) => ({
  request: await signRequest({ ...secretRequest(acceptance, secret), ...over } as never, await x.player),
});

const CASES: Case[] = [
  // the body itself
  { name: 'malformed JSON', status: 400, code: 'bad_json', request: () => rounds({ raw: '{"request": {', headers: { 'Content-Type': 'application/json' } }) },
  { name: 'empty body', status: 400, code: 'bad_json', request: () => rounds({ raw: '' }) },
  { name: 'not UTF-8', status: 400, code: 'bad_json', request: () => rounds({ raw: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]) }) },
  { name: 'JSON that is not an object', status: 400, code: 'invalid_body', request: () => rounds({ body: [ok] }) },
  { name: 'unknown top-level field', status: 400, code: 'invalid_body', request: async () => rounds({ body: { request: await signedBet(ok), double: true } }) },
  { name: 'the pb-fair-1 body (bets, no request)', status: 400, code: 'invalid_body', request: () => rounds({ raw: JSON.stringify({ bets: ok }) }) },
  { name: 'missing request', status: 400, code: 'invalid_body', request: () => rounds({ body: {} }) },
  {
    name: 'body over the size limit',
    status: 413,
    code: 'body_too_large',
    request: async () => rounds({ raw: JSON.stringify({ request: await signedBet(ok), pad: 'x'.repeat(5000) }) }),
  },
  // the signed request's shape and signature
  { name: 'unknown field in a bet', status: 400, code: 'bad_request', request: () => bets([{ sector: 0, box: 'player', amount: 1000, odds: 2 }]) },
  { name: 'amount as a string', status: 400, code: 'bad_request', request: () => bets([{ sector: 0, box: 'player', amount: '1000' }]) },
  { name: 'sector as a string', status: 400, code: 'bad_request', request: () => bets([{ sector: '0', box: 'player', amount: 1000 }]) },
  {
    name: 'an unknown member in the request',
    status: 400,
    code: 'bad_request',
    request: async () => rounds({ body: { request: { ...(await signedBet(ok)), extra: 1 } } }),
  },
  { name: 'a secret request sent as a bet', status: 400, code: 'bad_request', request: async () => rounds({ body: await secretOf(pending, 'ab'.repeat(32)) }) },
  {
    name: 'a lock in upper case',
    status: 400,
    code: 'bad_request',
    request: async () => rounds({ body: { request: await signedBet(ok, { lock: 'AB'.repeat(32) }) } }),
  },
  {
    name: 'a bet signed by another key',
    status: 400,
    code: 'bad_player_signature',
    request: async () => rounds({ body: { request: await signedBet(ok, {}, stranger) } }),
  },
  {
    name: 'a bet changed after the player signed it',
    status: 400,
    code: 'bad_player_signature',
    request: async () => {
      const r: any = await signedBet(ok);
      return rounds({ body: { request: { ...r, body: { ...r.body, bets: [{ sector: 0, box: 'player', amount: 2000 }] } } } });
    },
  },
  {
    name: 'a bet on an old record',
    status: 409,
    code: 'request_mismatch',
    request: async () => rounds({ body: { request: await signedBet(ok, { prev: '00'.repeat(32) }) } }),
  },
  {
    name: 'a bet naming the wrong round',
    status: 409,
    code: 'request_mismatch',
    request: async () => rounds({ body: { request: await signedBet(ok, { round: 7 }) } }),
  },
  // the engine's bet rules
  { name: 'no bets', status: 422, code: 'empty_bet', request: () => bets([]) },
  { name: 'over the table maximum', status: 422, code: 'over_maximum', request: () => bets([{ sector: 0, box: 'player', amount: 10_100 }]) },
  { name: 'less than the smallest step', status: 422, code: 'amount_off_step', request: () => bets([{ sector: 0, box: 'player', amount: 50 }]) },
  {
    name: 'one type over the limit in total',
    status: 422,
    code: 'over_type_limit',
    request: () =>
      bets([
        { sector: 0, box: 'player', amount: 10_000 },
        { sector: 1, box: 'player', amount: 100 },
      ]),
  },
  {
    name: 'a fourth sector',
    status: 422,
    code: 'fourth_sector',
    request: () => bets([0, 1, 2, 3].map((sector) => ({ sector, box: 'banker', amount: 100 }))),
  },
  { name: 'sector 5 (there are 0–4)', status: 422, code: 'unknown_sector', request: () => bets([{ sector: 5, box: 'player', amount: 1000 }]) },
  { name: 'unknown box', status: 422, code: 'unknown_box', request: () => bets([{ sector: 0, box: 'dragon', amount: 1000 }]) },
  { name: 'the same box twice', status: 422, code: 'duplicate_box', request: () => bets([ok[0], ok[0]]) },
  { name: 'amount off the step', status: 422, code: 'amount_off_step', request: () => bets([{ sector: 0, box: 'player', amount: 1050 }]) },
  // two phases
  {
    name: 'a bet while a round waits for its secret',
    status: 409,
    code: 'round_pending',
    request: async () => [
      'POST',
      `/api/sessions/${pend.id}/rounds`,
      { token: pend.token, body: { request: await signRequest(betRequest(pending, 2, ok as never, 'cd'.repeat(32)), await pend.player) } },
    ],
  },
  {
    name: 'ending the shoe while a round waits for its secret',
    status: 409,
    code: 'round_pending',
    request: async () => [
      'POST',
      `/api/sessions/${pend.id}/shoe/end`,
      { token: pend.token, body: { request: await signRequest(endRequest(pending), await pend.player) } },
    ],
  },
  {
    name: 'a secret that does not open the lock',
    status: 422,
    code: 'lock_mismatch',
    request: async () => ['POST', `/api/sessions/${pend.id}/rounds/1/secret`, { token: pend.token, body: await secretOf(pending, 'cd'.repeat(32)) }],
  },
  {
    name: 'a secret naming another acceptance',
    status: 409,
    code: 'request_mismatch',
    request: async () => [
      'POST',
      `/api/sessions/${pend.id}/rounds/1/secret`,
      { token: pend.token, body: await secretOf(pending, 'cd'.repeat(32), { acceptance: '11'.repeat(32) }) },
    ],
  },
  {
    name: 'a secret for a round the path does not name',
    status: 400,
    code: 'bad_request',
    request: async () => ['POST', `/api/sessions/${pend.id}/rounds/2/secret`, { token: pend.token, body: await secretOf(pending, 'cd'.repeat(32)) }],
  },
  {
    name: 'a secret with no round pending',
    status: 409,
    code: 'no_pending_round',
    request: async () => [
      'POST',
      `/api/sessions/${s.id}/rounds/1/secret`,
      { token: s.token, body: await secretOf(pending, 'cd'.repeat(32), { table: s.id }, s) },
    ],
  },
  {
    name: 'a secret for round 0',
    status: 404,
    code: 'not_found',
    request: async () => ['POST', `/api/sessions/${pend.id}/rounds/0/secret`, { token: pend.token, body: await secretOf(pending, 'cd'.repeat(32)) }],
  },
  // who is asking
  { name: 'missing token', status: 401, code: 'unauthorized', request: () => ['POST', `/api/sessions/${s.id}/rounds`, { body: { request: {} } }] },
  { name: 'malformed token', status: 401, code: 'unauthorized', request: () => rounds({ token: 'not-a-token', body: { request: {} } }) },
  {
    name: 'wrong token of the right shape',
    status: 401,
    code: 'unauthorized',
    request: () => rounds({ token: `${s.id}.${'A'.repeat(43)}`, body: { request: {} } }),
  },
  {
    name: 'a forged token naming another session',
    status: 401,
    code: 'unauthorized',
    request: () => rounds({ token: `${other.id}.${'A'.repeat(43)}`, body: { request: {} } }),
  },
  { name: "another session's token", status: 403, code: 'forbidden', request: () => rounds({ token: other.token, body: { request: {} } }) },
  {
    name: 'Basic instead of Bearer',
    status: 401,
    code: 'unauthorized',
    request: () => rounds({ headers: { Authorization: `Basic ${btoa('a:b')}` }, token: undefined, body: { request: {} } }),
  },
  {
    name: 'a session id that does not exist',
    status: 404,
    code: 'not_found',
    request: () => ['POST', `/api/sessions/${'B'.repeat(22)}/rounds`, { token: `${'B'.repeat(22)}.${'A'.repeat(43)}`, body: { request: {} } }],
  },
  {
    name: 'a malformed session id',
    status: 404,
    code: 'not_found',
    request: () => ['POST', '/api/sessions/..%2F/rounds', { token: s.token, body: { request: {} } }],
  },
  // idempotency
  { name: 'missing Idempotency-Key', status: 400, code: 'idempotency_key_required', request: () => rounds({ key: null, body: { request: {} } }) },
  { name: 'Idempotency-Key too long', status: 400, code: 'idempotency_key_required', request: () => rounds({ key: 'k'.repeat(65), body: { request: {} } }) },
  // the shoe
  { name: 'start a shoe already started', status: 409, code: 'shoe_already_started', request: () => start(s, 'x', 10) },
  {
    name: 'a round before the shoe started',
    status: 409,
    code: 'shoe_not_started',
    request: async () => [
      'POST',
      `/api/sessions/${fresh.id}/rounds`,
      {
        token: fresh.token,
        body: { request: await signRequest(betRequest(fresh.created.shoe.commitment, 1, ok as never, 'ab'.repeat(32)), await fresh.player) },
      },
    ],
  },
  { name: 'cut 0', status: 400, code: 'bad_cut', request: () => start(fresh, 'x', 0) },
  { name: 'cut past the stack', status: 400, code: 'bad_cut', request: () => start(fresh, 'x', 312) },
  { name: 'a cut as a string', status: 400, code: 'bad_request', request: () => start(fresh, 'x', '10' as never) },
  { name: 'empty client seed', status: 400, code: 'bad_client_seed', request: () => start(fresh, '', 10) },
  { name: 'client seed too long', status: 400, code: 'bad_client_seed', request: () => start(fresh, 'x'.repeat(129), 10) },
  { name: 'control character in the seed', status: 400, code: 'bad_client_seed', request: () => start(fresh, 'a\nb', 10) },
  { name: 'a client seed not in NFC', status: 400, code: 'bad_client_seed', request: () => start(fresh, 'e\u0301', 10) },
  {
    name: 'the pb-fair-1 start body',
    status: 400,
    code: 'invalid_body',
    request: () => ['POST', `/api/sessions/${fresh.id}/shoe/start`, { token: fresh.token, body: { clientSeed: 'x', cut: 10 } }],
  },
  {
    name: 'an end request on an old record',
    status: 409,
    code: 'request_mismatch',
    request: async () => [
      'POST',
      `/api/sessions/${s.id}/shoe/end`,
      { token: s.token, body: { request: await signRequest(endRequest(s.created.shoe.commitment), await s.player) } },
    ],
  },
  {
    name: 'an end without a request',
    status: 400,
    code: 'invalid_body',
    request: () => ['POST', `/api/sessions/${s.id}/shoe/end`, { token: s.token, body: {} }],
  },
  // creating a session
  { name: 'an unknown room', status: 400, code: 'invalid_body', request: () => ['POST', '/api/sessions', { body: { playerKey: PLAYER_KEY, room: 'hall-3' } }] },
  {
    name: 'an unknown field on create',
    status: 400,
    code: 'invalid_body',
    request: () => ['POST', '/api/sessions', { body: { playerKey: PLAYER_KEY, room: 'vip', balance: 1e12 } }],
  },
  {
    name: 'nine decks',
    status: 400,
    code: 'invalid_body',
    request: () => ['POST', '/api/sessions', { body: { playerKey: PLAYER_KEY, room: 'vip', decks: 9 } }],
  },
  {
    name: 'an affiliate with spaces',
    status: 400,
    code: 'invalid_body',
    request: () => ['POST', '/api/sessions', { body: { playerKey: PLAYER_KEY, room: 'vip', affiliate: 'a b' } }],
  },
  {
    name: 'create without Idempotency-Key',
    status: 400,
    code: 'idempotency_key_required',
    request: () => ['POST', '/api/sessions', { key: null, body: { playerKey: PLAYER_KEY, room: 'vip' } }],
  },
  // reading
  {
    name: 'receipts of a shoe that is not a number',
    status: 400,
    code: 'bad_query',
    request: () => ['GET', `/api/sessions/${s.id}/receipts?shoe=abc`, { token: s.token }],
  },
  {
    name: 'receipts of a shoe that does not exist',
    status: 404,
    code: 'not_found',
    request: () => ['GET', `/api/sessions/${s.id}/receipts?shoe=9`, { token: s.token }],
  },
  { name: 'transcript of shoe 0', status: 404, code: 'not_found', request: () => ['GET', `/api/sessions/${s.id}/shoes/0/transcript`, { token: s.token }] },
  { name: "reading another session's state", status: 403, code: 'forbidden', request: () => ['GET', `/api/sessions/${s.id}`, { token: other.token }] },
  {
    name: "reading another session's transcript",
    status: 403,
    code: 'forbidden',
    request: () => ['GET', `/api/sessions/${s.id}/shoes/1/transcript`, { token: other.token }],
  },
];

describe('bad inputs: the right 4xx, and nothing changes', () => {
  test.each(CASES)('$name → $status $code', async ({ status, code, request }) => {
    const before = await Promise.all([snapshot(s), snapshot(other), snapshot(fresh), snapshot(pend)]);
    const [method, path, opts] = await request();
    const r = await api(method, path, opts);
    expect(r.status).toBe(status);
    expect(r.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(r.body.error.code).toBe(code);
    expect(typeof r.body.error.message).toBe('string');
    expect(r.body.error.message.length).toBeGreaterThan(5);
    expect(await Promise.all([snapshot(s), snapshot(other), snapshot(fresh), snapshot(pend)])).toEqual(before);
  });

  test('a refused round leaves its Idempotency-Key free for the corrected request', async () => {
    const key = crypto.randomUUID();
    const bad = await api('POST', `/api/sessions/${s.id}/rounds`, {
      token: s.token,
      key,
      body: { request: await signedBet([{ sector: 0, box: 'player', amount: 10_100 }]) },
    });
    expect(bad.status, bad.text).toBe(422);
    const good = await api('POST', `/api/sessions/${s.id}/rounds`, { token: s.token, key, body: await betBody(s, ok as never) });
    expect(good.status).toBe(200);
    expect((await reveal(s, good.body.acceptance)).status).toBe(200);
  });

  test('bets the balance cannot cover → 422 insufficient_balance; the balance never goes negative', async () => {
    const poor = await readySession({ room: 'hall-1' });
    const stub = env.TABLES.getByName(poor.id);
    // Spend the play money without playing hundreds of rounds: set the stored balance directly
    // (the session's state is in its newest record's row).
    const newest = 'WHERE seq = (SELECT MAX(seq) FROM records)';
    await runInDurableObject(stub, (_table, state) => {
      state.storage.sql.exec(`UPDATE records SET balance = 500 ${newest}`);
    });
    const before = await snapshot(poor);
    const r = await api('POST', `/api/sessions/${poor.id}/rounds`, {
      token: poor.token,
      body: await betBody(poor, [{ sector: 0, box: 'player', amount: 1000 }]),
    });
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('insufficient_balance');
    expect(await snapshot(poor)).toBe(before);
    const all = await api('POST', `/api/sessions/${poor.id}/rounds`, {
      token: poor.token,
      body: await betBody(poor, [{ sector: 0, box: 'player', amount: 500 }]),
    });
    expect(all.status).toBe(200);
    // Phase 1 debits the whole balance; it never goes below zero.
    expect(all.body.balance).toBe(0);
    expect((await reveal(poor, all.body.acceptance)).body.balance).toBeGreaterThanOrEqual(0);
    // The schema itself refuses a negative balance, so even a bug could not store one.
    await runInDurableObject(stub, (_table, state) => {
      expect(() => state.storage.sql.exec(`UPDATE records SET balance = -1 ${newest}`)).toThrow(/CHECK constraint/);
    });
  });
});
