/** The whole API, happy paths first (API.md), inside workerd. */
import { evictDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, test } from 'vitest';
import { type Jwks, ROOMS, verifyText } from '../../shared/index.ts';
import { api, bet, createSession, endShoe, play, PLAYER_KEY, readySession, reveal, startShoe, state, tableFile } from './helpers.ts';

async function keys(): Promise<Jwks> {
  const r = await api('GET', '/.well-known/jwks.json');
  return r.body as Jwks;
}

describe('create a session', () => {
  test('returns id, token, play-money balance, limits and the signed commitment of shoe 1', async () => {
    const r = await api('POST', '/api/sessions', { body: { playerKey: PLAYER_KEY, room: 'hall-2', affiliate: 'aff-42' } });
    expect(r.status).toBe(201);
    const b = r.body;
    expect(b.sessionId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(b.token).toMatch(new RegExp(`^${b.sessionId}\\.[A-Za-z0-9_-]{43}$`));
    expect(b.room).toBe('hall-2');
    expect(b.affiliate).toBe('aff-42');
    expect(b.balance).toBe(10_000_000);
    expect(b.limits).toEqual(ROOMS['hall-2'].limits);
    expect(b.shoe).toMatchObject({ number: 1, status: 'awaiting-start', rounds: 0, cutRange: { min: 1, max: 311 } });
    expect(b.protocol).toBe('pb-fair-2');
    expect(b.playerKey).toBe(PLAYER_KEY);
    expect(b.pending).toBeNull();
    expect(b.head).toEqual(b.shoe.commitment);
    expect(b.shoe.commitment.body).toMatchObject({
      type: 'commitment',
      table: b.sessionId,
      shoe: 1,
      prev: null,
      limits: ROOMS['hall-2'].limits,
      playerKey: PLAYER_KEY,
      openingBalance: 10_000_000,
    });
    expect(b.shoe.commitment.body.serverSeedHash).toMatch(/^[0-9a-f]{64}$/);
    expect(b.shoe.commitment.body.keyId).toBe(((await keys()).keys[0] as { kid?: string }).kid);
    expect(r.headers.get('Cache-Control')).toBe('no-store');
    // Every room gives room for dozens of maximum bets.
    for (const room of ['hall-1', 'hall-2', 'vip'] as const) {
      const s = await createSession({ room });
      expect(s.created.balance / ROOMS[room].limits.max).toBeGreaterThanOrEqual(50);
    }
  });

  test('options: 1 to 8 decks, shoe or reshuffle mode', async () => {
    const s = await createSession({ room: 'vip', decks: 8, mode: 'shoe' });
    expect(s.created.shoe.params).toMatchObject({ decks: 8, mode: 'shoe', algorithm: 'pb-fair-2', voidAfterSeconds: 600 });
    expect(s.created.shoe.cutRange).toEqual({ min: 1, max: 415 });
  });

  test('a player key is required, and must be an Ed25519 public key', async () => {
    const none = await api('POST', '/api/sessions', { body: { room: 'hall-1' } });
    expect(none.status).toBe(400);
    expect(none.body.error).toMatchObject({ code: 'invalid_body', message: 'playerKey is required' });
    for (const bad of ['', 'x'.repeat(43), `${PLAYER_KEY}A`, PLAYER_KEY.slice(0, 42) + 'x']) {
      const r = await api('POST', '/api/sessions', { body: { room: 'hall-1', playerKey: bad } });
      expect(r.status, bad).toBe(400);
      expect(r.body.error.code).toBe('invalid_body');
    }
  });

  test('same Idempotency-Key and body: the first answer again, the same session and the same token', async () => {
    const key = crypto.randomUUID();
    const a = await api('POST', '/api/sessions', { key, body: { playerKey: PLAYER_KEY, room: 'hall-1' } });
    const b = await api('POST', '/api/sessions', { key, body: { playerKey: PLAYER_KEY, room: 'hall-1' } });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.headers.get('Idempotent-Replayed')).toBe('true');
    expect(b.body.sessionId).toBe(a.body.sessionId);
    expect(b.body.shoe.commitment).toEqual(a.body.shoe.commitment);
    expect(b.body).toEqual(a.body);
    expect((await api('GET', `/api/sessions/${a.body.sessionId}`, { token: b.body.token })).status).toBe(200);
    const c = await api('POST', '/api/sessions', { key, body: { playerKey: PLAYER_KEY, room: 'vip' } });
    expect(c.status).toBe(409);
    expect(c.body.error.code).toBe('idempotency_conflict');
  });
});

