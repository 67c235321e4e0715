/**
 * Affiliates and embedding origins (API.md "Affiliates and embedding"), inside workerd, with the
 * test EMBED_ORIGINS of test/worker/vitest.config.ts:
 *   "*": https://casino.example · acme: https://acme.example, https://*.acme-partners.example ·
 *   beta: https://beta.example:8443 · and DEV = "true" (loopback on any port).
 */
import { createExecutionContext, runInDurableObject, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, test } from 'vitest';
import { type Jwks, verifyText } from '../../shared/index.ts';
import { isOriginAllowedFor, isKnownOrigin, normalizeOrigin, parseEmbedPolicy } from '../../worker/http/cors.ts';
import type { Env } from '../../worker/config/env.ts';
import worker from '../../worker/index.ts';
import {
  api,
  BASE,
  CLIENT_IP,
  play,
  type Reply,
  type Session,
  snapshot,
  startShoe,
  PLAYER_KEY,
  sessionOf,
  startBody,
  betBody,
  endBody,
  reveal,
  bet,
  endShoe,
  tableFile,
} from './helpers.ts';

const ACME = 'https://acme.example';
const EVIL = 'https://evil.example';
const BETA = 'https://beta.example:8443';
const CASINO = 'https://casino.example';

const refusal = (origin: string, affiliate: string | null) =>
  affiliate === null
    ? `This table may not be embedded on ${origin}: ask the operator to allow it.`
    : `This table may not be embedded on ${origin}: ask the operator to allow it for affiliate "${affiliate}".`;

/** A session created from `origin` (no Origin header when null). */
async function createFrom(origin: string | null, body: Record<string, unknown>, key?: string): Promise<Reply> {
  return api('POST', '/api/sessions', { body: { playerKey: PLAYER_KEY, ...body }, key, headers: origin === null ? {} : { Origin: origin } });
}

function asSession(r: Reply): Session {
  expect(r.status).toBe(201);
  return sessionOf(r);
}

function expectRefused(r: Reply, origin: string, affiliate: string | null): void {
  expect(r.status).toBe(403);
  expect(r.body.error).toEqual({ code: 'origin_not_allowed', message: refusal(origin, affiliate), origin, affiliate });
  // No CORS allowance: the page on that origin may not read or use the API.
  expect(r.headers.get('Access-Control-Allow-Origin')).toBeNull();
  expect(r.headers.get('Access-Control-Allow-Credentials')).toBeNull();
}

async function keys(): Promise<Jwks> {
  return (await api('GET', '/.well-known/jwks.json')).body as Jwks;
}

const acceptancesOf = (file: any) => file.records.filter((r: any) => r.body.type === 'acceptance');

describe('the affiliate on acceptances', () => {
  test('recorded on every acceptance of every shoe, signed, and the file verifies', async () => {
    const s = asSession(await createFrom(null, { room: 'hall-1', affiliate: 'acme' }));
    expect(s.created.affiliate).toBe('acme');
    await startShoe(s, 'aff seed', 50);
    for (let i = 0; i < 3; i++) expect((await play(s, [{ sector: 0, box: 'banker', amount: 100 }])).status).toBe(200);
    expect((await endShoe(s)).status).toBe(200);
    await startShoe(s, 'aff seed 2', 60);
    expect((await play(s, [{ sector: 1, box: 'player', amount: 200 }])).status).toBe(200);
    const text = await tableFile(s);
    expect(acceptancesOf(JSON.parse(text)).map((r: any) => r.body.affiliate)).toEqual(['acme', 'acme', 'acme', 'acme']);
    const report = await verifyText(text, await keys());
    expect(report.failure).toBeUndefined();
    expect(report.ok).toBe(true);
    // The affiliate is inside the signed body: changing it breaks the signature.
    const forged = JSON.parse(text);
    acceptancesOf(forged)[1].body.affiliate = 'beta';
    expect((await verifyText(JSON.stringify(forged), await keys())).ok).toBe(false);
  });

  test('without an affiliate the acceptances say null', async () => {
    const s = asSession(await createFrom(null, { room: 'hall-1' }));
    expect(s.created.affiliate).toBeNull();
    await startShoe(s);
    expect((await bet(s, [{ sector: 0, box: 'tie', amount: 100 }])).body.acceptance.body.affiliate).toBeNull();
  });

  test('the id: 1–40 of a–z 0–9 _ -, starting with a letter or digit; stored in lower case', async () => {
    expect(asSession(await createFrom(null, { room: 'hall-1', affiliate: 'ACME' })).created.affiliate).toBe('acme');
    expect(asSession(await createFrom(null, { room: 'hall-1', affiliate: 'a'.repeat(40) })).created.affiliate).toBe('a'.repeat(40));
    expect(asSession(await createFrom(null, { room: 'hall-1', affiliate: '7_up-2' })).created.affiliate).toBe('7_up-2');
    for (const bad of ['', '-acme', '_acme', 'a'.repeat(41), 'ac me', 'acme.example', 'ac/me', 'é', 42, null]) {
      const r = await createFrom(null, { room: 'hall-1', affiliate: bad });
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.body.error.code).toBe('invalid_body');
      expect(r.body.error.message).toMatch(/^affiliate/);
    }
  });
});

