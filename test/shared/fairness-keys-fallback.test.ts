/**
 * Without WebCrypto (a browser gives `crypto.subtle` only to secure pages), keys are made, signed
 * with and verified through @noble/ed25519, and both paths agree byte for byte.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { generateSigningKey, importSigningKey, importVerifyKeys, signBytes, utf8Bytes, verifyBytes } from '../../shared/index.ts';
import { importPlayerKey } from '../../shared/fairness/pb-fair-2/records.ts';

const webCrypto = globalThis.crypto;
/** A plain-http page: random numbers, no `subtle`. */
const insecurePage = () => vi.stubGlobal('crypto', { getRandomValues: (a: Uint8Array) => webCrypto.getRandomValues(a) });

afterEach(() => vi.unstubAllGlobals());

describe('Ed25519 without WebCrypto', () => {
  test('a key made without WebCrypto signs what WebCrypto verifies, and the reverse', async () => {
    const message = utf8Bytes('pb-fair-2/request\n{"type":"bet"}');
    insecurePage();
    const { key, privateJwk } = await generateSigningKey();
    expect(key.privateKey).toBeInstanceOf(Uint8Array);
    const signature = await signBytes(key, message);
    vi.unstubAllGlobals();
    const viaWebCrypto = await importVerifyKeys({ keys: [key.publicJwk] });
    expect(await verifyBytes(viaWebCrypto.byId.get(key.keyId)!, signature, message)).toBe(true);
    // The same JWK imported through WebCrypto signs identically (Ed25519 is deterministic).
    const sameKey = await importSigningKey(privateJwk);
    expect(await signBytes(sameKey, message)).toBe(signature);

    const webSigned = await signBytes(sameKey, message);
    insecurePage();
    const viaNoble = await importVerifyKeys({ keys: [key.publicJwk] });
    expect(viaNoble.byId.get(key.keyId)).toBeInstanceOf(Uint8Array);
    expect(await verifyBytes(viaNoble.byId.get(key.keyId)!, webSigned, message)).toBe(true);
    expect(await verifyBytes(viaNoble.byId.get(key.keyId)!, webSigned, utf8Bytes('another message'))).toBe(false);
  });

  test('a stored key whose x does not match its d is refused there too', async () => {
    const a = (await generateSigningKey()).privateJwk;
    const b = (await generateSigningKey()).privateJwk;
    insecurePage();
    await expect(importSigningKey({ ...a, x: b.x })).rejects.toThrow(/not the public key/);
    expect(await importSigningKey(a)).toMatchObject({ keyId: (a as { kid: string }).kid });
  });

  test('a player key from a commitment is imported as raw bytes, and a bad one is null', async () => {
    insecurePage();
    const { key } = await generateSigningKey();
    expect(await importPlayerKey((key.publicJwk as { x: string }).x)).toBeInstanceOf(Uint8Array);
    expect(await importPlayerKey('not-a-key')).toBeNull();
  });
});
