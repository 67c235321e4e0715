/**
 * pb-shared-2 shapes (FAIRNESS.md §D3, §D3a): pb-shared-1's bodies, with the close's root, count
 * and totals in place of its bets, the start's root, count and cut in place of its requests, and
 * the settlement's leaf; a close's entry in a file carries `bets` beside its signed body, a start's
 * `requests`, every other record exactly `{ body, hash, signature }`.
 */
import { SHAPE_CHECKS, type ShapeCheck as Check } from '../pb-fair-2/shape.ts';
import { SHARED_BODIES, SHARED_REQUESTS } from '../pb-shared-1/shape.ts';

const { arr, hex64, int, literal, nonNeg, obj, objectish, settled, str, time } = SHAPE_CHECKS;

const common = { table: str, shoe: int, keyId: str, issuedAt: time };
const roundNumber: Check = (v, p) => int(v, p) ?? ((v as number) < 1 ? `${p} must be at least 1` : null);

/** A signed bet request, as a leaf and as the bets file lists it. */
export const signedBet: Check = obj({ body: SHARED_REQUESTS.bet, signature: str });
/** A signed start request, as a leaf and as the start file lists it. */
export const signedStart: Check = obj({ body: SHARED_REQUESTS.start, signature: str });
export const boxTotalsShape: Check = obj({ player: nonNeg, banker: nonNeg, tie: nonNeg });
/** A player's proof: its leaf and its audit path. */
export const betProofShape: Check = obj({ leaf: nonNeg, path: arr(hex64) });

export const SHARED2_BODIES: Record<string, Check> = {
  ...SHARED_BODIES,
  start: obj({ type: str, ...common, startsRoot: hex64, startCount: int, cut: int, prev: hex64 }),
  close: obj({ type: str, ...common, round: int, betsRoot: hex64, betCount: int, totals: boxTotalsShape, beaconRound: roundNumber, prev: hex64 }),
  settlement: obj({ type: str, ...common, round: int, player: str, deal: hex64, leaf: int, ...settled, prev: hex64 }),
};

const record = obj({ body: objectish, hash: hex64, signature: str });
const closeEntry = obj({ body: objectish, hash: hex64, signature: str, bets: arr(signedBet) });
const startEntry = obj({ body: objectish, hash: hex64, signature: str, requests: arr(signedStart) });

/** A record's envelope: a close with its bets beside it, a start with its requests, any other type exactly body, hash, signature. */
export const shared2Envelope: Check = (v, p) => {
  const type = (v as { body?: { type?: unknown } } | null)?.body?.type;
  const e = (type === 'close' ? closeEntry : type === 'start' ? startEntry : record)(v, p);
  if (e) return e;
  return typeof type === 'string' && Object.hasOwn(SHARED2_BODIES, type) ? null : `${p}.body.type must be one of ${Object.keys(SHARED2_BODIES).join(', ')}`;
};

/** The file: exactly version and records, and optionally jwks. */
export const shared2FileShape: Check = obj({ version: literal('pb-shared-2'), records: arr(objectish) }, { jwks: objectish });

/** A round's bets file (GET …/shoes/:shoe/rounds/:round/bets): the version and the close's entry. */
export const roundBetsFileShape: Check = obj({ version: literal('pb-shared-2'), close: closeEntry });

/** A shoe's start file (GET …/shoes/:shoe/start): the version and the start's entry. */
export const shoeStartFileShape: Check = obj({ version: literal('pb-shared-2'), start: startEntry });
