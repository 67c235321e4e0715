/**
 * Structural checks of untrusted transcripts (JSON from a file or the network) before anything
 * reads them: every record has exactly the members FAIRNESS.md lists, with JSON types that fit.
 * Values are judged later by the verifier (a wrong outcome is `outcome_mismatch`, not a shape error);
 * here only types, the record `type` tags and the timestamp format. Returns a message or null.
 */

import { BASE_CHECKS, roundFactChecks, type ShapeCheck as Check } from '../common/shape-checks.ts';

const { str, bool, nullable, arr } = BASE_CHECKS;
const int: Check = (v, p) => (typeof v === 'number' && Number.isSafeInteger(v) ? null : `${p} must be a whole number`);
const literal =
  (expected: string): Check =>
  (v, p) =>
    v === expected ? null : `${p} must be "${expected}", got ${JSON.stringify(v) ?? 'nothing'}`;

/** RFC 3339 UTC time as `Date.prototype.toISOString` writes it (fraction optional). */
export const FAIR1_ISSUED_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;
const time: Check = (v, p) =>
  typeof v === 'string' && FAIR1_ISSUED_AT.test(v) && !Number.isNaN(Date.parse(v)) ? null : `${p} must be a UTC time like 2025-01-31T12:00:00.000Z`;

function obj(required: Record<string, Check>, optional: Record<string, Check> = {}): Check {
  return (v, p) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return `${p} must be an object`;
    const o = v as Record<string, unknown>;
    for (const key of Object.keys(o)) {
      if (!Object.hasOwn(required, key) && !Object.hasOwn(optional, key)) return `${p} has an unknown member "${key}"`;
    }
    for (const [key, check] of Object.entries(required)) {
      if (!Object.hasOwn(o, key) || o[key] === undefined) return `${p}.${key} is missing`;
      const e = check(o[key], `${p}.${key}`);
      if (e) return e;
    }
    for (const [key, check] of Object.entries(optional)) {
      if (o[key] === undefined) continue;
      const e = check(o[key], `${p}.${key}`);
      if (e) return e;
    }
    return null;
  };
}

const params = obj({ decks: int, burn: bool, cutCardFromEnd: int, mode: str, algorithm: str });
const limits = obj({ min: int, max: int, step: int, chips: arr(int) });
const bet = obj({ sector: int, box: str, amount: int });
const card = obj({ code: str, position: int, hand: str });
const payout = obj({ sector: int, box: str, amount: int, result: str, returned: int, net: int });

const BODIES: Record<'commitment' | 'start' | 'receipt' | 'reveal', Check> = {
  commitment: obj({ type: literal('commitment'), table: str, shoe: int, params, serverSeedHash: str, prev: nullable(str), issuedAt: time }, { limits }),
  start: obj({ type: literal('start'), table: str, shoe: int, clientSeed: str, cut: int, prev: str, issuedAt: time }),
  receipt: obj({
    type: literal('receipt'),
    table: str,
    shoe: int,
    round: int,
    affiliate: nullable(str),
    bets: arr(bet),
    cards: arr(card),
    ...roundFactChecks(int),
    payouts: arr(payout),
    staked: int,
    returned: int,
    balanceBefore: int,
    balanceAfter: int,
    cutCardOut: bool,
    prev: str,
    issuedAt: time,
  }),
  reveal: obj({ type: literal('reveal'), table: str, shoe: int, serverSeed: str, rounds: int, reason: str, prev: str, issuedAt: time }),
};

/** Checks a signed record's envelope: a body object, and hash, keyId and signature strings. */
export function fair1EnvelopeShapeError(value: unknown, path: string): string | null {
  const object: Check = (v, p) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? null : `${p} must be an object`);
  return obj({ body: object, hash: str, keyId: str, signature: str })(value, path);
}

/** Checks one signed record's envelope and body shape. */
export function fair1SignedShapeError(value: unknown, type: keyof typeof BODIES, path: string): string | null {
  return obj({ body: BODIES[type], hash: str, keyId: str, signature: str })(value, path);
}

/** Checks the transcript's own members (records are checked one by one with `fair1SignedShapeError`). */
export function fair1TranscriptShapeError(value: unknown): string | null {
  const any: Check = () => null;
  return obj({ version: literal('pb-fair-1'), commitment: any, receipts: arr(any) }, { start: any, reveal: any })(value, 'transcript');
}
