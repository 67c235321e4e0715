/**
 * Idempotency: every request that changes state carries an `Idempotency-Key`. The object that
 * owns the state stores, with the change and in the same transaction, the key, a hash of the
 * request and the answer; a retry with the same key and the same request gets that answer again,
 * with another request a 409. Only successful answers are kept: a refused request changed
 * nothing, so its key stays free for the corrected request.
 *
 * The request hash covers the operation and the validated body in a canonical form (object keys
 * sorted), so formatting differences in the JSON do not count as "another body".
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/** 1–64 printable ASCII characters, no spaces (a UUID fits). */
const KEY = /^[\x21-\x7e]{1,64}$/;

export function isIdempotencyKey(value: string | null | undefined): value is string {
  return typeof value === 'string' && KEY.test(value);
}

/** JSON with object keys sorted at every level: one text per value. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** Hex SHA-256 of the operation name and the canonical body. */
export function requestHash(operation: string, body: unknown): string {
  return bytesToHex(sha256(utf8ToBytes(`${operation}\n${canonicalJson(body)}`)));
}