describe('a shoe from start to reveal', () => {
  test('start, two-phase rounds, receipts, state, end by the player, transcripts, verify', async () => {
    const s = await createSession({ room: 'hall-1' });
    const committed = s.created.shoe.commitment;

    const started = await startShoe(s, 'my seed ✓', 77);
    expect(started.body.shoe.status).toBe('in-play');
    expect(started.body.shoe.start.body).toMatchObject({ type: 'start', prev: committed.hash, shoe: 1 });
    expect(started.body.shoe.start.body.request.body).toMatchObject({ type: 'start', clientSeed: 'my seed ✓', cut: 77, commitment: committed.hash });

    let balance = s.created.balance;
    let prev = started.body.shoe.start.hash;
    for (let i = 1; i <= 5; i++) {
      const accepted = await bet(s, [
        { sector: 0, box: 'banker', amount: 1000 },
        { sector: 2, box: 'tie', amount: 100 },
      ]);
      expect(accepted.status).toBe(200);
      expect(accepted.body.acceptance.body).toMatchObject({ type: 'acceptance', round: i, shoe: 1, table: s.id, balanceBefore: balance, prev });
      expect(accepted.body.balance).toBe(balance - 1100);
      expect(accepted.body.shoe).toEqual({ number: 1, status: 'in-play', rounds: i });
      expect(Date.parse(accepted.body.voidAt) - Date.parse(accepted.body.acceptance.body.issuedAt)).toBe(600_000);
      const r = await reveal(s, accepted.body.acceptance);
      expect(r.status).toBe(200);
      const receipt = r.body.receipt;
      expect(receipt.body).toMatchObject({
        type: 'receipt',
        round: i,
        shoe: 1,
        table: s.id,
        balanceBefore: balance,
        prev: accepted.body.acceptance.hash,
        staked: 1100,
      });
      expect(receipt.body.cards.length).toBeGreaterThanOrEqual(4);
      expect(r.body.balance).toBe(receipt.body.balanceAfter);
      expect(r.body.shoe).toEqual({ number: 1, status: 'in-play', rounds: i });
      balance = r.body.balance;
      prev = receipt.hash;
    }

    const st = await state(s);
    expect(st).toMatchObject({ protocol: 'pb-fair-2', balance, playerKey: s.created.playerKey, pending: null });
    expect(st.shoe.rounds).toBe(5);
    expect(st.lastReceipt.hash).toBe(prev);
    expect(st.head.hash).toBe(prev);

    const receipts = await api('GET', `/api/sessions/${s.id}/receipts`, { token: s.token });
    expect(receipts.status).toBe(200);
    expect(receipts.body.shoe).toBe(1);
    expect(receipts.body.receipts.map((x: any) => x.body.round)).toEqual([1, 2, 3, 4, 5]);

    const pending = await api('GET', `/api/sessions/${s.id}/shoes/1/transcript`, { token: s.token });
    expect(pending.status).toBe(200);
    expect(pending.body.records.map((x: any) => x.body.type).at(-1)).toBe('receipt');
    expect(await verifyText(pending.text, await keys())).toMatchObject({ ok: true, pending: true });

    const ended = await endShoe(s);
    expect(ended.status).toBe(200);
    expect(ended.body.reveal.body).toMatchObject({ type: 'reveal', shoe: 1, rounds: 5, reason: 'player', prev, closingBalance: balance });
    expect(ended.body.shoe).toEqual({ number: 1, status: 'ended', rounds: 5 });
    expect(ended.body.balance).toBe(balance);
    expect(ended.body.nextShoe).toMatchObject({ number: 2, status: 'awaiting-start', rounds: 0 });
    expect(ended.body.nextShoe.commitment.body).toMatchObject({ prev: ended.body.reveal.hash, openingBalance: balance });

    const t1 = await api('GET', `/api/sessions/${s.id}/shoes/1/transcript`, { token: s.token });
    expect(t1.body.records.at(-1).hash).toBe(ended.body.reveal.hash);
    const report = await verifyText(t1.text, await keys());
    expect(report.failure).toBeUndefined();
    expect(report).toMatchObject({ ok: true, pending: false });
    expect(report.rounds.every((r) => r.status === 'verified')).toBe(true);

    // The next shoe: start it, play, and the two shoes chain in the table's one file.
    await startShoe(s, 'second', 200);
    expect((await play(s, [{ sector: 4, box: 'player', amount: 10_000 }])).status).toBe(200);
    expect((await endShoe(s)).status).toBe(200);
    const whole = await verifyText(await tableFile(s), await keys(), { playerKey: s.created.playerKey });
    expect(whole.failure).toBeUndefined();
    expect(whole.rounds).toHaveLength(6);
    const old = await api('GET', `/api/sessions/${s.id}/receipts?shoe=1`, { token: s.token });
    expect(old.body.receipts).toHaveLength(5);
  });

  test('ending a shoe that never started reveals it with no rounds', async () => {
    const s = await createSession();
    const ended = await endShoe(s);
    expect(ended.status).toBe(200);
    expect(ended.body.reveal.body).toMatchObject({ rounds: 0, reason: 'player', prev: s.created.shoe.commitment.hash });
    const t = await api('GET', `/api/sessions/${s.id}/shoes/1/transcript`, { token: s.token });
    expect((await verifyText(t.text, await keys())).ok).toBe(true);
  });

  test('reshuffle mode: every round from its own stack, verified after the reveal', async () => {
    const s = await readySession({ room: 'hall-1', mode: 'reshuffle', decks: 1 });
    expect(s.created.shoe.params).toEqual({ algorithm: 'pb-fair-2', mode: 'reshuffle', decks: 1, roundLimit: 100, voidAfterSeconds: 600 });
    for (let i = 0; i < 4; i++) expect((await play(s, [{ sector: 0, box: 'banker', amount: 100 }])).status).toBe(200);
    await endShoe(s);
    const t = await api('GET', `/api/sessions/${s.id}/shoes/1/transcript`, { token: s.token });
    const report = await verifyText(t.text, await keys());
    expect(report.failure).toBeUndefined();
    expect(report.rounds).toHaveLength(4);
  });
});

