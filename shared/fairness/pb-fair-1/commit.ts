/**
 * The pb-fair-1 commitment (FAIRNESS.md §1, point 1): the server seed's hash
 *
 *   hex(SHA-256("pb-fair-1/commit\n" ‖ seed bytes))
 *
 * published (inside the signed commitment record) before the player's seed.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { serverSeedBytes } from '../common/seeds.ts';
import { bytesToHex, concatBytes, utf8Bytes } from '../common/encoding.ts';

/** Domain tag of the commitment hash. */
export const FAIR1_COMMIT_TAG = 'pb-fair-1/commit\n';

/** hex(SHA-256("pb-fair-1/commit\n" ‖ seed bytes)): what the commitment record publishes. */
export function fair1SeedCommitment(serverSeedHex: string): string {
  return bytesToHex(sha256(concatBytes(utf8Bytes(FAIR1_COMMIT_TAG), serverSeedBytes(serverSeedHex))));
}
