/** Every bad input gets the right 4xx JSON error and changes nothing. */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, test } from 'vitest';
import { api, type CallOptions, createSession, readySession, type Session, snapshot, PLAYER_KEY } from './helpers.ts';

let s: Session;
let other: Session;
let fresh: Session;

beforeAll(async () => {
  s = await readySession({ room: 'hall-1' });
  other = await readySession({ room: 'hall-1' });
  fresh = await createSession({ room: 'hall-1' });
});

const ok = [{ sector: 0, box: 'player', amount: 1000 }];

interface Case {
  name: string;
  status: number;
  code: string;
  request: () => [method: string, path: string, opts: CallOptions];
}

const rounds = (opts: CallOptions): [string, string, CallOptions] => ['POST', `/api/sessions/${s.id}/rounds`, { token: s.token, ...opts }];
const bets = (b: unknown[]) => rounds({ body: { bets: b } });

const CASES: Case[] = [
  // the body itself
  { name: 'malformed JSON', status: 400, code: 'bad_json', request: () => rounds({ raw: '{"bets": [', headers: { 'Content-Type': 'application/json' } }) },
  { name: 'empty body', status: 400, code: 'bad_json', request: () => rounds({ raw: '' }) },
  { name: 'not UTF-8', status: 400, code: 'bad_json', request: () => rounds({ raw: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]) }) },
  { name: 'JSON that is not an object', status: 400, code: 'invalid_body', request: () => rounds({ body: [ok] }) },
  { name: 'unknown top-level field', status: 400, code: 'invalid_body', request: () => rounds({ body: { bets: ok, double: true } }) },
  { name: 'unknown field in a bet', status: 400, code: 'invalid_body', request: () => bets([{ sector: 0, box: 'player', amount: 1000, odds: 2 }]) },
  { name: 'missing bets', status: 400, code: 'invalid_body', request: () => rounds({ body: {} }) },
  { name: 'amount as a string', status: 400, code: 'invalid_body', request: () => bets([{ sector: 0, box: 'player', amount: '1000' }]) },
  { name: 'sector as a string', status: 400, code: 'invalid_body', request: () => bets([{ sector: '0', box: 'player', amount: 1000 }]) },
  { name: 'more than fifteen bets', status: 400, code: 'invalid_body', request: () => bets(Array.from({ length: 16 }, () => ok[0])) },
  { name: 'body over the size limit', status: 413, code: 'body_too_large', request: () => rounds({ raw: JSON.stringify({ bets: ok, pad: 'x'.repeat(5000) }) }) },
  // the engine's bet rules
  { name: 'no bets', status: 422, code: 'empty_bet', request: () => bets([]) },
  { name: 'over the table maximum', status: 422, code: 'over_maximum', request: () => bets([{ sector: 0, box: 'player', amount: 10_100 }]) },
  { name: 'less than the smallest step', status: 422, code: 'amount_off_step', request: () => bets([{ sector: 0, box: 'player', amount: 50 }]) },
  {
    name: 'one type over the limit in total',
    status: 422,
    code: 'over_type_limit',
    request: () => bets([{ sector: 0, box: 'player', amount: 10_000 }, { sector: 1, box: 'player', amount: 100 }]),
  },
  {
    name: 'a fourth sector',
    status: 422,
    code: 'fourth_sector',
    request: () => bets([0, 1, 2, 3].map((sector) => ({ sector, box: 'banker', amount: 100 }))),
  },
  { name: 'sector 5 (there are 0–4)', status: 422, code: 'unknown_sector', request: () => bets([{ sector: 5, box: 'player', amount: 1000 }]) },
  { name: 'negative sector', status: 422, code: 'unknown_sector', request: () => bets([{ sector: -1, box: 'player', amount: 1000 }]) },
  { name: 'fractional sector', status: 422, code: 'unknown_sector', request: () => bets([{ sector: 0.5, box: 'player', amount: 1000 }]) },
  { name: 'unknown box', status: 422, code: 'unknown_box', request: () => bets([{ sector: 0, box: 'dragon', amount: 1000 }]) },
  { name: 'the same box twice', status: 422, code: 'duplicate_box', request: () => bets([ok[0], ok[0]]) },
  { name: 'fractional amount', status: 422, code: 'amount_not_integer', request: () => bets([{ sector: 0, box: 'player', amount: 1000.5 }]) },
  { name: 'negative amount', status: 422, code: 'amount_not_positive', request: () => bets([{ sector: 0, box: 'player', amount: -1000 }]) },
  { name: 'zero amount', status: 422, code: 'amount_not_positive', request: () => bets([{ sector: 0, box: 'player', amount: 0 }]) },
  { name: 'huge amount', status: 422, code: 'amount_not_integer', request: () => bets([{ sector: 0, box: 'player', amount: 1e300 }]) },
  { name: 'huge safe integer', status: 422, code: 'over_maximum', request: () => bets([{ sector: 0, box: 'player', amount: 9_007_199_254_740_900 }]) },
  { name: 'amount off the step', status: 422, code: 'amount_off_step', request: () => bets([{ sector: 0, box: 'player', amount: 1050 }]) },
  // who is asking
  { name: 'missing token', status: 401, code: 'unauthorized', request: () => ['POST', `/api/sessions/${s.id}/rounds`, { body: { bets: ok } }] },
  { name: 'malformed token', status: 401, code: 'unauthorized', request: () => rounds({ token: 'not-a-token', body: { bets: ok } }) },
  {
    name: 'wrong token of the right shape',
    status: 401,
    code: 'unauthorized',
    request: () => rounds({ token: `${s.id}.${'A'.repeat(43)}`, body: { bets: ok } }),
  },
  {
    name: "a forged token naming another session",
    status: 401,
    code: 'unauthorized',
    request: () => rounds({ token: `${other.id}.${'A'.repeat(43)}`, body: { bets: ok } }),
  },
  { name: "another session's token", status: 403, code: 'forbidden', request: () => rounds({ token: other.token, body: { bets: ok } }) },
  { name: 'Basic instead of Bearer', status: 401, code: 'unauthorized', request: () => rounds({ headers: { Authorization: `Basic ${btoa('a:b')}` }, token: undefined, body: { bets: ok } }) },
  { name: 'a session id that does not exist', status: 404, code: 'not_found', request: () => ['POST', `/api/sessions/${'B'.repeat(22)}/rounds`, { token: `${'B'.repeat(22)}.${'A'.repeat(43)}`, body: { bets: ok } }] },
  { name: 'a malformed session id', status: 404, code: 'not_found', request: () => ['POST', '/api/sessions/..%2F/rounds', { token: s.token, body: { bets: ok } }] },
  // idempotency
  { name: 'missing Idempotency-Key', status: 400, code: 'idempotency_key_required', request: () => rounds({ key: null, body: { bets: ok } }) },
  { name: 'Idempotency-Key too long', status: 400, code: 'idempotency_key_required', request: () => rounds({ key: 'k'.repeat(65), body: { bets: ok } }) },
  // the shoe
  { name: 'start a shoe already started', status: 409, code: 'shoe_already_started', request: () => ['POST', `/api/sessions/${s.id}/shoe/start`, { token: s.token, body: { clientSeed: 'x', cut: 10 } }] },
  { name: 'a round before the shoe started', status: 409, code: 'shoe_not_started', request: () => ['POST', `/api/sessions/${fresh.id}/rounds`, { token: fresh.token, body: { bets: ok } }] },
  { name: 'cut 0', status: 400, code: 'bad_cut', request: () => ['POST', `/api/sessions/${fresh.id}/shoe/start`, { token: fresh.token, body: { clientSeed: 'x', cut: 0 } }] },
  { name: 'cut past the stack', status: 400, code: 'bad_cut', request: () => ['POST', `/api/sessions/${fresh.id}/shoe/start`, { token: fresh.token, body: { clientSeed: 'x', cut: 312 } }] },
  { name: 'fractional cut', status: 400, code: 'bad_cut', request: () => ['POST', `/api/sessions/${fresh.id}/shoe/start`, { token: fresh.token, body: { clientSeed: 'x', cut: 10.5 } }] },
  { name: 'empty client seed', status: 400, code: 'bad_client_seed', request: () => ['POST', `/api/sessions/${fresh.id}/shoe/start`, { token: fresh.token, body: { clientSeed: '', cut: 10 } }] },
  { name: 'client seed too long', status: 400, code: 'bad_client_seed', request: () => ['POST', `/api/sessions/${fresh.id}/shoe/start`, { token: fresh.token, body: { clientSeed: 'x'.repeat(129), cut: 10 } }] },
  { name: 'control character in the seed', status: 400, code: 'bad_client_seed', request: () => ['POST', `/api/sessions/${fresh.id}/shoe/start`, { token: fresh.token, body: { clientSeed: 'a\nb', cut: 10 } }] },
  { name: 'unknown field on start', status: 400, code: 'invalid_body', request: () => ['POST', `/api/sessions/${fresh.id}/shoe/start`, { token: fresh.token, body: { clientSeed: 'x', cut: 10, serverSeed: 'mine' } }] },
  { name: 'a body on end that is not empty', status: 400, code: 'invalid_body', request: () => ['POST', `/api/sessions/${s.id}/shoe/end`, { token: s.token, body: { reason: 'bored' } }] },
  // creating a session
  { name: 'an unknown room', status: 400, code: 'invalid_body', request: () => ['POST', '/api/sessions', { body: { playerKey: PLAYER_KEY, room: 'hall-3' } }] },
  { name: 'an unknown field on create', status: 400, code: 'invalid_body', request: () => ['POST', '/api/sessions', { body: { playerKey: PLAYER_KEY, room: 'vip', balance: 1e12 } }] },
  { name: 'nine decks', status: 400, code: 'invalid_body', request: () => ['POST', '/api/sessions', { body: { playerKey: PLAYER_KEY, room: 'vip', decks: 9 } }] },
  { name: 'an affiliate with spaces', status: 400, code: 'invalid_body', request: () => ['POST', '/api/sessions', { body: { playerKey: PLAYER_KEY, room: 'vip', affiliate: 'a b' } }] },
  { name: 'create without Idempotency-Key', status: 400, code: 'idempotency_key_required', request: () => ['POST', '/api/sessions', { key: null, body: { playerKey: PLAYER_KEY, room: 'vip' } }] },
  // reading
  { name: 'receipts of a shoe that is not a number', status: 400, code: 'bad_query', request: () => ['GET', `/api/sessions/${s.id}/receipts?shoe=abc`, { token: s.token }] },
  { name: 'receipts of a shoe that does not exist', status: 404, code: 'not_found', request: () => ['GET', `/api/sessions/${s.id}/receipts?shoe=9`, { token: s.token }] },
  { name: 'transcript of shoe 0', status: 404, code: 'not_found', request: () => ['GET', `/api/sessions/${s.id}/shoes/0/transcript`, { token: s.token }] },
  { name: "reading another session's state", status: 403, code: 'forbidden', request: () => ['GET', `/api/sessions/${s.id}`, { token: other.token }] },
  { name: "reading another session's transcript", status: 403, code: 'forbidden', request: () => ['GET', `/api/sessions/${s.id}/shoes/1/transcript`, { token: other.token }] },
];

