/**
 * Bytes in and out: UTF-8, lowercase hex, unpadded base64url, big-endian words, and the canonical
 * JSON that every signed record is hashed over (FAIRNESS.md §"Canonical JSON").
 *
 * Canonical JSON is RFC 8785 (JCS) restricted to the values our records hold: null, booleans, safe
 * integers, strings without lone surrogates, arrays, and objects whose members are sorted by key
 * (UTF-16 code units, as JCS says; every key we use is ASCII, so this is plain byte order). No
 * whitespace anywhere. Anything outside that subset (fractions, NaN, undefined in an array, a
 * function, a lone surrogate) is refused, never silently rounded or dropped, so two honest
 * implementations can never hash different bytes for the same record.
 */

const encoder = new TextEncoder();

/** UTF-8 bytes of a string. */
export function utf8Bytes(text: string): Uint8Array<ArrayBuffer> {
  // Always a fresh ArrayBuffer; some runtime typings (workers-types) say ArrayBufferLike.
  return encoder.encode(text) as Uint8Array<ArrayBuffer>;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** Lowercase hex of bytes. */
export function bytesToHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += HEX[b]!;
  return out;
}

/** The value of each lowercase hex digit by char code, -1 for anything else. */
const HEX_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) HEX_VALUE['0123456789abcdef'.charCodeAt(i)] = i;

/** Bytes of a lowercase hex string; null if it is not even-length lowercase hex. */
export function hexToBytes(hex: string): Uint8Array<ArrayBuffer> | null {
  if (hex.length % 2 !== 0) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) {
    const hi = HEX_VALUE[hex.charCodeAt(2 * i)] ?? -1;
    const lo = HEX_VALUE[hex.charCodeAt(2 * i + 1)] ?? -1;
    if (hi < 0 || lo < 0) return null;
    out[i] = (hi << 4) | lo;
  }
  return out;
}

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** The value of each base64url character by char code, -1 for anything else. */
const B64URL_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 64; i++) B64URL_VALUE[B64URL.charCodeAt(i)] = i;

/** RFC 4648 §5 base64url without padding. */
export function bytesToBase64url(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += B64URL[n >> 18]! + B64URL[(n >> 12) & 63]! + B64URL[(n >> 6) & 63]! + B64URL[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += B64URL[n >> 18]! + B64URL[(n >> 12) & 63]!;
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += B64URL[n >> 18]! + B64URL[(n >> 12) & 63]! + B64URL[(n >> 6) & 63]!;
  }
  return out;
}

/**
 * Bytes of unpadded base64url; null unless the text is the canonical encoding of some bytes
 * (no padding, no other alphabet, unused trailing bits zero), so one signature has one spelling.
 */
export function base64urlToBytes(text: string): Uint8Array<ArrayBuffer> | null {
  if (text.length % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((text.length * 6) / 8));
  let acc = 0;
  let bits = 0;
  let j = 0;
  for (let i = 0; i < text.length; i++) {
    const six = B64URL_VALUE[text.charCodeAt(i)] ?? -1;
    if (six < 0) return null;
    acc = (acc << 6) | six;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[j++] = (acc >> bits) & 0xff;
    }
  }
  if ((acc & ((1 << bits) - 1)) !== 0) return null;
  return out;
}

/** Four bytes, big-endian, of an unsigned 32-bit integer. */
export function u32be(n: number): Uint8Array<ArrayBuffer> {
  if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) throw new RangeError(`${n} is not an unsigned 32-bit integer`);
  return new Uint8Array([n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]);
}

/** The concatenation of byte strings. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  let size = 0;
  for (const p of parts) size += p.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const ANY_SURROGATE = /[\uD800-\uDFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A string that UTF-8 can encode: no unpaired UTF-16 surrogate. */
export function isWellFormed(text: string): boolean {
  return !ANY_SURROGATE.test(text) || !LONE_SURROGATE.test(text);
}

/** A value canonical JSON can encode. */
export type CanonicalValue = null | boolean | number | string | readonly CanonicalValue[] | { readonly [key: string]: CanonicalValue | undefined };

/**
 * The canonical JSON text of a value (see the module comment). Object members whose value is
 * `undefined` are absent, exactly as after a JSON round trip. Throws RangeError on anything else,
 * naming where the offending value sits.
 */
export function canonicalJson(value: unknown): string {
  const text = encode(value);
  if (text === undefined) throw new RangeError(problemAt(value, '$') ?? 'no canonical JSON form');
  return text;
}

/** What JSON.stringify escapes in a well-formed string, and any surrogate (a pair is fine, a lone one refused). */
const ESCAPED_OR_SURROGATE = /["\\\u0000-\u001f\uD800-\uDFFF]/;

/** The hot path: no bookkeeping, undefined on the first value outside the subset. */
function encode(value: unknown): string | undefined {
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return Number.isSafeInteger(value) ? String(value) : undefined; // String(-0) is "0", as in JCS
    case 'string':
      // Most strings need no escape and hold no surrogate: quoted as they are.
      if (!ESCAPED_OR_SURROGATE.test(value)) return `"${value}"`;
      // ECMAScript's string serialisation is exactly JCS's: \" \\ \b \t \n \f \r, other C0 as \u00xx.
      return isWellFormed(value) ? JSON.stringify(value) : undefined;
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) {
          const item = value[i] === undefined ? undefined : encode(value[i]);
          if (item === undefined) return undefined;
          out += i === 0 ? item : `,${item}`;
        }
        return `${out}]`;
      }
      if (!isPlainObject(value)) return undefined;
      // Default sort compares UTF-16 code units: JCS member order.
      const keys = Object.keys(value).sort();
      let out = '{';
      let first = true;
      for (const key of keys) {
        const v = value[key];
        if (v === undefined) continue;
        const item = encode(v);
        const quoted = quotedKey(key);
        if (item === undefined || quoted === undefined) return undefined;
        out += `${first ? '' : ','}${quoted}:${item}`;
        first = false;
      }
      return `${out}}`;
    }
    default:
      return undefined;
  }
}

/** Record bodies repeat the same few dozen member names: quote each once (only well-formed ones are kept). */
const QUOTED_KEYS = new Map<string, string>();

/** The quoted member name, or undefined if it holds a lone surrogate. */
function quotedKey(key: string): string | undefined {
  let q = QUOTED_KEYS.get(key);
  if (q === undefined) {
    if (!isWellFormed(key)) return undefined;
    q = JSON.stringify(key);
    if (QUOTED_KEYS.size < 1024) QUOTED_KEYS.set(key, q);
  }
  return q;
}

/** The slow path, only after a failure: what is wrong and where. */
function problemAt(value: unknown, path: string): string | null {
  if (value === null || typeof value === 'boolean') return null;
  if (typeof value === 'number') return Number.isSafeInteger(value) ? null : `${path}: ${value} is not a safe integer; records hold integers only`;
  if (typeof value === 'string') return isWellFormed(value) ? null : `${path}: the string holds an unpaired surrogate`;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const p = value[i] === undefined ? `${path}[${i}]: undefined has no JSON form` : problemAt(value[i], `${path}[${i}]`);
      if (p) return p;
    }
    return null;
  }
  if (isPlainObject(value)) {
    for (const [key, v] of Object.entries(value)) {
      if (!isWellFormed(key)) return `${path}: a key holds an unpaired surrogate`;
      const p = v === undefined ? null : problemAt(v, `${path}.${key}`);
      if (p) return p;
    }
    return null;
  }
  return `${path}: a ${typeof value} has no canonical JSON form`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
