import { describe, expect, test } from 'vitest';
import { callWallet, type FetchLike, type WalletConfig } from '../../shared/wallet/client.ts';
import { signWalletMessage, verifyWalletMessage } from '../../shared/wallet/sign.ts';
import { DEBIT } from './wallet-fixtures.ts';

const CONFIG: WalletConfig = { walletBase: 'https://wallet.example/pb/', providerSecret: 'p-secret', operatorSecret: 'o-secret' };
const NOW = 1_767_225_600_000;
const NONCE = 'client-nonce-00000001';
const OK = `{"status":"ok","transactionId":"${DEBIT.transactionId}","currency":"EUR","balance":97500}`;

/** A wallet in a function: checks the call as a real one would, then answers `body` signed as told. */
function fakeWallet(answer: { status?: number; body?: string; secret?: string; nonce?: string; at?: number } | Error): { fetch: FetchLike; seen: string[] } {
  const seen: string[] = [];
  const fetch: FetchLike = async (url, init) => {
    seen.push(url);
    const path = new URL(url).pathname;
    const request = await verifyWalletMessage({
      secret: 'p-secret',
      direction: 'request',
      method: init.method,
      path,
      headers: init.headers,
      body: init.body,
      now: NOW / 1000,
      nonceRefused: () => false,
    });
    expect(request.ok).toBe(true);
    if (answer instanceof Error) throw answer;
    const body = answer.body ?? OK;
    const headers = await signWalletMessage(answer.secret ?? 'o-secret', {
      direction: 'answer',
      method: 'POST',
      path,
      timestamp: answer.at ?? NOW / 1000,
      nonce: answer.nonce ?? init.headers['PB-Nonce']!,
      body,
    });
    return { status: answer.status ?? 200, headers: new Headers(headers), arrayBuffer: async () => new TextEncoder().encode(body).buffer };
  };
  return { fetch, seen };
}

describe('callWallet: sign, send, check the answer, classify', () => {
  test('an applied debit, sent to <walletBase>/debit with the exact body it signed', async () => {
    const wallet = fakeWallet({});
    const r = await callWallet(wallet.fetch, CONFIG, DEBIT, NOW, NONCE);
    expect(wallet.seen).toEqual(['https://wallet.example/pb/debit']);
    expect(r).toMatchObject({ httpStatus: 200, outcome: { kind: 'applied', answer: { balance: 97_500 }, duplicate: false } });
    expect(JSON.parse(r.body)).toEqual(DEBIT);
  });

  test.each([
    ['a forged answer (another secret)', { secret: 'forged' }, 'bad_answer_signature'],
    ["an answer to another call (not this call's nonce)", { nonce: 'other-nonce-000000001' }, 'bad_answer_signature'],
    ['an answer signed 10 minutes off', { at: NOW / 1000 + 600 }, 'bad_answer_signature'],
    ['a 502', { status: 502, body: 'Bad Gateway' }, 'http_status'],
    ['a malformed answer', { body: '{"status":"ok"}' }, 'malformed_answer'],
  ])('%s: the outcome is unknown', async (_why, answer, reason) => {
    const r = await callWallet(fakeWallet(answer).fetch, CONFIG, DEBIT, NOW, NONCE);
    expect(r.outcome).toMatchObject({ kind: 'unknown', reason });
  });

  test('a dropped connection is unknown (network); an aborted call is unknown (timeout)', async () => {
    const dropped = await callWallet(fakeWallet(new TypeError('socket hang up')).fetch, CONFIG, DEBIT, NOW, NONCE);
    expect(dropped.outcome).toMatchObject({ kind: 'unknown', reason: 'network', message: expect.stringContaining('socket hang up') as string });
    const controller = new AbortController();
    controller.abort();
    const aborted = await callWallet(fakeWallet(new DOMException('aborted', 'AbortError')).fetch, CONFIG, DEBIT, NOW, NONCE, { signal: controller.signal });
    expect(aborted.outcome).toMatchObject({ kind: 'unknown', reason: 'timeout' });
  });

  test("a refusal is the wallet's code", async () => {
    const body = '{"status":"refused","code":"player_blocked","message":"self-excluded"}';
    const r = await callWallet(fakeWallet({ status: 422, body }).fetch, CONFIG, DEBIT, NOW, NONCE);
    expect(r.outcome).toEqual({ kind: 'refused', code: 'player_blocked', message: 'self-excluded', duplicate: false });
  });
});
