/**
 * The launch (WALLET.md "The launch", API.md "Operators"): an operator's signed
 * `POST /api/operator/launch` answers a single-use, short-lived launch token and a ready /embed URL;
 * the player's `POST /api/sessions` with `launchToken` redeems it once for a wallet-mode session.
 * Every refusal has its own code; a misconfigured OPERATOR_SETTINGS is named.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, test } from 'vitest';
import { bytesToBase64url, generateSigningKey, playerKeyOf } from '../../shared/index.ts';
import { signLaunchRequest } from '../../shared/wallet/launch.ts';
import { defaultCurrencyLimits } from '../../shared/wallet/operators.ts';
import type { Env } from '../../worker/config/env.ts';
import worker from '../../worker/index.ts';
import { api, BASE, CLIENT_IP } from './helpers.ts';
import { DEMO, freshNonce, launch, launchOf, operatorCall, OTHER, redeem, withOperatorClock } from './operator-helpers.ts';

const code = (r: { body: { error?: { code: string } } }) => r.body.error?.code;

describe('POST /api/operator/launch', () => {
  test('a signed launch answers 201: a launch token, the /embed URL that carries it, its expiry 120 s on', async () => {
    const before = Date.now();
    const r = await launch(launchOf({ currency: 'JPY', room: 'hall-2', lang: 'it' }));
    expect(r.status, r.text).toBe(201);
    expect(r.body.token).toMatch(/^l\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(r.body.url).toBe(`${BASE}/embed?launch=${r.body.token}`);
    const expires = Date.parse(r.body.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(before + 120_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 120_000);
    // Two launches never share a token.
    expect((await launch()).body.token).not.toBe(r.body.token);
  });

  test('a replayed nonce, a stale timestamp, a forged signature, missing headers, an unknown operator: each refused with its code', async () => {
    const nonce = freshNonce();
    expect((await launch(launchOf(), { nonce })).status).toBe(201);
    const replay = await launch(launchOf(), { nonce });
    expect([replay.status, code(replay)]).toEqual([401, 'nonce_reused']);

    const stale = await launch(launchOf(), { timestamp: Math.floor(Date.now() / 1000) - 301 });
    expect([stale.status, code(stale)]).toEqual([401, 'stale_timestamp']);
    const future = await launch(launchOf(), { timestamp: Math.floor(Date.now() / 1000) + 301 });
    expect([future.status, code(future)]).toEqual([401, 'stale_timestamp']);

    const forged = await launch(launchOf(), { secret: OTHER.secret });
    expect([forged.status, code(forged)]).toEqual([401, 'bad_signature']);

    const unsigned = await api('POST', '/api/operator/launch', { body: launchOf(), key: null, headers: { 'PB-Operator': DEMO.id } });
    expect([unsigned.status, code(unsigned)]).toEqual([401, 'missing_signature']);

    const unknown = await launch(launchOf(), { operator: { id: 'no-such-casino', secret: DEMO.secret } });
    expect([unknown.status, code(unknown)]).toEqual([401, 'unknown_operator']);
    const nameless = await api('POST', '/api/operator/launch', { body: launchOf(), key: null });
    expect([nameless.status, code(nameless)]).toEqual([401, 'unknown_operator']);
  });

  test('a nonce is kept past the ±5 min window, then forgotten (its timestamp would be refused anyway)', async () => {
    const nonce = freshNonce();
    const now = Math.floor(Date.now() / 1000);
    expect((await launch(launchOf(), { nonce, timestamp: now })).status).toBe(201);
    // 299 s on, a call with that nonce (and a timestamp fresh then) is still a replay.
    await withOperatorClock(DEMO.id, 299_000, async () => {
      const r = await launch(launchOf(), { nonce, timestamp: now + 299 });
      expect([r.status, code(r)]).toEqual([401, 'nonce_reused']);
    });
    // 601 s on, the nonce is pruned: only the timestamp check stands between it and a replay.
    await withOperatorClock(DEMO.id, 601_000, async () => {
      expect((await launch(launchOf(), { nonce, timestamp: now })).body.error.code).toBe('stale_timestamp');
      expect((await launch(launchOf(), { nonce, timestamp: now + 601 })).status).toBe(201);
    });
  });

  test('a forged call does not use up the nonce it carries', async () => {
    const nonce = freshNonce();
    expect(code(await launch(launchOf(), { nonce, secret: 'not-the-operator-secret' }))).toBe('bad_signature');
    expect((await launch(launchOf(), { nonce })).status).toBe(201);
  });

  test('a bad body, once signed, is 400 bad_launch naming the field; a room the operator does not open in that currency too', async () => {
    // Signed as sent (signLaunchRequest would write only the known fields).
    const signedRaw = (body: unknown) => operatorCall('POST', '/api/operator/launch', JSON.stringify(body));
    const missing = await signedRaw({ ...launchOf(), returnUrl: undefined });
    expect([missing.status, code(missing)]).toEqual([400, 'bad_launch']);
    expect(missing.body.error.message).toContain('returnUrl');
    const extra = await signedRaw({ ...launchOf(), bonus: 5 });
    expect([extra.status, code(extra)]).toEqual([400, 'bad_launch']);
    expect(extra.body.error.message).toContain('bonus');
    expect((await launch(launchOf({ currency: 'EURO' }))).body.error.code).toBe('bad_launch');
    const notJson = await operatorCall('POST', '/api/operator/launch', '{"playerId":');
    expect([notJson.status, code(notJson)]).toEqual([400, 'bad_launch']);
    // "other-casino" plays EUR only; "demo" plays EUR, JPY and BHD, not USD.
    const usd = await launch(launchOf({ currency: 'USD' }));
    expect([usd.status, code(usd)]).toEqual([400, 'bad_launch']);
    expect(usd.body.error.message).toContain('USD');
    const gbp = await launch(launchOf({ currency: 'JPY' }), { operator: OTHER });
    expect([gbp.status, code(gbp)]).toEqual([400, 'bad_launch']);
  });

  test('a browser on another origin may not launch', async () => {
    const signed = await signLaunchRequest(DEMO.id, DEMO.secret, launchOf(), Date.now(), freshNonce());
    const r = await api('POST', '/api/operator/launch', { raw: signed.body, key: null, headers: { ...signed.headers, Origin: 'https://casino.example' } });
    expect([r.status, code(r)]).toEqual([403, 'origin_not_allowed']);
  });
});

describe('POST /api/sessions with launchToken', () => {
  test('redeems the token once for a session of the launched player; a second use is 409 launch_token_used', async () => {
    const limits = { maxStakePerRound: 50_000, lossLimit: 200_000, realityCheckMinutes: 30 };
    const launched = await launch(launchOf({ playerId: 'redeem-once', currency: 'BHD', room: 'vip', lang: 'el', limits }));
    const r = await redeem(launched.body.token);
    expect(r.status, r.text).toBe(201);
    expect(r.body.room).toBe('vip');
    // The room's limits are the operator's in BHD ("default": VIP's 25–1,000 in fils); the player's, the launch's.
    const vip = defaultCurrencyLimits('vip', 'BHD');
    expect(vip.ok && r.body.limits).toEqual(vip.ok && vip.value);
    expect(r.body.wallet.playerLimits).toEqual(limits);
    // The balance is the wallet's (the reference wallet opens a new player with 100000).
    expect(r.body.balance).toBe(100_000);
    expect(typeof r.body.token).toBe('string');
    expect(r.body.wallet).toMatchObject({ operator: 'demo', currency: 'BHD', minorUnits: 3, lang: 'el', returnUrl: 'https://casino.example/lobby' });
    const again = await redeem(launched.body.token);
    expect([again.status, code(again)]).toEqual([409, 'launch_token_used']);
  });

  test('two redemptions at once: exactly one session', async () => {
    const launched = await launch(launchOf({ playerId: 'race' }));
    const answers = await Promise.all([1, 2, 3].map(() => redeem(launched.body.token)));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect(answers.filter((r) => r.status === 409).map(code)).toEqual(['launch_token_used', 'launch_token_used']);
  });

  test('a retry with the same Idempotency-Key and body answers the same session and token', async () => {
    const launched = await launch(launchOf({ playerId: 'retry' }));
    const player = (await generateSigningKey()).key;
    const key = crypto.randomUUID();
    const first = await redeem(launched.body.token, { key, player });
    expect(first.status, first.text).toBe(201);
    const retry = await redeem(launched.body.token, { key, player });
    expect(retry.status, retry.text).toBe(201);
    expect(retry.headers.get('Idempotent-Replayed')).toBe('true');
    expect([retry.body.sessionId, retry.body.token]).toEqual([first.body.sessionId, first.body.token]);
    // The same key with another body (another player key) is not a retry.
    const other = await redeem(launched.body.token, { key });
    expect([other.status, code(other)]).toEqual([409, 'launch_token_used']);
  });

  test('an expired token is 410 launch_token_expired (the clock moved past 120 s)', async () => {
    const launched = await launch(launchOf({ playerId: 'late' }));
    await withOperatorClock(DEMO.id, 121_000, async () => {
      const r = await redeem(launched.body.token);
      expect([r.status, code(r)]).toEqual([410, 'launch_token_expired']);
    });
    // Just inside the 120 s it still works.
    await withOperatorClock(DEMO.id, 119_000, async () => {
      expect((await redeem(launched.body.token)).status).toBe(201);
    });
  });

  test("another operator's name is 403 launch_wrong_operator, and leaves the token usable", async () => {
    const launched = await launch(launchOf({ playerId: 'wrong-operator' }));
    const r = await redeem(launched.body.token, { operator: OTHER.id });
    expect([r.status, code(r)]).toEqual([403, 'launch_wrong_operator']);
    expect((await redeem(launched.body.token, { operator: DEMO.id })).status).toBe(201);
  });

  test('an unknown token is 404 launch_token_unknown: never minted, garbage, or naming no configured operator', async () => {
    const random = bytesToBase64url(crypto.getRandomValues(new Uint8Array(32)));
    const demoName = bytesToBase64url(new TextEncoder().encode('demo'));
    const nobody = bytesToBase64url(new TextEncoder().encode('nobody'));
    for (const token of [`l.${demoName}.${random}`, 'not-a-token', `l.${nobody}.${random}`]) {
      const r = await redeem(token);
      expect([r.status, code(r)], token).toEqual([404, 'launch_token_unknown']);
    }
  });

  test('a bad redemption body is 400 invalid_body, and no room may come with a token', async () => {
    const launched = await launch();
    const r = await api('POST', '/api/sessions', { body: { launchToken: launched.body.token, playerKey: 'nope!', room: 'hall-1' } });
    expect([r.status, code(r)]).toEqual([400, 'invalid_body']);
    expect((await api('POST', '/api/sessions', { body: { launchToken: 7, playerKey: 'x' } })).body.error.code).toBe('invalid_body');
  });
});

describe('GET /embed?launch=', () => {
  test('passes the launch token on to the element as launch-token; a malformed one is 400 bad_query', async () => {
    const launched = await launch();
    const page = await api('GET', launched.body.url.slice(BASE.length));
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<punto-banco-table launch-token="${launched.body.token}"></punto-banco-table>`);
    const bad = await api('GET', '/embed?launch=%22%3E%3Cscript%3E');
    expect([bad.status, code(bad)]).toEqual([400, 'bad_query']);
  });
});

describe('a misconfigured OPERATOR_SETTINGS or OPERATOR_SECRETS', () => {
  async function call(vars: Partial<Env>, method: string, path: string, init: RequestInit = {}) {
    const headers = new Headers(init.headers);
    headers.set('CF-Connecting-IP', CLIENT_IP);
    const ctx = createExecutionContext();
    const res = await worker.fetch(new Request(`${BASE}${path}`, { ...init, method, headers }), { ...env, ...vars }, ctx);
    await waitOnExecutionContext(ctx);
    return { status: res.status, body: await res.json<{ error?: { code: string; message: string; setting?: string } }>() };
  }

  test('answers 503 misconfigured naming it on the launch, the redemption and the operator routes; play money keeps working', async () => {
    const signed = await signLaunchRequest(DEMO.id, DEMO.secret, launchOf(), Date.now(), freshNonce());
    const json = { 'content-type': 'application/json', 'Idempotency-Key': crypto.randomUUID() };
    const cases: Array<[Partial<Env>, string]> = [
      [{ OPERATOR_SETTINGS: '[{ "id": "demo", ' }, 'OPERATOR_SETTINGS'],
      [{ OPERATOR_SETTINGS: '[{ "id": "demo", "walletUrl": "http://wallet.casino.example", "currencies": {} }]' }, 'OPERATOR_SETTINGS'],
      // An operator listed without its secrets.
      [{ OPERATOR_SECRETS: JSON.stringify({ demo: { provider: DEMO.secret, operator: DEMO.secret } }) }, 'OPERATOR_SECRETS'],
    ];
    for (const [vars, setting] of cases) {
      const answers = [
        await call(vars, 'POST', '/api/operator/launch', { headers: signed.headers, body: signed.body }),
        await call(vars, 'POST', '/api/sessions', { headers: json, body: JSON.stringify({ launchToken: 'l.ZGVtbw.x', playerKey: 'x' }) }),
        await call(vars, 'GET', '/api/operator/transactions?from=2026-12-01&to=2026-12-02'),
      ];
      for (const r of answers) {
        expect([r.status, r.body.error?.code, r.body.error?.setting], JSON.stringify(r.body)).toEqual([503, 'misconfigured', setting]);
        expect(r.body.error?.message).toContain(setting);
      }
      const play = await call(vars, 'POST', '/api/sessions', {
        headers: { ...json, 'Idempotency-Key': crypto.randomUUID() },
        body: JSON.stringify({ room: 'hall-1', playerKey: playerKeyOf((await generateSigningKey()).key) }),
      });
      expect(play.status).toBe(201);
    }
  });
});
