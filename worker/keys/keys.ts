/**
 * The signing key and the published keys.
 *
 * Production: the `SIGNING_KEY` secret holds the Ed25519 private key as a JWK (with `d`, `x` and
 * `kid`); `RETIRED_PUBLIC_KEYS` (optional) holds the public JWKs of keys no longer used to sign,
 * which stay in the JWKS so that old receipts still verify. DEPLOY.md "The signing key" says how to generate
 * and rotate them.
 *
 * Zero-config development: without `SIGNING_KEY`, a key is generated once and kept in the storage
 * of one dedicated Durable Object (`KeyStore`, named "keys"); under `wrangler dev` that is the
 * local state in `.wrangler/`, so the key survives restarts and old transcripts keep verifying.
 */
import { DurableObject } from 'cloudflare:workers';
import { generateSigningKey, importSigningKey, type Jwks, type SigningKey } from '../../shared/index.ts';
import type { Env } from '../config/env.ts';

/** The one KeyStore object. */
export const KEYSTORE_NAME = 'keys';

/** Keeps the local development key. Only used when no `SIGNING_KEY` secret is set. */
export class KeyStore extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(`CREATE TABLE IF NOT EXISTS dev_key (id INTEGER PRIMARY KEY CHECK (id = 1), private_jwk TEXT NOT NULL, created_at TEXT NOT NULL)`);
  }

  /** The local private key (JWK), created on first use. */
  async devKey(): Promise<JsonWebKey> {
    const existing = this.#read();
    if (existing) return existing;
    // Generation awaits WebCrypto: hold other calls so that only one key is ever made.
    return this.ctx.blockConcurrencyWhile(async () => {
      const again = this.#read();
      if (again) return again;
      const { key, privateJwk } = await generateSigningKey();
      this.ctx.storage.sql.exec(`INSERT INTO dev_key (id, private_jwk, created_at) VALUES (1, ?, ?)`, JSON.stringify(privateJwk), new Date().toISOString());
      console.log(
        `punto-banco: no SIGNING_KEY secret is set, so a local signing key (kid ${key.keyId}) was generated and kept in this Durable Object's local storage. ` +
          'Set SIGNING_KEY in production (DEPLOY.md "The signing key").',
      );
      return privateJwk;
    });
  }

  #read(): JsonWebKey | null {
    const row = this.ctx.storage.sql.exec<{ private_jwk: string }>(`SELECT private_jwk FROM dev_key WHERE id = 1`).toArray()[0];
    return row ? (JSON.parse(row.private_jwk) as JsonWebKey) : null;
  }
}

let cached: { source: string; key: Promise<SigningKey> } | null = null;

/** The key that signs new records, imported once per isolate. */
export function signingKey(env: Env): Promise<SigningKey> {
  const source = env.SIGNING_KEY ?? '(dev)';
  if (cached?.source !== source) {
    const key = loadSigningKey(env);
    cached = { source, key };
    // A failed load (a malformed secret, a passing fault) is retried on the next request.
    key.catch(() => {
      if (cached?.key === key) cached = null;
    });
  }
  return cached.key;
}

async function loadSigningKey(env: Env): Promise<SigningKey> {
  if (env.SIGNING_KEY !== undefined) {
    let jwk: JsonWebKey;
    try {
      jwk = JSON.parse(env.SIGNING_KEY) as JsonWebKey;
    } catch {
      throw new Error('the SIGNING_KEY secret is not JSON: it must be an Ed25519 private JWK (DEPLOY.md "The signing key")');
    }
    return importSigningKey(jwk);
  }
  const privateJwk = await env.KEYS.getByName(KEYSTORE_NAME).devKey();
  return importSigningKey(privateJwk);
}

/** Public keys no longer used to sign, from `RETIRED_PUBLIC_KEYS`; a malformed value is logged and ignored. */
export function retiredKeys(env: Env): JsonWebKey[] {
  const raw = env.RETIRED_PUBLIC_KEYS?.trim();
  if (!raw) return [];
  try {
    const parsed = JSON.parse(raw) as unknown;
    const list = Array.isArray(parsed) ? parsed : (parsed as { keys?: unknown }).keys;
    if (!Array.isArray(list)) throw new Error('expected [jwk, …] or { "keys": [jwk, …] }');
    return list.filter((k): k is JsonWebKey => typeof k === 'object' && k !== null && !('d' in k)).map(publicOnly);
  } catch (err) {
    console.error(`punto-banco: RETIRED_PUBLIC_KEYS ignored: ${(err as Error).message}`);
    return [];
  }
}

/** Only the public members of a JWK: a private `d` must never be published, whatever was configured. */
function publicOnly(jwk: JsonWebKey & { kid?: string }): JsonWebKey {
  const { kty, crv, x, kid, alg, use } = jwk as unknown as Record<string, string | undefined>;
  return Object.fromEntries(Object.entries({ kty, crv, x, kid, alg, use }).filter(([, v]) => v !== undefined)) as unknown as JsonWebKey;
}

/** The JWKS: the current key first, then the retired ones (each kid once). */
export async function jwks(env: Env): Promise<Jwks> {
  const current = await signingKey(env);
  const keys: JsonWebKey[] = [publicOnly(current.publicJwk)];
  const seen = new Set([current.keyId]);
  for (const k of retiredKeys(env)) {
    const kid = (k as { kid?: string }).kid;
    if (kid === undefined || seen.has(kid)) continue;
    seen.add(kid);
    keys.push(k);
  }
  return { keys };
}