describe('embedding origins at session creation', () => {
  test('an origin not allowed for the affiliate: 403 origin_not_allowed naming both, no CORS, nothing created', async () => {
    const key = crypto.randomUUID();
    expectRefused(await createFrom(EVIL, { room: 'hall-1', affiliate: 'acme' }, key), EVIL, 'acme');
    // Another affiliate's site may not create this affiliate's sessions.
    expectRefused(await createFrom(BETA, { room: 'hall-1', affiliate: 'acme' }), BETA, 'acme');
    // An affiliate's site may not create sessions without an affiliate either.
    expectRefused(await createFrom(ACME, { room: 'hall-1' }), ACME, null);
    // The apex of a *. pattern is not one of its subdomains; the port is part of the origin.
    expectRefused(await createFrom('https://acme-partners.example', { room: 'hall-1', affiliate: 'acme' }), 'https://acme-partners.example', 'acme');
    expectRefused(await createFrom('https://beta.example', { room: 'hall-1', affiliate: 'beta' }), 'https://beta.example', 'beta');
    expectRefused(await createFrom('http://acme.example', { room: 'hall-1', affiliate: 'acme' }), 'http://acme.example', 'acme');
    // The refusal came before the client's object: the key was never used.
    const stored = await runInDurableObject(
      env.CLIENTS.getByName(`ip:${CLIENT_IP}`),
      (_c, state) => state.storage.sql.exec(`SELECT COUNT(*) AS n FROM creations WHERE key = ?`, key).one().n,
    );
    expect(stored).toBe(0);
  });

  test('a page without an origin (sandboxed frame, local file) is told so', async () => {
    const r = await createFrom('null', { room: 'hall-1', affiliate: 'acme' });
    expect(r.status).toBe(403);
    expect(r.body.error.message).toBe(
      'This table may not be embedded on a page without an origin (a sandboxed frame or a local file): ask the operator to allow it for affiliate "acme".',
    );
  });

  test('allowed origins: the answer carries the CORS headers for that origin', async () => {
    const cases: Array<[string, string | null]> = [
      [ACME, 'acme'],
      ['https://play.acme-partners.example', 'acme'],
      ['https://a.b.acme-partners.example', 'acme'],
      [BETA, 'beta'],
      [CASINO, 'acme'], // "*": the operator's own site, for every affiliate
      [CASINO, null],
      ['http://localhost:5173', 'beta'], // DEV = "true"
      ['https://ACME.example/', 'acme'], // compared in its normal form
    ];
    for (const [origin, affiliate] of cases) {
      const r = await createFrom(origin, affiliate === null ? { room: 'hall-1' } : { room: 'hall-1', affiliate });
      expect(r.status, `${origin} ${affiliate}`).toBe(201);
      expect(r.headers.get('Access-Control-Allow-Origin')).toBe(origin);
      expect(r.headers.get('Access-Control-Expose-Headers')).toBe('Retry-After, Idempotent-Replayed');
      expect(r.headers.get('Vary')).toContain('Origin');
    }
  });

  test("the Worker's own origin (the demo page) and calls without an Origin always pass", async () => {
    const own = await createFrom(BASE, { room: 'hall-1', affiliate: 'whoever' });
    expect(own.status).toBe(201);
    expect(own.body.affiliate).toBe('whoever');
    expect((await createFrom(null, { room: 'vip', affiliate: 'acme' })).status).toBe(201);
  });

  test('preflight: an origin allowed for some affiliate gets the CORS answer; any other 403 without it', async () => {
    const preflight = (origin: string, path = '/api/sessions') =>
      api('OPTIONS', path, {
        key: null,
        headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization, content-type, idempotency-key' },
      });
    for (const origin of [ACME, BETA, CASINO, 'https://x.acme-partners.example']) {
      const r = await preflight(origin, '/api/sessions/AAAAAAAAAAAAAAAAAAAAAA/rounds');
      expect(r.status, origin).toBe(204);
      expect(r.headers.get('Access-Control-Allow-Origin')).toBe(origin);
      expect(r.headers.get('Access-Control-Allow-Methods')).toBe('GET, POST, OPTIONS');
      expect(r.headers.get('Access-Control-Allow-Headers')).toBe('Authorization, Content-Type, Idempotency-Key, Affiliate-Token');
      expect(r.headers.get('Access-Control-Max-Age')).toBe('600');
    }
    const refused = await preflight(EVIL);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'origin_not_allowed', message: refusal(EVIL, null) });
    expect(refused.headers.get('Access-Control-Allow-Origin')).toBeNull();
    expect(refused.headers.get('Access-Control-Allow-Methods')).toBeNull();
  });

  test('DEV = "false": loopback origins are refused like any other', async () => {
    const ctx = createExecutionContext();
    const res = await worker.fetch(
      new Request(`${BASE}/api/sessions`, {
        method: 'POST',
        headers: { Origin: 'http://localhost:5173', 'Idempotency-Key': crypto.randomUUID(), 'CF-Connecting-IP': CLIENT_IP, 'Content-Type': 'application/json' },
        body: JSON.stringify({ playerKey: PLAYER_KEY, room: 'hall-1', affiliate: 'acme' }),
      }),
      { ...env, DEV: 'false' },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(403);
    expect(((await res.json()) as any).error.message).toBe(refusal('http://localhost:5173', 'acme'));
    expect(res.headers.get('Access-Control-Allow-Origin')).toBeNull();
  });
});

