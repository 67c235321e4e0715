import { createHmac } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { signedBytes, signWalletMessage, verifyWalletMessage, type VerifyInput } from '../../shared/wallet/sign.ts';
import { transactionIdPreimage, walletRoundId, walletTransactionId } from '../../shared/wallet/transaction.ts';

// The vectors of WALLET.md "Worked example": change one and the document is wrong.
const DEBIT_BODY =
  '{"kind":"debit","transactionId":"pbw1-40b4b41da353574977eb80a79251c868","roundId":"s-7f3a/1/12","playerId":"alice","sessionId":"s-7f3a","currency":"EUR","amount":2500}';
const ANSWER_BODY = '{"status":"ok","transactionId":"pbw1-40b4b41da353574977eb80a79251c868","currency":"EUR","balance":97500}';
const NONCE = '0123456789abcdef0123456789abcdef';
const REQUEST = { direction: 'request', method: 'POST', path: '/wallet/debit', timestamp: 1767225600, nonce: NONCE, body: DEBIT_BODY } as const;
const ANSWER = { direction: 'answer', method: 'POST', path: '/wallet/debit', timestamp: 1767225601, nonce: NONCE, body: ANSWER_BODY } as const;

describe('signing vectors (WALLET.md)', () => {
  test('a debit request signed with the provider secret', async () => {
    const headers = await signWalletMessage('provider-secret', REQUEST);
    expect(headers).toEqual({
      'PB-Signature': '59bffd2d25affdcd20144cee651142a0f2ed254bb0f812b7c75bcdc728178f3d',
      'PB-Timestamp': '1767225600',
      'PB-Nonce': NONCE,
    });
  });

  test('its answer signed with the operator secret', async () => {
    const headers = await signWalletMessage('operator-secret', ANSWER);
    expect(headers['PB-Signature']).toBe('9c95fcc5ad724e1134da906562095cafb29f3643c1d94247ff78efedc9047b57');
  });

  test('the signed bytes are the header lines then the exact body, as an independent HMAC computes them', async () => {
    const text = `pb-wallet-1\nrequest\nPOST\n/wallet/debit\n1767225600\n${NONCE}\n${DEBIT_BODY}`;
    expect(new TextDecoder().decode(signedBytes(REQUEST))).toBe(text);
    const independent = createHmac('sha256', 'provider-secret').update(text).digest('hex');
    expect((await signWalletMessage('provider-secret', REQUEST))['PB-Signature']).toBe(independent);
  });

  test('a nonce or timestamp of the wrong shape is refused when signing', async () => {
    await expect(signWalletMessage('s', { ...REQUEST, nonce: 'short' })).rejects.toThrow(RangeError);
    await expect(signWalletMessage('s', { ...REQUEST, timestamp: 1.5 })).rejects.toThrow(RangeError);
  });
});

