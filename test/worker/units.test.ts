/** The Worker's small pure parts: tokens, idempotency hashing, token buckets, the schema migrations. */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, test } from 'vitest';
import { canonicalJson } from '../../shared/index.ts';
import { isIdempotencyKey, requestHash } from '../../worker/http/idempotency.ts';
import { addressKey, KeyedBuckets, TokenBucket } from '../../worker/http/limits.ts';
import { migrate, MIGRATIONS, SCHEMA_VERSION, schemaVersion } from '../../worker/session/schema.ts';
import { bearer, constantTimeEqual, isSessionId, matchesAny, newSessionId, newToken, tokenHash, tokenSession } from '../../worker/http/tokens.ts';
import { api } from './helpers.ts';

const counter = () => {
  let i = 0;
  return (n: number) => Uint8Array.from({ length: n }, () => i++ % 256);
};

describe('tokens', () => {
  test('a session id is 22 base64url characters; a token names its session', () => {
    const random = counter();
    const id = newSessionId(random);
    expect(isSessionId(id)).toBe(true);
    const token = newToken(id, random);
    expect(token.startsWith(`${id}.`)).toBe(true);
    expect(tokenSession(token)).toBe(id);
    expect(tokenSession(`${id}.short`)).toBeNull();
    expect(tokenSession('x'.repeat(66))).toBeNull();
    expect(isSessionId('../etc/passwd')).toBe(false);
  });

  test('bearer parsing', () => {
    expect(bearer('Bearer abc')).toBe('abc');
    expect(bearer('bearer   abc ')).toBe('abc');
    expect(bearer('Basic abc')).toBeNull();
    expect(bearer('Bearer a b')).toBeNull();
    expect(bearer(undefined)).toBeNull();
  });

  test('hash comparison', () => {
    const h = tokenHash('t');
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(constantTimeEqual(h, tokenHash('t'))).toBe(true);
    expect(constantTimeEqual(h, tokenHash('u'))).toBe(false);
    expect(constantTimeEqual(h, h.slice(1))).toBe(false);
    expect(matchesAny(h, [tokenHash('a'), h, tokenHash('b')])).toBe(true);
    expect(matchesAny(h, [])).toBe(false);
  });
});

describe('idempotency', () => {
  test('canonical JSON sorts keys at every level', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }], e: undefined })).toBe('{"a":[{"c":3,"d":2}],"b":1}');
    expect(requestHash('round', { x: 1, y: 2 })).toBe(requestHash('round', { y: 2, x: 1 }));
    expect(requestHash('round', { x: 1 })).not.toBe(requestHash('start', { x: 1 }));
  });

  test('the request hash is the SHA-256 of the operation and the canonical body (stored hashes stay valid)', () => {
    const hash = requestHash('round', { bets: [{ sector: 0, box: 'tie', amount: 1000 }] });
    expect(hash).toBe('91f69874cfcc9a913162f5dc9831c885b50a854347db60e51157bb3198aa4611');
  });

  test('a body outside canonical JSON (a fraction, a lone surrogate) still hashes, differently', () => {
    const fraction = requestHash('round', { bets: [{ sector: 0, box: 'tie', amount: 0.5 }] });
    expect(fraction).toMatch(/^[0-9a-f]{64}$/);
    expect(fraction).not.toBe(requestHash('round', { bets: [{ sector: 0, box: 'tie', amount: 1 }] }));
    expect(requestHash('start', { clientSeed: '\ud800', cut: 1 })).not.toBe(requestHash('start', { clientSeed: '\ud801', cut: 1 }));
  });

  test('keys: 1–64 printable characters', () => {
    expect(isIdempotencyKey(crypto.randomUUID())).toBe(true);
    expect(isIdempotencyKey('')).toBe(false);
    expect(isIdempotencyKey('a b')).toBe(false);
    expect(isIdempotencyKey('k'.repeat(64))).toBe(true);
    expect(isIdempotencyKey('k'.repeat(65))).toBe(false);
    expect(isIdempotencyKey(null)).toBe(false);
  });
});

