/**
 * Session ids and bearer tokens.
 *
 * A session id is 16 random bytes (128 bits) in base64url: unguessable, and safe in a URL path.
 * A bearer token is `<sessionId>.<secret>` where the secret is 32 random bytes in base64url. The
 * session id inside the token is not secret; it only lets the Worker tell "a token for another
 * table" (403) from "no valid token" (401) without a global index. The table stores only the
 * SHA-256 of the whole token and compares hashes in constant time.
 *
 * Randomness comes in as `randomBytes`; only the shell calls `crypto.getRandomValues`.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { base64urlToBytes } from '../../shared/fairness/common/encoding.ts';

export type RandomBytes = (n: number) => Uint8Array;

const SESSION_ID = /^[A-Za-z0-9_-]{22}$/;
const TOKEN = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

export function base64url(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function newSessionId(randomBytes: RandomBytes): string {
  return base64url(randomBytes(16));
}

export function newToken(sessionId: string, randomBytes: RandomBytes): string {
  return `${sessionId}.${base64url(randomBytes(32))}`;
}

export function isSessionId(text: string): boolean {
  return SESSION_ID.test(text);
}

/** The session a well-formed token was issued for, or null when it is not a token at all. */
export function tokenSession(token: string): string | null {
  const m = TOKEN.exec(token);
  return m ? m[1]! : null;
}

/** The bearer token of an `Authorization` header value, or null. */
export function bearer(header: string | null | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer[ ]+(\S+)[ ]*$/i.exec(header);
  return m ? m[1]! : null;
}

/** Hex SHA-256 of a token: what the table stores and compares. */
export function tokenHash(token: string): string {
  return bytesToHex(sha256(utf8ToBytes(token)));
}

/** Constant-time equality of two strings of the same length (hex digests); false when lengths differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** Whether `candidate` equals any of `known`, looking at every entry whatever matches. */
export function matchesAny(candidate: string, known: readonly string[]): boolean {
  let found = false;
  for (const k of known) found = constantTimeEqual(candidate, k) || found;
  return found;
}

/**
 * A WebSocket ticket (shared tables): `t.<sessionId>.<secret>`, 32 random bytes of secret. Short-
 * lived and single-use, scoped to one table: what a browser puts in the upgrade URL instead of the
 * session token (URLs end up in logs). The session object keeps only its hash.
 */
export const TICKET_TTL_MS = 30_000;
const TICKET = /^t\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

export function newTicket(sessionId: string, randomBytes: RandomBytes): string {
  return `t.${sessionId}.${base64url(randomBytes(32))}`;
}

/** The session a well-formed ticket was issued by, or null when it is not a ticket. */
export function ticketSession(ticket: string): string | null {
  const m = TICKET.exec(ticket);
  return m ? m[1]! : null;
}

/**
 * A launch token (wallet mode, WALLET.md "The launch"): `l.<operator>.<secret>`, the operator's id
 * in base64url (so that the Worker finds the operator's object that keeps it without a global
 * index; not secret) and 32 random bytes of secret. Single use, `LAUNCH_TOKEN_TTL_MS`; the
 * operator's object keeps only its SHA-256.
 */
export const LAUNCH_TOKEN_TTL_MS = 120_000;
/** The form of a launch token (what a URL may carry), whether or not it names a real operator. */
export const LAUNCH_TOKEN_FORM = /^l\.([A-Za-z0-9_-]{2,172})\.([A-Za-z0-9_-]{43})$/;

export function newLaunchToken(operatorId: string, randomBytes: RandomBytes): string {
  return `l.${base64url(new TextEncoder().encode(operatorId))}.${base64url(randomBytes(32))}`;
}

/** The operator a well-formed launch token names, or null when it is not a launch token. */
export function launchTokenOperator(token: string): string | null {
  const m = LAUNCH_TOKEN_FORM.exec(token);
  const bytes = m ? base64urlToBytes(m[1]!) : null;
  if (bytes === null) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return null;
  }
}
