/**
 * The pb-shared-2 verifier (FAIRNESS.md §D5): pb-shared-1's walk of §C8 (../pb-shared-1/verify.ts),
 * given this version's tag, shapes and params, each close's bets from beside its signed body, and
 * three checks of its own at fixed places: the count before the close's requests, the root and
 * the totals after them, each settlement's leaf after the deal it names.
 */
import type { Jwks, VerifyKeys } from '../common/keys.ts';
import type { SharedBetRequest, SharedSettlement, SignedSharedRequest } from '../pb-shared-1/records.ts';
import { parseStrictJson } from '../common/strict-json.ts';
import { PB_SHARED_1, SHARED_VERIFY_CODES, type SharedProtocol, type SharedVerifyReport, verifySharedFile, verifySharedText } from '../pb-shared-1/verify.ts';
import { type CloseEntry, type MerkleClose, type MerkleSettlement, shared2RecordDigest } from './records.ts';
import { SHARED2_BODIES, shared2Envelope, shared2FileShape } from './shape.ts';
import { checkBetCount, checkBetsCommitted } from './tree.ts';

/** The codes pb-shared-2 adds to pb-shared-1's (§D5). */
export const MERKLE_CODES = ['bet_count_mismatch', 'bets_root_mismatch', 'totals_mismatch', 'leaf_mismatch'] as const;
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