describe('token buckets', () => {
  test('burst, refill and the wait until the next token', () => {
    const b = new TokenBucket({ burst: 2, perSecond: 1 }, 0);
    expect(b.take(0).ok).toBe(true);
    expect(b.take(0).ok).toBe(true);
    const no = b.take(0);
    expect(no).toEqual({ ok: false, retryAfter: 1 });
    expect(b.take(500).ok).toBe(false);
    expect(b.take(1000).ok).toBe(true);
    expect(b.take(100_000).ok).toBe(true);
    expect(b.take(100_000).ok).toBe(true);
    expect(b.take(100_000).ok).toBe(false); // refill stops at the burst
  });

  test('keyed buckets forget the least recently used key first', () => {
    const k = new KeyedBuckets(2);
    const spec = { burst: 1, perSecond: 0.001 };
    expect(k.take('a', spec, 0).ok).toBe(true);
    expect(k.take('a', spec, 0).ok).toBe(false);
    k.take('b', spec, 0);
    k.take('c', spec, 0); // evicts a
    expect(k.take('a', spec, 0).ok).toBe(true);
  });
});

test('address keys: IPv4 as is, IPv6 by /64', () => {
  expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
  expect(addressKey('2001:db8:85a3:0000:1111:8a2e:0370:7334')).toBe('2001:db8:85a3:0::/64');
  expect(addressKey('2001:DB8:85A3::1')).toBe('2001:db8:85a3:0::/64');
  expect(addressKey('2001:db8::')).toBe('2001:db8:0:0::/64');
  expect(addressKey('::1')).toBe('0:0:0:0::/64');
  expect(addressKey('2001:db8:85a3:0:ffff::1')).toBe(addressKey('2001:db8:85a3:0:1::2'));
});

describe('schema', () => {
  test('a name never created stays empty: reading it creates no table', async () => {
    const id = 'C'.repeat(22);
    const r = await api('GET', `/api/sessions/${id}`, { token: `${id}.${'A'.repeat(43)}` });
    expect(r.status).toBe(404);
    await runInDurableObject(env.TABLES.getByName(id), (_t, state) => {
      expect(schemaVersion(state.storage.sql)).toBe(0);
      expect(state.storage.sql.exec(`SELECT name FROM sqlite_master WHERE type = 'table'`).toArray()).toEqual([]);
    });
  });

  test('migrations run once, record the version, and refuse a newer database', async () => {
    await runInDurableObject(env.TABLES.getByName('schema-test'), (_t, state) => {
      const sql = state.storage.sql;
      expect(state.storage.transactionSync(() => migrate(sql))).toBe(SCHEMA_VERSION);
      expect(schemaVersion(sql)).toBe(MIGRATIONS.length);
      expect(state.storage.transactionSync(() => migrate(sql))).toBe(SCHEMA_VERSION); // idempotent
      // A later migration applies on top, in its own transaction.
      const next = [...MIGRATIONS, ['CREATE TABLE extra (x INTEGER)']];
      state.storage.transactionSync(() => migrate(sql, next));
      expect(schemaVersion(sql)).toBe(MIGRATIONS.length + 1);
      // This code cannot run on a database from the future.
      expect(() => state.storage.transactionSync(() => migrate(sql))).toThrow(/newer than this code/);
      // A migration that fails half-way leaves nothing behind.
      const broken = [...next, ['CREATE TABLE half (x INTEGER)', 'THIS IS NOT SQL']];
      expect(() => state.storage.transactionSync(() => migrate(sql, broken))).toThrow();
      expect(schemaVersion(sql)).toBe(MIGRATIONS.length + 1);
      expect(sql.exec(`SELECT name FROM sqlite_master WHERE name = 'half'`).toArray()).toEqual([]);
    });
  });
});
