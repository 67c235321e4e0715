/**
 * pb-fair-2 shapes (FAIRNESS.md §B1, §B8): every object at every level has exactly the listed
 * members (optional ones absent, never null), with the right JSON types; timestamps are exactly
 * YYYY-MM-DDTHH:MM:SS.sssZ, a real UTC time from 2000 to 9999; hashes are 64 lowercase hex.
 * Values are judged later by the verifier. Returns a message or null.
 */

import { BASE_CHECKS, roundFactChecks, type ShapeCheck as Check } from '../common/shape-checks.ts';

const { str, bool, nullable, arr } = BASE_CHECKS;
const int: Check = (v, p) => (typeof v === 'number' && Number.isSafeInteger(v) ? null : `${p} must be an integer`);
const nonNeg: Check = (v, p) => int(v, p) ?? ((v as number) < 0 ? `${p} must not be negative` : null);
const hex64: Check = (v, p) => (typeof v === 'string' && /^[0-9a-f]{64}$/.test(v) ? null : `${p} must be 64 lowercase hex characters`);
const objectish: Check = (v, p) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? null : `${p} must be an object`);
const literal =
  (e: string): Check =>
  (v, p) =>
    v === e ? null : `${p} must be "${e}"`;

const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Exactly YYYY-MM-DDTHH:MM:SS.sssZ, a real instant (no Feb 30, no second 60), years 2000–9999. */
export function isTimestamp(v: unknown): v is string {
  if (typeof v !== 'string' || !TIME.test(v) || v < '2000') return false;
  const t = Date.parse(v);
  return !Number.isNaN(t) && new Date(t).toISOString() === v;
}
const time: Check = (v, p) => (isTimestamp(v) ? null : `${p} must be a UTC time written exactly like 2025-01-31T12:00:00.000Z`);

export function obj(required: Record<string, Check>, optional: Record<string, Check> = {}): Check {
  // Listed once: a whole shoe's file runs these checks on thousands of objects.
  const requiredChecks = Object.entries(required);
  const optionalChecks = Object.entries(optional);
  return (v, p) => {
    const o0 = objectish(v, p);
    if (o0) return o0;
    const o = v as Record<string, unknown>;
    for (const key of Object.keys(o)) {
      if (!Object.hasOwn(required, key) && !Object.hasOwn(optional, key)) return `${p} has an unknown member "${key}"`;
    }
    for (const [key, check] of requiredChecks) {
      if (!Object.hasOwn(o, key)) return `${p}.${key} is missing`;
      const e = check(o[key], `${p}.${key}`);
      if (e) return e;
    }
    for (const [key, check] of optionalChecks) {
      if (!Object.hasOwn(o, key)) continue;
      const e = check(o[key], `${p}.${key}`);
      if (e) return e;
    }
    return null;
  };
}

const bet = obj({ sector: int, box: str, amount: int });
const card = obj({ code: str, position: int, hand: str });
const payout = obj({ sector: int, box: str, amount: int, result: str, returned: int, net: int });
const limits = obj({ min: int, max: int, step: int, chips: arr(int) });
const common = { table: str, shoe: int, keyId: str, issuedAt: time };
/** Wallet mode's members (§B15), each allowed only on its own record type. */
const wallet = obj({ operator: str, player: str, currency: str });
const debit = obj({ transaction: str, attempt: int, amount: nonNeg, balanceAfter: nonNeg });
const movement = obj({ transaction: str, amount: nonNeg });
const settled = { payouts: arr(payout), staked: int, returned: int, balanceBefore: nonNeg, balanceAfter: nonNeg };

const REQUESTS = {
  start: obj({ type: literal('start'), table: str, shoe: int, commitment: hex64, clientSeed: str, cut: int }),
  bet: obj({ type: literal('bet'), table: str, shoe: int, round: int, prev: hex64, bets: arr(bet), lock: hex64 }),
  secret: obj({ type: literal('secret'), table: str, shoe: int, round: int, acceptance: hex64, secret: str }),
  end: obj({ type: literal('end'), table: str, shoe: int, prev: hex64 }),
};
const signedRequest = (kind: keyof typeof REQUESTS): Check => obj({ body: REQUESTS[kind], signature: str });

/** A signed player request of the given type, as it arrives from the network: its shape, or why not. */
export function signedRequestShapeError(value: unknown, kind: 'start' | 'bet' | 'secret' | 'end'): string | null {
  return signedRequest(kind)(value, 'request');
}

export const BODIES: Record<string, Check> = {
  commitment: obj(
    { type: str, ...common, params: objectish, serverSeedHash: hex64, playerKey: str, openingBalance: nonNeg, prev: nullable(hex64) },
    { limits, wallet },
  ),
  start: obj({ type: str, ...common, request: signedRequest('start'), prev: hex64 }),
  acceptance: obj({ type: str, ...common, round: int, affiliate: nullable(str), request: signedRequest('bet'), balanceBefore: nonNeg, prev: hex64 }, { debit }),
  receipt: obj(
    {
      type: str,
      ...common,
      round: int,
      request: signedRequest('secret'),
      cards: arr(card),
      ...roundFactChecks(int),
      ...settled,
      cutCardOut: bool,
      prev: hex64,
    },
    { credit: movement },
  ),
  void: obj({ type: str, ...common, round: int, balanceBefore: nonNeg, balanceAfter: nonNeg, prev: hex64 }, { rollback: movement }),
  reveal: obj({ type: str, ...common, serverSeed: str, rounds: int, reason: str, closingBalance: nonNeg, prev: hex64 }, { request: signedRequest('end') }),
  transfer: obj(
    {
      type: str,
      ...common,
      transfer: str,
      sharedTable: str,
      sharedShoe: int,
      sharedRound: int,
      kind: str,
      amount: int,
      balanceBefore: nonNeg,
      balanceAfter: nonNeg,
      prev: hex64,
    },
    { debit, credit: movement, rollback: movement },
  ),
};

/** The envelope of a record with one of these bodies: exactly body (an object with a known type), hash (64 hex), signature (a string). */
export function envelopeOf(bodies: Record<string, Check>): Check {
  const envelope = obj({ body: objectish, hash: hex64, signature: str });
  return (v, p) => {
    const e = envelope(v, p);
    if (e) return e;
    const type = (v as { body: { type?: unknown } }).body.type;
    return typeof type === 'string' && Object.hasOwn(bodies, type) ? null : `${p}.body.type must be one of ${Object.keys(bodies).join(', ')}`;
  };
}

export const envelopeShape: Check = envelopeOf(BODIES);

/** The file: exactly version, records, and optionally jwks and (player copies) sent. */
export const fileShape: Check = obj(
  { version: literal('pb-fair-2'), records: arr(objectish) },
  { jwks: objectish, sent: arr(obj({ body: objectish, signature: str })) },
);

/** The building blocks, for the pb-shared-1 shapes (FAIRNESS.md part III reuses §B1's rules). */
export const SHAPE_CHECKS = { str, int, nonNeg, bool, hex64, objectish, nullable, literal, arr, time, obj, bet, card, payout, limits, settled };
export type { Check as ShapeCheck };
