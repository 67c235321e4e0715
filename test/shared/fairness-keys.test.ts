import { describe, expect, test } from 'vitest';
import { generateSigningKey, importSigningKey, importVerifyKeys, jwkThumbprint, fair1RecordDigest, signFair1Record, verifyBytes } from '../../shared/index.ts';
import { testPrivateJwk } from './fairness-fixtures.ts';

describe('Ed25519 keys (WebCrypto)', () => {
  test('a generated key signs records its public JWK verifies; the private JWK re-imports to the same key', async () => {
    const { key, privateJwk } = await generateSigningKey();
    expect(key.publicJwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig', kid: key.keyId });
    expect(key.keyId).toBe(jwkThumbprint({ x: key.publicJwk.x! }));
    expect(privateJwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519', x: key.publicJwk.x, kid: key.keyId });
    const body = { type: 'start', n: 1 };
    const signed = await signFair1Record(body, key);
    const again = await signFair1Record(body, await importSigningKey(privateJwk));
    expect(again).toEqual(signed); // Ed25519 is deterministic
    const keys = await importVerifyKeys({ keys: [key.publicJwk] });
    expect(await verifyBytes(keys.byId.get(key.keyId)!, signed.signature, fair1RecordDigest(body))).toBe(true);
    expect(await verifyBytes(keys.byId.get(key.keyId)!, signed.signature, fair1RecordDigest({ ...body, n: 2 }))).toBe(false);
  });

  test('a named key keeps its name', async () => {
    const { key, privateJwk } = await generateSigningKey('2025-01');
    expect(key.keyId).toBe('2025-01');
    expect((await importSigningKey(privateJwk)).keyId).toBe('2025-01');
  });

  test('a private JWK whose x is not the public key of its d is refused', async () => {
    const { privateJwk: other } = await generateSigningKey();
    await expect(importSigningKey({ ...testPrivateJwk, x: other.x })).rejects.toThrow(/not the public key/);
    await expect(importSigningKey({ ...testPrivateJwk, crv: 'P-256' })).rejects.toThrow(TypeError);
    await expect(importSigningKey({ ...testPrivateJwk, d: 'short' })).rejects.toThrow(TypeError);
  });

  test('a JWKS: other key types skipped, kid-less keys known by thumbprint, the first of two equal kids wins', async () => {
    const a = (await generateSigningKey('same')).key;
    const b = (await generateSigningKey('same')).key;
    const c = (await generateSigningKey()).key;
    const { kid: _, ...noKid } = c.publicJwk as JsonWebKey & { kid?: string };
    const keys = await importVerifyKeys({
      keys: [{ kty: 'RSA', kid: 'rsa', n: 'x', e: 'AQAB' } as JsonWebKey, a.publicJwk, b.publicJwk, noKid, { kty: 'OKP', crv: 'Ed25519', x: 'bad' }],
    });
    expect([...keys.byId.keys()].sort()).toEqual([c.keyId, 'same'].sort());
    expect(keys.skipped.map((s) => s.reason)).toEqual(['not an Ed25519 key', 'another key in the JWKS has the same kid', '"x" is not 32 bytes of base64url']);
    const signed = await signFair1Record({ type: 'x' }, a);
    expect(await verifyBytes(keys.byId.get('same')!, signed.signature, fair1RecordDigest({ type: 'x' }))).toBe(true);
  });
});
