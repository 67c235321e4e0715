/**
 * pb-shared-1 shapes (FAIRNESS.md §C1, §C7): pb-fair-2's rules (§B1) — exactly the listed members
 * at every level, integers, strict timestamps, 64-hex hashes — applied to the shared records.
 */
import { roundFactChecks } from '../common/shape-checks.ts';
import { envelopeOf, SHAPE_CHECKS, type ShapeCheck as Check } from '../pb-fair-2/shape.ts';

const { arr, bet, bool, card, hex64, int, limits, literal, nullable, obj, objectish, settled, str, time } = SHAPE_CHECKS;

const common = { table: str, shoe: int, keyId: str, issuedAt: time };
const roundNumber: Check = (v, p) => int(v, p) ?? ((v as number) < 1 ? `${p} must be at least 1` : null);

export const SHARED_REQUESTS = {
  start: obj({ type: literal('start'), table: str, shoe: int, commitment: hex64, player: str, clientSeed: str, cut: int }),
  bet: obj({ type: literal('bet'), table: str, shoe: int, round: int, player: str, bets: arr(bet) }),
};
const signed = (kind: keyof typeof SHARED_REQUESTS): Check => obj({ body: SHARED_REQUESTS[kind], signature: str });

const chain = obj({ hash: str, scheme: str, publicKey: str, periodSeconds: int, genesisTime: int });
const beaconRound = obj({ round: roundNumber, randomness: str, signature: str });

export const SHARED_BODIES: Record<string, Check> = {
  commitment: obj({ type: str, ...common, params: objectish, beacon: chain, serverSeedHash: hex64, prev: nullable(hex64) }, { limits }),
  start: obj({ type: str, ...common, requests: arr(signed('start')), prev: hex64 }),
  close: obj({ type: str, ...common, round: int, bets: arr(signed('bet')), beaconRound: roundNumber, prev: hex64 }),
  deal: obj({
    type: str,
    ...common,
    round: int,
    beacon: beaconRound,
    cards: arr(card),
    ...roundFactChecks(int),
    cutCardOut: bool,
    prev: hex64,
  }),
  settlement: obj({ type: str, ...common, round: int, player: str, deal: hex64, ...settled, prev: hex64 }),
  void: obj({ type: str, ...common, round: int, prev: hex64 }),
  reveal: obj({ type: str, ...common, serverSeed: str, rounds: int, reason: str, prev: hex64 }),
};

/** The envelope: exactly body (an object with a known type), hash (64 hex), signature (a string). */
export const sharedEnvelope: Check = envelopeOf(SHARED_BODIES);

/** The file: exactly version and records, and optionally jwks. */
export const sharedFileShape: Check = obj({ version: literal('pb-shared-1'), records: arr(objectish) }, { jwks: objectish });
