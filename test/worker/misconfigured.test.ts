/**
 * A deploy that fails closed says why: a missing or malformed setting is answered 503
 * `misconfigured` naming it, on the routes it concerns (worker/config/deploy-check.ts), instead of a
 * generic 500 on every route or a development default live on a public host.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, test } from 'vitest';
import { generateSigningKey, playerKeyOf } from '../../shared/index.ts';
import { isPublicHost } from '../../worker/config/deploy-check.ts';
import type { Env } from '../../worker/config/env.ts';
import worker from '../../worker/index.ts';
import { BASE, CLIENT_IP } from './helpers.ts';

/** A production signing key, as worker/scripts/keygen.ts makes one. */
async function productionKey(): Promise<string> {
  return JSON.stringify((await generateSigningKey('pb-misconfigured-test')).privateJwk);
}

interface Reply {
  status: number;
  body: { error?: { code: string; message: string; setting?: string } } & Record<string, unknown>;
  headers: Headers;
}

/** One request through the Worker's fetch handler with these settings on top of the test vars. */
async function call(vars: Partial<Env>, method: string, url: string, init: RequestInit = {}): Promise<Reply> {
  const headers = new Headers(init.headers);
  headers.set('CF-Connecting-IP', CLIENT_IP);
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(url, { ...init, method, headers }), { ...env, ...vars }, ctx);
  await waitOnExecutionContext(ctx);
  const text = await res.text();
  return { status: res.status, body: text === '' ? {} : (JSON.parse(text) as Reply['body']), headers: res.headers };
}

const newSession = async (vars: Partial<Env>, base = BASE) =>
  call(vars, 'POST', `${base}/api/sessions`, {
    headers: { 'content-type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
    body: JSON.stringify({ room: 'hall-1', playerKey: playerKeyOf((await generateSigningKey()).key) }),
  });

function expectMisconfigured(r: Reply, setting: string): void {
  expect(r.status, JSON.stringify(r.body)).toBe(503);
  expect(r.body.error?.code).toBe('misconfigured');
  expect(r.body.error?.setting).toBe(setting);
  expect(r.body.error?.message).toContain(setting);
}

describe('SIGNING_KEY set, no beacon', () => {
  test('the shared-table routes answer 503 misconfigured naming BEACON_URL; private tables and the JWKS keep working', async () => {
    const vars = { SIGNING_KEY: await productionKey(), BEACON_URL: '', BEACON_SECRET_KEY: undefined };
    expectMisconfigured(await call(vars, 'GET', `${BASE}/api/tables/hall-1/a`), 'BEACON_URL');
    expectMisconfigured(await call(vars, 'GET', `${BASE}/api/tables/hall-1/a/transcript`), 'BEACON_URL');
    expectMisconfigured(await call(vars, 'GET', `${BASE}/api/tables/hall-1/a/ws`, { headers: { Upgrade: 'websocket' } }), 'BEACON_URL');
    const session = await newSession(vars);
    expect(session.status, JSON.stringify(session.body)).toBe(201);
    const jwks = await call(vars, 'GET', `${BASE}/.well-known/jwks.json`);
    expect(jwks.status).toBe(200);
    expect((jwks.body.keys as { kid: string }[]).map((k) => k.kid)).toContain('pb-misconfigured-test');
  });

  test('a malformed BEACON_URL, BEACON_CHAIN or BEACON_SECRET_KEY is named', async () => {
    const key = await productionKey();
    expectMisconfigured(await call({ SIGNING_KEY: key, BEACON_URL: 'ftp://relay.test' }, 'GET', `${BASE}/api/tables/hall-1/a`), 'BEACON_URL');
    expectMisconfigured(
      await call({ SIGNING_KEY: key, BEACON_URL: 'https://relay.test', BEACON_CHAIN: 'mainnet' }, 'GET', `${BASE}/api/tables/hall-1/a`),
      'BEACON_CHAIN',
    );
    expectMisconfigured(await call({ SIGNING_KEY: key, BEACON_URL: '', BEACON_SECRET_KEY: 'zz' }, 'GET', `${BASE}/api/tables/hall-1/a`), 'BEACON_SECRET_KEY');
  });
});

describe('no SIGNING_KEY', () => {
  test('on a public host, every API route and the JWKS answer 503 misconfigured naming SIGNING_KEY', async () => {
    const vars = { SIGNING_KEY: undefined };
    for (const host of ['https://tables.casino.com', 'https://punto-banco.acme.workers.dev', 'http://203.0.113.7:8787', 'http://[2001:db8::1]']) {
      expectMisconfigured(await newSession(vars, host), 'SIGNING_KEY');
      expectMisconfigured(await call(vars, 'GET', `${host}/.well-known/jwks.json`), 'SIGNING_KEY');
      expectMisconfigured(await call(vars, 'GET', `${host}/api/tables/hall-1/a`), 'SIGNING_KEY');
    }
  });

  test('on loopback, a test name or a private address, development goes on with its generated key', async () => {
    for (const host of ['http://localhost:8787', 'http://127.0.0.1:8787', 'http://[::1]:8787', BASE, 'http://192.168.1.20:8787']) {
      const r = await call({ SIGNING_KEY: undefined }, 'GET', `${host}/.well-known/jwks.json`);
      expect(r.status, host).toBe(200);
    }
    expect((await newSession({ SIGNING_KEY: undefined }, 'http://127.0.0.1:8787')).status).toBe(201);
  });

  test('a malformed SIGNING_KEY is named, not a 500', async () => {
    expectMisconfigured(await newSession({ SIGNING_KEY: 'not json' }), 'SIGNING_KEY');
    expectMisconfigured(await call({ SIGNING_KEY: '{"kty":"OKP"}' }, 'GET', `${BASE}/.well-known/jwks.json`), 'SIGNING_KEY');
  });
});

test('isPublicHost: only loopback, reserved test names and private addresses are not public', () => {
  for (const host of [
    'localhost',
    'pb.localhost',
    '127.0.0.1',
    '127.9.9.9',
    '0.0.0.0',
    '[::1]',
    'pb.test',
    'casino.example',
    'x.invalid',
    '10.1.2.3',
    '172.20.0.1',
    '192.168.0.5',
    '169.254.1.1',
    '[fd12::1]',
    '[fe80::1]',
  ])
    expect(isPublicHost(host), host).toBe(false);
  for (const host of ['casino.com', 'localhost.casino.com', 'test.casino.com', 'pb.workers.dev', '8.8.8.8', '172.32.0.1', '[2001:db8::1]', '11.0.0.1'])
    expect(isPublicHost(host), host).toBe(true);
});
