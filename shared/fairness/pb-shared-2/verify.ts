/**
 * The pb-shared-2 verifier (FAIRNESS.md §D5): pb-shared-1's walk of §C8 (../pb-shared-1/verify.ts),
 * given this version's tag, shapes and params, each close's bets and the start's requests from
 * beside their signed bodies, and checks of its own at fixed places: the count before the
 * requests, the root and the totals (the start: the root and the cut) after them, each
 * settlement's leaf after the deal it names; the shoe's client seed is the start root's.
 */
import type { Jwks, VerifyKeys } from '../common/keys.ts';
import { combinedCut } from '../pb-shared-1/derive.ts';
import type { SharedBetRequest, SharedSettlement, SharedStartRequest, SignedSharedRequest } from '../pb-shared-1/records.ts';
import { parseStrictJson } from '../common/strict-json.ts';
import { PB_SHARED_1, SHARED_VERIFY_CODES, type SharedProtocol, type SharedVerifyReport, verifySharedFile, verifySharedText } from '../pb-shared-1/verify.ts';
import { type CloseEntry, type MerkleClose, type MerkleSettlement, type MerkleStart, shared2RecordDigest, type StartEntry } from './records.ts';
import { shoeClientSeed, startsRoot } from './start.ts';
import { SHARED2_BODIES, shared2Envelope, shared2FileShape } from './shape.ts';
import { checkBetCount, checkBetsCommitted } from './tree.ts';

type StartRequest = SignedSharedRequest<SharedStartRequest>;

/** A finding of the verifier's start checks: its code and message, or null. */
export type StartFinding = ['no_players' | 'start_count_mismatch' | 'start_root_mismatch' | 'start_cut_mismatch', string] | null;

/** The start's count against the requests beside it (§D5 "start"): at least one, and as many as listed. */
export function checkStartCount(start: MerkleStart, requests: readonly StartRequest[]): StartFinding {
  if (start.startCount < 1) return ['no_players', `the start of shoe ${start.shoe} counts ${start.startCount} players: a shoe starts with at least one`];
  if (requests.length !== start.startCount)
    return ['start_count_mismatch', `shoe ${start.shoe}: the start counts ${start.startCount} start requests, ${requests.length} are listed beside it`];
  return null;
}

/** The start's root and cut against the requests beside it (§D5 "start", after the requests are checked). */
export function checkStartCommitted(start: MerkleStart, requests: readonly StartRequest[], decks: number): StartFinding {
  const root = startsRoot(requests);
  if (root !== start.startsRoot)
    return ['start_root_mismatch', `shoe ${start.shoe}: the listed start requests have root ${root}, the start signed ${start.startsRoot}`];
  const cut = combinedCut(
    decks,
    requests.map((r) => r.body.cut),
  );
  if (cut !== start.cut) return ['start_cut_mismatch', `shoe ${start.shoe}: the listed cuts combine to ${cut} (§C4), the start says ${start.cut}`];
  return null;
}

/** The codes pb-shared-2 adds to pb-shared-1's (§D5). */
export const MERKLE_CODES = [
  'bet_count_mismatch',
  'bets_root_mismatch',
  'totals_mismatch',
  'leaf_mismatch',
  'start_count_mismatch',
  'start_root_mismatch',
  'start_cut_mismatch',
] as const;
/** Every pb-shared-2 failure code. */
export const SHARED2_VERIFY_CODES = [...SHARED_VERIFY_CODES, ...MERKLE_CODES] as const;
export type Shared2VerifyCode = (typeof SHARED2_VERIFY_CODES)[number];

export const PB_SHARED_2: SharedProtocol = {
  version: 'pb-shared-2',
  algorithm: 'pb-shared-2',
  rules: { envelope: shared2Envelope, digest: shared2RecordDigest, bodies: SHARED2_BODIES },
  fileShape: shared2FileShape,
  closeBets: (close) => (close as unknown as CloseEntry).bets as readonly SignedSharedRequest<SharedBetRequest>[],
  beforeRequests: (close, bets) => checkBetCount(close.body as unknown as MerkleClose, bets),
  afterRequests: (close, bets) => checkBetsCommitted(close.body as unknown as MerkleClose, bets),
  start: {
    requests: (start) => (start as unknown as StartEntry).requests,
    beforeRequests: (start, requests) => checkStartCount(start.body as unknown as MerkleStart, requests),
    afterRequests: (start, requests, decks) => checkStartCommitted(start.body as unknown as MerkleStart, requests, decks),
    clientSeed: (start) => shoeClientSeed((start.body as unknown as MerkleStart).startsRoot),
  },
  settlement: (s: SharedSettlement, leaf: number) =>
    (s as MerkleSettlement).leaf === leaf
      ? null
      : ['leaf_mismatch', `round ${s.round}: the settlement of ${s.player} names leaf ${(s as MerkleSettlement).leaf}; its bet is leaf ${leaf} of the close`],
};

/** Verifies the text of a pb-shared-2 file. */
export function verifyShared2Text(text: string, jwks: Jwks | VerifyKeys): Promise<SharedVerifyReport> {
  return verifySharedText(text, jwks, PB_SHARED_2);
}

/** A shared table's transcript of either version, judged by its own `version`: pb-shared-1's verifier or this one. */
export function verifySharedTableText(text: string, jwks: Jwks | VerifyKeys): Promise<SharedVerifyReport> {
  const parsed = parseStrictJson(text);
  if (!parsed.ok) return verifySharedText(text, jwks);
  const version = (parsed.value as { version?: unknown } | null)?.version;
  return verifySharedFile(parsed.value, jwks, version === 'pb-shared-2' ? PB_SHARED_2 : PB_SHARED_1);
}
