import { describe, expect, test } from 'vitest';
import { LAUNCH_PATH, parseLaunchRequest, signLaunchRequest, verifyLaunchRequest, type LaunchRequest } from '../../shared/wallet/launch.ts';
import { signWalletMessage } from '../../shared/wallet/sign.ts';
import { nextRetryAt, retryCeilingMs, retryDelayMs, DEFAULT_RETRY_POLICY } from '../../shared/wallet/outbox.ts';
import { verifyWalletMessage } from '../../shared/wallet/sign.ts';

const LAUNCH: LaunchRequest = {
  playerId: 'alice',
  currency: 'JPY',
  lang: 'it',
  room: 'hall-2',
  limits: { maxStakePerRound: 50_000, realityCheckMinutes: 30 },
  returnUrl: 'https://casino.example/lobby',
};

describe('the operator launch', () => {
  test('a launch signed by the operator verifies with its secret, over the launch path', async () => {
    const now = 1_767_225_600_000;
    const { body, headers } = await signLaunchRequest('demo', 'dev-demo-secret', LAUNCH, now, 'launchnonce-0000001');
    expect(headers['PB-Operator']).toBe('demo');
    expect(JSON.parse(body)).toEqual(LAUNCH);
    expect(parseLaunchRequest(JSON.parse(body))).toEqual({ ok: true, value: LAUNCH });
    const check = (secret: string, path = LAUNCH_PATH) =>
      verifyWalletMessage({ secret, direction: 'request', method: 'POST', path, headers, body, now: now / 1000, nonceRefused: () => false });
    expect((await check('dev-demo-secret')).ok).toBe(true);
    const forged = await check('another-secret');
    expect(forged.ok ? '' : forged.error.code).toBe('bad_signature');
  });

  test.each([
    ['an unknown field', { ...LAUNCH, balance: 5 }, /unknown field "balance"/],
    ['a missing field', { ...LAUNCH, returnUrl: undefined }, /returnUrl/],
    ['a bad player id', { ...LAUNCH, playerId: 'a b' }, /playerId/],
    ['an unknown currency', { ...LAUNCH, currency: 'YEN' }, /currency/],
    ['an unknown language', { ...LAUNCH, lang: 'de' }, /"lang" must be "en", "ru", "it" or "el"/],
    ['an unknown room', { ...LAUNCH, room: 'hall-9' }, /room/],
    ['a bad limit', { ...LAUNCH, limits: { lossLimit: -5 } }, /lossLimit/],
    ['an http return URL', { ...LAUNCH, returnUrl: 'http://casino.example/' }, /https/],
    ['not a URL', { ...LAUNCH, returnUrl: 'lobby' }, /not a URL/],
  ])('%s is bad_launch', (_why, value, message) => {
    const r = parseLaunchRequest(value);
    expect(r.ok ? undefined : r.error).toMatchObject({ code: 'bad_launch', message: expect.stringMatching(message) as string });
  });

  test('the provider checks a launch: operator, signature, window, nonce, then the body', async () => {
    const now = 1_767_225_600_000;
    const signed = await signLaunchRequest('demo', 'dev-demo-secret', LAUNCH, now, 'launchnonce-0000002');
    const seen = new Set<string>();
    const check = (over: { headers?: Record<string, string>; body?: string; now?: number } = {}) =>
      verifyLaunchRequest({
        headers: over.headers ?? signed.headers,
        body: over.body ?? signed.body,
        now: over.now ?? now / 1000,
        operatorSecret: (id) => (id === 'demo' ? 'dev-demo-secret' : undefined),
        nonceRefused: (n) => (seen.has(n) ? true : (seen.add(n), false)),
      });
    const code = async (p: ReturnType<typeof check>) => {
      const r = await p;
      return r.ok ? 'ok' : r.error.code;
    };
    expect(await code(check({ now: now / 1000 + 301 }))).toBe('stale_timestamp');
    expect(await code(check({ headers: { ...signed.headers, 'PB-Operator': 'other' } }))).toBe('unknown_operator');
    expect(await code(check({ body: signed.body.replace('alice', 'mallory') }))).toBe('bad_signature');
    expect(await check()).toEqual({ ok: true, value: { operatorId: 'demo', launch: LAUNCH } });
    expect(await code(check())).toBe('nonce_reused');
    // A well-signed body that breaks the format is still refused, after the signature.
    const body = JSON.stringify({ ...LAUNCH, lang: 'de' });
    const headers = {
      ...(await signWalletMessage('dev-demo-secret', {
        direction: 'request',
        method: 'POST',
        path: LAUNCH_PATH,
        timestamp: now / 1000,
        nonce: 'launchnonce-0000003',
        body,
      })),
      'PB-Operator': 'demo',
    };
    expect(await code(check({ headers, body }))).toBe('bad_launch');
  });

  test('http is accepted on a loopback host only (development)', () => {
    expect(parseLaunchRequest({ ...LAUNCH, returnUrl: 'http://127.0.0.1:8787/' }).ok).toBe(true);
  });
});

describe('the outbox retry schedule', () => {
  test('doubles from 1 s and stops growing at 5 minutes', () => {
    expect([1, 2, 3, 4, 9, 10, 50, 10_000].map((n) => retryCeilingMs(n))).toEqual([1_000, 2_000, 4_000, 8_000, 256_000, 300_000, 300_000, 300_000]);
    expect(retryCeilingMs(3, { baseMs: 500, factor: 3, capMs: 10_000 })).toBe(4_500);
  });

  test('equal jitter: between half and all of the ceiling', () => {
    expect(retryDelayMs(1, 0)).toBe(500);
    expect(retryDelayMs(1, 0.5)).toBe(750);
    expect(retryDelayMs(1, 0.999999)).toBe(999);
    expect(retryDelayMs(20, 0)).toBe(150_000);
    expect(nextRetryAt(10_000, 2, 0)).toBe(11_000);
    expect(DEFAULT_RETRY_POLICY).toEqual({ baseMs: 1_000, factor: 2, capMs: 300_000 });
  });

  test('bad inputs throw', () => {
    expect(() => retryCeilingMs(0)).toThrow(RangeError);
    expect(() => retryDelayMs(1, 1)).toThrow(RangeError);
    expect(() => retryDelayMs(1, -0.1)).toThrow(RangeError);
  });
});
