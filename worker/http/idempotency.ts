/**
 * Idempotency: every request that changes state carries an `Idempotency-Key`. The object that
 * owns the state stores, with the change and in the same transaction, the key, a hash of the
 * request and the answer; a retry with the same key and the same request gets that answer again,
 * with another request a 409. Only successful answers are kept: a refused request changed
 * nothing, so its key stays free for the corrected request.
 *
 * The request hash covers the operation and the validated body in the records' canonical JSON
 * (shared/fairness/common/encoding.ts: object keys sorted), so formatting differences in the JSON do not
 * count as "another body".
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { canonicalJson } from '../../shared/fairness/common/encoding.ts';

/** 1–64 printable ASCII characters, no spaces (a UUID fits). */
const KEY = /^[\x21-\x7e]{1,64}$/;

export function isIdempotencyKey(value: string | null | undefined): value is string {
  return typeof value === 'string' && KEY.test(value);
}

/**
 * Hex SHA-256 of the operation name and the canonical body. A body canonical JSON refuses (a
 * fraction, a lone surrogate) is one the engine refuses too, and refusals are never stored, so
 * its hash only has to differ from every stored one: its plain JSON, marked, does.
 */
export function requestHash(operation: string, body: unknown): string {
  let text: string;
  try {
    text = canonicalJson(body);
  } catch {
    text = `~${JSON.stringify(body)}`;
  }
  return bytesToHex(sha256(utf8ToBytes(`${operation}\n${text}`)));
}