describe('verification: signature, window, nonce', () => {
  async function input(overrides: Partial<VerifyInput> = {}): Promise<VerifyInput> {
    const headers = await signWalletMessage('provider-secret', REQUEST);
    return {
      secret: 'provider-secret',
      direction: 'request',
      method: 'POST',
      path: '/wallet/debit',
      headers,
      body: DEBIT_BODY,
      now: 1767225600,
      nonceRefused: () => false,
      ...overrides,
    };
  }

  test('a good request verifies, with headers in any case', async () => {
    const good = await input();
    expect(await verifyWalletMessage(good)).toEqual({ ok: true, value: { timestamp: 1767225600, nonce: NONCE } });
    const lower = Object.fromEntries(Object.entries(good.headers as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]));
    expect((await verifyWalletMessage({ ...good, headers: lower })).ok).toBe(true);
    expect((await verifyWalletMessage({ ...good, headers: new Headers(lower) })).ok).toBe(true);
  });

  test('±5 minutes is accepted, one second more is stale_timestamp', async () => {
    for (const now of [1767225600 + 300, 1767225600 - 300]) expect((await verifyWalletMessage(await input({ now }))).ok).toBe(true);
    for (const now of [1767225600 + 301, 1767225600 - 301]) {
      const r = await verifyWalletMessage(await input({ now }));
      expect(r.ok ? '' : r.error.code).toBe('stale_timestamp');
    }
  });

  test('a reused nonce is refused, but only after the signature holds (a forger cannot burn nonces)', async () => {
    const seen = new Set<string>();
    const nonceRefused = (n: string) => (seen.has(n) ? true : (seen.add(n), false));
    expect((await verifyWalletMessage(await input({ nonceRefused }))).ok).toBe(true);
    const again = await verifyWalletMessage(await input({ nonceRefused }));
    expect(again.ok ? '' : again.error.code).toBe('nonce_reused');
    const forged = await input({ nonceRefused: () => expect.unreachable('the nonce store is not asked for a forgery') });
    const r = await verifyWalletMessage({ ...forged, body: DEBIT_BODY.replace('2500', '25000') });
    expect(r.ok ? '' : r.error.code).toBe('bad_signature');
  });

  test('each signed part matters: body byte, path, method, direction, secret, timestamp, nonce', async () => {
    const good = await input();
    const cases: Partial<VerifyInput>[] = [
      { body: DEBIT_BODY + ' ' },
      { path: '/wallet/credit' },
      { method: 'PUT' },
      { direction: 'answer' },
      { secret: 'operator-secret' },
      { headers: { ...(good.headers as Record<string, string>), 'PB-Timestamp': '1767225601' } },
      { headers: { ...(good.headers as Record<string, string>), 'PB-Nonce': NONCE.replace('0', '1') } },
    ];
    for (const c of cases) {
      const r = await verifyWalletMessage({ ...good, ...c });
      expect(r.ok ? '' : r.error.code, JSON.stringify(c)).toBe('bad_signature');
    }
  });

  test('missing and malformed headers have their own codes', async () => {
    const good = await input();
    const h = good.headers as Record<string, string>;
    const { 'PB-Signature': _s, ...noSignature } = h;
    const missing = await verifyWalletMessage({ ...good, headers: noSignature });
    expect(missing.ok ? '' : missing.error.code).toBe('missing_signature');
    for (const bad of [{ 'PB-Signature': 'ABC' }, { 'PB-Timestamp': '-5' }, { 'PB-Timestamp': '1e9' }, { 'PB-Nonce': 'x' }]) {
      const r = await verifyWalletMessage({ ...good, headers: { ...h, ...bad } });
      expect(r.ok ? '' : r.error.code, JSON.stringify(bad)).toBe('malformed_signature');
    }
  });
});

describe('transaction ids (WALLET.md "Transaction ids")', () => {
  test('the worked example', async () => {
    const key = { operatorId: 'demo', sessionId: 's-7f3a', shoe: 1, round: 12 } as const;
    expect(transactionIdPreimage({ ...key, kind: 'debit' })).toBe('pb-wallet-tx-1\ndemo\ns-7f3a\n1\n12\ndebit');
    expect(await walletTransactionId({ ...key, kind: 'debit' })).toEqual({ ok: true, value: 'pbw1-40b4b41da353574977eb80a79251c868' });
    expect(await walletTransactionId({ ...key, kind: 'credit' })).toEqual({ ok: true, value: 'pbw1-e0dcca8e62daec29e58bfa7b877c23a4' });
    expect(await walletTransactionId({ ...key, kind: 'rollback' })).toEqual({ ok: true, value: 'pbw1-b919fcd64d3c4a755dafc1b11d552c27' });
    expect(walletRoundId('s-7f3a', 1, 12)).toEqual({ ok: true, value: 's-7f3a/1/12' });
  });

  test('every field changes the id; bad keys are refused with a code', async () => {
    const base = { operatorId: 'demo', sessionId: 's-7f3a', shoe: 1, round: 12, kind: 'debit' } as const;
    const ids = new Set<string>();
    for (const k of [
      base,
      { ...base, operatorId: 'demo2' },
      { ...base, sessionId: 's-7f3b' },
      { ...base, shoe: 2 },
      { ...base, round: 13 },
      { ...base, kind: 'credit' as const },
    ]) {
      const r = await walletTransactionId(k);
      if (r.ok) ids.add(r.value);
    }
    expect(ids.size).toBe(6);
    for (const bad of [
      { ...base, sessionId: 'a\nb' },
      { ...base, operatorId: '' },
      { ...base, round: -1 },
      { ...base, shoe: 1.5 },
      { ...base, kind: 'bet' as 'debit' },
    ]) {
      const r = await walletTransactionId(bad);
      expect(r.ok ? '' : r.error.code).toBe('bad_transaction_key');
    }
  });
});