describe('durability', () => {
  test('a table evicted from memory carries on from storage, between rounds and between phases: same stack, same chain, verifiable', async () => {
    const s = await readySession({ room: 'hall-1' });
    for (let i = 0; i < 3; i++) expect((await play(s, [{ sector: 0, box: 'player', amount: 100 }])).status).toBe(200);
    await evictDurableObject(env.TABLES.getByName(s.id));
    for (let i = 0; i < 2; i++) expect((await play(s, [{ sector: 0, box: 'player', amount: 100 }])).status).toBe(200);
    // A reload between the phases: the round finishes from the stored acceptance and the player's secret.
    const accepted = await bet(s, [{ sector: 0, box: 'player', amount: 100 }]);
    await evictDurableObject(env.TABLES.getByName(s.id));
    expect((await state(s)).pending.acceptance.hash).toBe(accepted.body.acceptance.hash);
    expect((await reveal(s, accepted.body.acceptance)).status).toBe(200);
    await endShoe(s);
    const t = await api('GET', `/api/sessions/${s.id}/shoes/1/transcript`, { token: s.token });
    const report = await verifyText(t.text, await keys());
    expect(report.failure).toBeUndefined();
    expect(report.rounds.map((r) => r.status)).toEqual(Array(6).fill('verified'));
  });
});

describe('JWKS', () => {
  test('public keys only, cacheable, any origin', async () => {
    const r = await api('GET', '/.well-known/jwks.json', { headers: { Origin: 'https://anywhere.example' } });
    expect(r.status).toBe(200);
    expect(r.body.keys.length).toBeGreaterThanOrEqual(1);
    for (const k of r.body.keys) {
      expect(k).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA' });
      expect(k.d).toBeUndefined();
    }
    expect(r.headers.get('Access-Control-Allow-Origin')).toBe('*');
  });
});

describe('CORS', () => {
  test('localhost is allowed in dev; preflight lists the headers', async () => {
    const pre = await api('OPTIONS', '/api/sessions', {
      key: null,
      headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type, idempotency-key' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('Access-Control-Allow-Origin')).toBe('http://localhost:5173');
    expect(pre.headers.get('Access-Control-Allow-Headers')).toContain('Idempotency-Key');
    expect(pre.headers.get('Access-Control-Allow-Methods')).toContain('POST');
    const r = await api('POST', '/api/sessions', { body: { playerKey: PLAYER_KEY, room: 'hall-1' }, headers: { Origin: 'http://127.0.0.1:8787' } });
    expect(r.status).toBe(201);
    expect(r.headers.get('Access-Control-Allow-Origin')).toBe('http://127.0.0.1:8787');
    expect(r.headers.get('Access-Control-Expose-Headers')).toContain('Retry-After');
  });

  test('another origin is refused before anything happens', async () => {
    const pre = await api('OPTIONS', '/api/sessions', { key: null, headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' } });
    expect(pre.status).toBe(403);
    expect(pre.headers.get('Access-Control-Allow-Origin')).toBeNull();
    const r = await api('POST', '/api/sessions', { body: { playerKey: PLAYER_KEY, room: 'hall-1' }, headers: { Origin: 'https://evil.example' } });
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('origin_not_allowed');
  });
});

describe('routing', () => {
  test('unknown paths are 404, wrong methods 405, both as JSON errors', async () => {
    const a = await api('GET', '/api/nothing');
    expect(a.status).toBe(404);
    expect(a.body.error.code).toBe('not_found');
    const b = await api('GET', '/api/sessions');
    expect(b.status).toBe(405);
    expect(b.body.error.code).toBe('method_not_allowed');
    expect(b.headers.get('Allow')).toBe('POST');
    const c = await api('DELETE', '/api/sessions/AAAAAAAAAAAAAAAAAAAAAA');
    expect(c.status).toBe(405);
  });
});