describe('bad inputs: the right 4xx, and nothing changes', () => {
  test.each(CASES)('$name → $status $code', async ({ status, code, request }) => {
    const before = await Promise.all([snapshot(s), snapshot(other), snapshot(fresh)]);
    const [method, path, opts] = request();
    const r = await api(method, path, opts);
    expect(r.status).toBe(status);
    expect(r.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(r.body.error.code).toBe(code);
    expect(typeof r.body.error.message).toBe('string');
    expect(r.body.error.message.length).toBeGreaterThan(5);
    expect(await Promise.all([snapshot(s), snapshot(other), snapshot(fresh)])).toEqual(before);
  });

  test('a refused round leaves its Idempotency-Key free for the corrected request', async () => {
    const key = crypto.randomUUID();
    const bad = await api('POST', `/api/sessions/${s.id}/rounds`, { token: s.token, key, body: { bets: [{ sector: 0, box: 'player', amount: 10_100 }] } });
    expect(bad.status).toBe(422);
    const good = await api('POST', `/api/sessions/${s.id}/rounds`, { token: s.token, key, body: { bets: ok } });
    expect(good.status).toBe(200);
  });

  test('bets the balance cannot cover → 422 insufficient_balance; the balance never goes negative', async () => {
    const poor = await readySession({ room: 'hall-1' });
    const stub = env.TABLES.getByName(poor.id);
    // Spend the play money without playing hundreds of rounds: set the stored balance directly.
    await runInDurableObject(stub, (_table, state) => {
      state.storage.sql.exec('UPDATE session SET balance = 500');
    });
    const before = await snapshot(poor);
    const r = await api('POST', `/api/sessions/${poor.id}/rounds`, { token: poor.token, body: { bets: [{ sector: 0, box: 'player', amount: 1000 }] } });
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('insufficient_balance');
    expect(await snapshot(poor)).toBe(before);
    const all = await api('POST', `/api/sessions/${poor.id}/rounds`, { token: poor.token, body: { bets: [{ sector: 0, box: 'player', amount: 500 }] } });
    expect(all.status).toBe(200);
    expect(all.body.balance).toBeGreaterThanOrEqual(0);
    // The schema itself refuses a negative balance, so even a bug could not store one.
    await runInDurableObject(stub, (_table, state) => {
      expect(() => state.storage.sql.exec('UPDATE session SET balance = -1')).toThrow(/CHECK constraint/);
    });
  });
});
