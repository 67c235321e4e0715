/**
 * The start of a pb-shared-2 shoe (FAIRNESS.md §D3a): §D2's tree (tree.ts, common/merkle.ts: the
 * same node hashing, odd-leaf rule and order) over the seated players' signed start requests,
 * ascending by player, each leaf under its own tag so that no start leaf can be read as a bet leaf:
 *     leaf bytes = utf8("pb-shared-2/start-leaf\n") ‖ utf8(canonicalJson({ body, signature })).
 * The start signs the root, the count and the shoe's cut (§C4's sum over every request); the
 * shoe's client seed is the root's: S = hex(SHA-256("pb-shared-2/seeds\n" ‖ root bytes)). So a
 * seated player who holds the start and its own proof sees its seed go into the shoe, with nothing
 * that grows with the table; the cut's sum needs the full list (the transcript, the start file).
 * No BLS and no dealing here: the widget imports it for checkMyStart.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { type EngineError, fail, ok, type Result } from '../../errors.ts';
import type { Jwks, VerifyKeys } from '../common/keys.ts';
import { bytesToHex, canonicalJson, concatBytes, hexToBytes, utf8Bytes } from '../common/encoding.ts';
import { merkleLeafHash, MerkleTree } from '../common/merkle.ts';
import { type SharedStartRequest, type SignedSharedRequest, verifySharedRequest } from '../pb-shared-1/records.ts';
import type { BetProof, MerkleStart, Signed2 } from './records.ts';
import { checkInclusion, checkOperatorRecord, leafProofs } from './tree.ts';

type StartRequest = SignedSharedRequest<SharedStartRequest>;

/** The tag before a start leaf's bytes (23 bytes). */
export const START_LEAF_TAG = 'pb-shared-2/start-leaf\n';
/** The tag before the root's 32 bytes in the shoe's client seed (18 bytes). */
export const SHOE_SEED_TAG = 'pb-shared-2/seeds\n';

/** A start leaf's bytes: the tag, then utf8(canonicalJson({ body, signature })) of one signed start request. */
export function startLeafBytes(request: StartRequest): Uint8Array<ArrayBuffer> {
  return concatBytes(utf8Bytes(START_LEAF_TAG), utf8Bytes(canonicalJson({ body: request.body, signature: request.signature })));
}

/** H(0x00 ‖ start leaf bytes). */
export const startLeafHash = (request: StartRequest): Uint8Array => merkleLeafHash(startLeafBytes(request));

/** The tree over a start's requests, in the order given (the start's: ascending by player). */
export const startsTree = (requests: readonly StartRequest[]): MerkleTree => new MerkleTree(requests.map(startLeafHash));

/** The root over the start requests, 64 lowercase hex. */
export const startsRoot = (requests: readonly StartRequest[]): string => bytesToHex(startsTree(requests).root());

/** Every start request's proof, in leaf order: one build of the tree. */
export const startProofs = (requests: readonly StartRequest[]): BetProof[] => leafProofs(startsTree(requests));

/** The shoe's client seed from the start's root: hex(SHA-256("pb-shared-2/seeds\n" ‖ 32 root bytes)). */
export function shoeClientSeed(root: string): string {
  const bytes = hexToBytes(root);
  if (bytes === null || bytes.length !== 32) throw new RangeError('a start root is 64 lowercase hex characters');
  return bytesToHex(sha256(concatBytes(utf8Bytes(SHOE_SEED_TAG), bytes)));
}

/** The codes of a player's check of its own start request (FAIRNESS.md §D6), in their order. */
export const MY_START_CODES = ['hash_mismatch', 'unknown_key', 'bad_signature', 'not_my_start', 'request_mismatch', 'bad_proof', 'start_not_included'] as const;
export type MyStartCode = (typeof MY_START_CODES)[number];

/**
 * A seated player's check of its own start request against the start it received (FAIRNESS.md
 * §D6): the start is the operator's (its hash, and with `keys` its signature), the request is the
 * player's (its key, and signed by it) and answers this shoe's commitment (the start's `prev`), and the proof shows it as leaf
 * `proof.leaf` of the root the start signed. Returns the shoe's client seed, which that root gives.
 */
export async function checkMyStart(a: {
  start: Signed2<MerkleStart>;
  request: StartRequest;
  proof: BetProof;
  player?: string;
  keys?: Jwks | VerifyKeys;
}): Promise<Result<{ leaf: number; clientSeed: string }, EngineError<MyStartCode>>> {
  const s = a.start.body;
  const signed = await checkOperatorRecord(a.start, 'start', a.keys);
  if (signed) return signed;
  const r = a.request.body;
  if (a.player !== undefined && r.player !== a.player) return fail('not_my_start', `the start request is signed by ${r.player}, not by your key ${a.player}`);
  // The request may be the table's copy (a tab that reloaded): it counts only signed by the key it names.
  if (!(await verifySharedRequest(a.request))) return fail('not_my_start', `the start request is not signed by the key it names, ${r.player}`);
  if (r.table !== s.table || r.shoe !== s.shoe || r.commitment !== s.prev)
    return fail('request_mismatch', `the start request answers shoe ${r.shoe}'s commitment ${r.commitment}, the start follows shoe ${s.shoe}'s ${s.prev}`);
  const included = checkInclusion({
    leafHash: () => startLeafHash(a.request),
    proof: a.proof,
    count: s.startCount,
    root: s.startsRoot,
    what: 'start',
    record: 'start',
  });
  if (included) return included;
  return ok({ leaf: a.proof.leaf, clientSeed: shoeClientSeed(s.startsRoot) });
}