describe('embedding origins on every later call', () => {
  test("a round from an origin not allowed for the session's affiliate: 403 naming origin and affiliate, nothing dealt", async () => {
    const s = asSession(await createFrom(ACME, { room: 'hall-1', affiliate: 'acme' }));
    const start = await api('POST', `/api/sessions/${s.id}/shoe/start`, { token: s.token, body: await startBody(s, 'x', 20), headers: { Origin: ACME } });
    expect(start.status).toBe(200);
    const ok = await api('POST', `/api/sessions/${s.id}/rounds`, {
      token: s.token,
      body: await betBody(s, [{ sector: 0, box: 'player', amount: 100 }]),
      headers: { Origin: ACME },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('Access-Control-Allow-Origin')).toBe(ACME);
    expect((await reveal(s, ok.body.acceptance)).status).toBe(200);
    const before = await snapshot(s);

    const key = crypto.randomUUID();
    const bets = await betBody(s, [{ sector: 0, box: 'banker', amount: 1000 }]);
    const end = await endBody(s);
    for (const origin of [EVIL, BETA, 'https://acme-partners.example']) {
      expectRefused(await api('POST', `/api/sessions/${s.id}/rounds`, { token: s.token, key, body: bets, headers: { Origin: origin } }), origin, 'acme');
      expectRefused(await api('GET', `/api/sessions/${s.id}`, { token: s.token, headers: { Origin: origin } }), origin, 'acme');
      expectRefused(await api('GET', `/api/sessions/${s.id}/receipts`, { token: s.token, headers: { Origin: origin } }), origin, 'acme');
      expectRefused(await api('GET', `/api/sessions/${s.id}/shoes/1/transcript`, { token: s.token, headers: { Origin: origin } }), origin, 'acme');
      expectRefused(await api('POST', `/api/sessions/${s.id}/shoe/end`, { token: s.token, body: end, headers: { Origin: origin } }), origin, 'acme');
    }
    expect(await snapshot(s)).toBe(before);
    // The refused key was not used up: the same request from the right origin is dealt once.
    const later = await api('POST', `/api/sessions/${s.id}/rounds`, {
      token: s.token,
      key,
      body: bets,
      headers: { Origin: 'https://www.acme-partners.example' },
    });
    expect(later.status).toBe(200);
    expect(later.body.acceptance.body).toMatchObject({ round: 2, affiliate: 'acme' });
  });

  test('the affiliate is not told to a caller without the token: 401 comes first', async () => {
    const s = asSession(await createFrom(null, { room: 'hall-1', affiliate: 'acme' }));
    const r = await api('GET', `/api/sessions/${s.id}`, { token: `${s.id}.${'A'.repeat(43)}`, headers: { Origin: EVIL } });
    expect(r.status).toBe(401);
    expect(r.text).not.toContain('acme');
    expect(r.headers.get('Access-Control-Allow-Origin')).toBeNull();
  });

  test('a session without an affiliate plays only from the "*" origins (and same-origin, dev loopback)', async () => {
    const s = asSession(await createFrom(CASINO, { room: 'hall-1' }));
    await startShoe(s);
    expect(
      (
        await api('POST', `/api/sessions/${s.id}/rounds`, {
          token: s.token,
          body: await betBody(s, [{ sector: 0, box: 'tie', amount: 100 }]),
          headers: { Origin: CASINO },
        })
      ).status,
    ).toBe(200);
    expect((await api('GET', `/api/sessions/${s.id}`, { token: s.token, headers: { Origin: BASE } })).status).toBe(200);
    expect((await api('GET', `/api/sessions/${s.id}`, { token: s.token, headers: { Origin: 'http://127.0.0.1:9999' } })).status).toBe(200);
    expectRefused(await api('GET', `/api/sessions/${s.id}`, { token: s.token, headers: { Origin: ACME } }), ACME, null);
  });
});

describe('embed check (for the widget, which cannot read a refused answer)', () => {
  test('readable from any page: allowed or the same refusal, with Access-Control-Allow-Origin: *', async () => {
    const ok = await api('GET', '/api/embed-check?affiliate=ACME', { headers: { Origin: ACME } });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ allowed: true, origin: ACME, affiliate: 'acme' });
    expect(ok.headers.get('Access-Control-Allow-Origin')).toBe('*');
    const no = await api('GET', '/api/embed-check?affiliate=acme', { headers: { Origin: EVIL } });
    expect(no.status).toBe(403);
    expect(no.body.error).toEqual({ code: 'origin_not_allowed', message: refusal(EVIL, 'acme'), origin: EVIL, affiliate: 'acme' });
    expect(no.headers.get('Access-Control-Allow-Origin')).toBe('*');
    const none = await api('GET', '/api/embed-check', { headers: { Origin: ACME } });
    expect(none.status).toBe(403);
    expect(none.body.error.message).toBe(refusal(ACME, null));
    const bad = await api('GET', '/api/embed-check?affiliate=a%20b', { headers: { Origin: ACME } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('bad_query');
  });
});

describe('the EMBED_ORIGINS configuration', () => {
  const envWith = (vars: Partial<Env>): Env => ({ ...env, DEV: 'false', ALLOWED_ORIGINS: '', ...vars });

  test('origins in one normal form: lower case, no trailing slash, no default port', () => {
    expect(normalizeOrigin('HTTPS://Acme.Example/')).toBe('https://acme.example');
    expect(normalizeOrigin('https://acme.example:443')).toBe('https://acme.example');
    expect(normalizeOrigin('http://acme.example:80')).toBe('http://acme.example');
    expect(normalizeOrigin('https://acme.example:8443')).toBe('https://acme.example:8443');
  });

  test('bad entries are reported and skipped; a malformed value allows nothing (fails closed)', () => {
    const p = parseEmbedPolicy(
      JSON.stringify({ '*': ['https://ok.example', 'https://ok.example/path', 7], 'Bad Id': ['https://x.example'], acme: 'https://acme.example' }),
      undefined,
    );
    expect([...p.everyone.exact]).toEqual(['https://ok.example']);
    expect(p.byAffiliate.size).toBe(0);
    expect(p.problems).toHaveLength(4);
    const broken = envWith({ EMBED_ORIGINS: '{ "acme": [' });
    expect(isOriginAllowedFor(ACME, 'acme', broken)).toBe(false);
    expect(isKnownOrigin(ACME, broken)).toBe(false);
    expect(isOriginAllowedFor(null, 'acme', broken)).toBe(true); // no browser involved
    expect(isOriginAllowedFor(ACME, 'acme', envWith({ EMBED_ORIGINS: '["https://acme.example"]' }))).toBe(false);
  });

  test('per affiliate, "*" for everyone, ALLOWED_ORIGINS added to "*", loopback only in dev', () => {
    const e = envWith({
      EMBED_ORIGINS: JSON.stringify({ '*': ['https://own.example'], ACME: ['https://acme.example'] }),
      ALLOWED_ORIGINS: 'https://legacy.example, https://old.example/',
    });
    expect(isOriginAllowedFor(ACME, 'acme', e)).toBe(true);
    expect(isOriginAllowedFor(ACME, 'beta', e)).toBe(false);
    expect(isOriginAllowedFor(ACME, null, e)).toBe(false);
    for (const o of ['https://own.example', 'https://legacy.example', 'https://old.example']) {
      expect(isOriginAllowedFor(o, 'acme', e)).toBe(true);
      expect(isOriginAllowedFor(o, null, e)).toBe(true);
    }
    expect(isOriginAllowedFor('http://localhost:3000', 'acme', e)).toBe(false);
    expect(isOriginAllowedFor('http://localhost:3000', 'acme', { ...e, DEV: 'true' })).toBe(true);
    expect(isKnownOrigin(ACME, e)).toBe(true);
    expect(isKnownOrigin(EVIL, e)).toBe(false);
  });
});
