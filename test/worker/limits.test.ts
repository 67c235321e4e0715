/** Rate limits (per session, per address, session creation), keys from secrets, and the last-resort 500. */
import { createExecutionContext, runInDurableObject, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, test } from 'vitest';
import { generateSigningKey } from '../../shared/index.ts';
import type { Client } from '../../worker/session/client.ts';
import type { Env } from '../../worker/config/env.ts';
import worker from '../../worker/index.ts';
import type { Table } from '../../worker/session/table.ts';
import { api, BASE, betBody, createSession, endBody, PLAYER_KEY, startBody, startShoe, state } from './helpers.ts';

/** Calls the fetch handler directly with some vars changed. */
async function fetchWith(vars: Partial<Env>, path: string, init: RequestInit = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(`${BASE}${path}`, init), { ...env, ...vars }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

describe('rate limits', () => {
  test('per table session: 429 with Retry-After once the bucket is empty; other sessions unaffected', async () => {
    const s = await createSession();
    const other = await createSession();
    await runInDurableObject(env.TABLES.getByName(s.id), (table: Table) => table.bucket.drain(Date.now(), 60));
    const r = await api('GET', `/api/sessions/${s.id}`, { token: s.token });
    expect(r.status).toBe(429);
    expect(r.body.error.code).toBe('rate_limited');
    expect(Number(r.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
    expect((await api('GET', `/api/sessions/${other.id}`, { token: other.token })).status).toBe(200);
  });

  test('per client address: 429 past the burst, other addresses unaffected', async () => {
    const vars = { RATE_IP_BURST: '3', RATE_IP_PER_SEC: '0.01' };
    const ip = `192.0.2.${1 + (crypto.getRandomValues(new Uint8Array(1))[0]! % 250)}`;
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await fetchWith(vars, '/api/sessions/nothing', { headers: { 'CF-Connecting-IP': ip } })).status);
    expect(statuses).toEqual([404, 404, 404, 429, 429]);
    const limited = await fetchWith(vars, '/api/sessions/nothing', { headers: { 'CF-Connecting-IP': ip } });
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(1);
    expect(((await limited.json()) as any).error.code).toBe('rate_limited');
    expect((await fetchWith(vars, '/api/sessions/nothing', { headers: { 'CF-Connecting-IP': '198.51.100.7' } })).status).toBe(404);
  });

  test('session creation per address: 429 once the bucket is empty, nothing created', async () => {
    const headers = { 'CF-Connecting-IP': '203.0.113.9' };
    expect((await api('POST', '/api/sessions', { body: { playerKey: PLAYER_KEY, room: 'hall-1' }, headers })).status).toBe(201);
    await runInDurableObject(env.CLIENTS.getByName('ip:203.0.113.9'), (client: Client) => client.bucket.drain(Date.now(), 60));
    const r = await api('POST', '/api/sessions', { body: { playerKey: PLAYER_KEY, room: 'hall-1' }, headers });
    expect(r.status).toBe(429);
    expect(r.body.error.code).toBe('rate_limited');
    expect(r.headers.get('Retry-After')).not.toBeNull();
    // Another address still creates.
    await createSession();
  });
});

describe('keys', () => {
  test('SIGNING_KEY and RETIRED_PUBLIC_KEYS make the JWKS: current first, retired after, never a private member', async () => {
    const current = await generateSigningKey('key-2026');
    const retired = await generateSigningKey('key-2025');
    const res = await fetchWith(
      {
        SIGNING_KEY: JSON.stringify(current.privateJwk),
        // A private JWK pasted by mistake is dropped, not published.
        RETIRED_PUBLIC_KEYS: JSON.stringify({ keys: [retired.key.publicJwk, { ...retired.privateJwk, kid: 'oops' }] }),
      },
      '/.well-known/jwks.json',
    );
    expect(res.status).toBe(200);
    const jwks = await res.json<{ keys: any[] }>();
    expect(jwks.keys.map((k) => k.kid)).toEqual(['key-2026', 'key-2025']);
    for (const k of jwks.keys) expect(k.d).toBeUndefined();
  });

  test('a malformed SIGNING_KEY is a configuration fault: 503 misconfigured naming the setting, nothing leaks', async () => {
    const res = await fetchWith({ SIGNING_KEY: '{"kty":"OKP","crv":"Ed25519","d":"secret-value"' }, '/.well-known/jwks.json');
    expect(res.status).toBe(503);
    const body = await res.text();
    expect(JSON.parse(body).error).toMatchObject({ code: 'misconfigured', setting: 'SIGNING_KEY' });
    expect(body).not.toContain('secret-value');
  });
});

describe('idempotency details', () => {
  test('the same body formatted differently is the same request', async () => {
    const s = await createSession();
    await startShoe(s, 'x', 9);
    const key = crypto.randomUUID();
    const { request } = await betBody(s, [{ sector: 0, box: 'tie', amount: 100 }]);
    const a = await api('POST', `/api/sessions/${s.id}/rounds`, { token: s.token, key, raw: JSON.stringify({ request }) });
    // The same request, its members in another order and spaced out.
    const reordered = { signature: request.signature, body: Object.fromEntries(Object.entries(request.body).reverse()) };
    const b = await api('POST', `/api/sessions/${s.id}/rounds`, { token: s.token, key, raw: ` ${JSON.stringify({ request: reordered }, null, 2)}\n` });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.text).toBe(a.text);
    expect((await state(s)).shoe.rounds).toBe(1);
  });

  test('a key is per operation: reused on another endpoint it is a conflict', async () => {
    const s = await createSession();
    const key = crypto.randomUUID();
    expect((await api('POST', `/api/sessions/${s.id}/shoe/start`, { token: s.token, key, body: await startBody(s, 'x', 9) })).status).toBe(200);
    const r = await api('POST', `/api/sessions/${s.id}/shoe/end`, { token: s.token, key, body: await endBody(s) });
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe('idempotency_conflict');
  });
});
