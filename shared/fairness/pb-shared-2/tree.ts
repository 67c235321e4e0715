/**
 * The tree of a pb-shared-2 close (FAIRNESS.md §D2): RFC 9162's Merkle tree (../common/merkle.ts)
 * over the accepted bet requests, in the close's order (ascending by player). A leaf's bytes are
 * the canonical JSON of one signed bet request `{ body, signature }`, exactly as a pb-shared-1
 * close lists it; leaves are hashed H(0x00 ‖ bytes), nodes H(0x01 ‖ left ‖ right).
 *
 * Three pure checks share these rules: the verifier's over a whole close (count, root, totals),
 * the round's bets file's (the same), and a player's over its own bet (`checkMyBet`: the close,
 * its bet and its proof, nothing that grows with the table). No BLS here: the widget imports it.
 */
import { type EngineError, fail, ok, type Result } from '../../errors.ts';
import { isVerifyKeys, type Jwks, verifyBytes, type VerifyKeys } from '../common/keys.ts';
import { bytesToHex, canonicalJson, hexToBytes, utf8Bytes } from '../common/encoding.ts';
import { merkleLeafHash, MerkleTree, verifyMerkleInclusion } from '../common/merkle.ts';
import { importKidVerifyKeys } from '../pb-fair-2/verify.ts';
import type { SharedBetRequest, SignedSharedRequest } from '../pb-shared-1/records.ts';
import { type BetProof, type BoxTotals, type MerkleClose, type Signed2, shared2RecordDigest } from './records.ts';

type BetRequest = SignedSharedRequest<SharedBetRequest>;

/** A leaf's bytes: utf8(canonicalJson({ body, signature })) of one signed bet request. */
export function betLeafBytes(bet: BetRequest): Uint8Array<ArrayBuffer> {
  return utf8Bytes(canonicalJson({ body: bet.body, signature: bet.signature }));
}

/** H(0x00 ‖ leaf bytes). */
export const betLeafHash = (bet: BetRequest): Uint8Array => merkleLeafHash(betLeafBytes(bet));

/** The tree over a close's bet requests, in the order given (the close's). */
export const betsTree = (bets: readonly BetRequest[]): MerkleTree => new MerkleTree(bets.map(betLeafHash));

/** The root over the bets, 64 lowercase hex. */
export const betsRoot = (bets: readonly BetRequest[]): string => bytesToHex(betsTree(bets).root());

/** The stakes per box over every bet of every request. */
export function boxTotals(bets: readonly BetRequest[]): BoxTotals {
  const totals: BoxTotals = { player: 0, banker: 0, tie: 0 };
  for (const r of bets) for (const b of r.body.bets) totals[b.box] += b.amount;
  return totals;
}

/** Leaf `leaf`'s proof in a built tree: its index and audit path as hex. */
export function betProof(tree: MerkleTree, leaf: number): BetProof {
  return { leaf, path: tree.inclusionProof(leaf).map(bytesToHex) };
}

/** Every leaf's proof, in leaf order: one O(n) build, O(log n) per proof. */
export function betProofs(bets: readonly BetRequest[]): BetProof[] {
  const tree = betsTree(bets);
  return bets.map((_, i) => betProof(tree, i));
}

/** A finding of a check: its code and message, or null. */
export type TreeFinding = ['no_bets' | 'bet_count_mismatch' | 'bets_root_mismatch' | 'totals_mismatch', string] | null;

/** The close's count against the bets beside it (§D5 step "count"): at least one, and as many as listed. */
export function checkBetCount(close: MerkleClose, bets: readonly BetRequest[]): TreeFinding {
  if (close.betCount < 1) return ['no_bets', `round ${close.round} was closed with betCount ${close.betCount}: a round is dealt only for bets`];
  if (bets.length !== close.betCount)
    return ['bet_count_mismatch', `round ${close.round}: the close counts ${close.betCount} bet requests, ${bets.length} are listed beside it`];
  return null;
}

/** The close's root and totals against the bets beside it (§D5 steps "root", "totals"). */
export function checkBetsCommitted(close: MerkleClose, bets: readonly BetRequest[]): TreeFinding {
  const root = betsRoot(bets);
  if (root !== close.betsRoot)
    return ['bets_root_mismatch', `round ${close.round}: the listed bet requests have root ${root}, the close signed ${close.betsRoot}`];
  const totals = boxTotals(bets);
  for (const box of ['player', 'banker', 'tie'] as const) {
    if (totals[box] !== close.totals[box])
      return ['totals_mismatch', `round ${close.round}: the ${box} box totals ${totals[box]} in the listed bets, the close says ${close.totals[box]}`];
  }
  return null;
}

/** The codes of a player's check of its own bet (FAIRNESS.md §D6), in their order. */
export const MY_BET_CODES = [
  'hash_mismatch',
  'unknown_key',
  'bad_signature',
  'not_my_bet',
  'request_mismatch',
  'bad_proof',
  'bet_not_included',
  'totals_mismatch',
] as const;
export type MyBetCode = (typeof MY_BET_CODES)[number];

/**
 * A player's check of its own bet against the close it received (FAIRNESS.md §D6): the close is
 * the operator's (its hash, and with `keys` its signature), the bet is the player's (`player`, its
 * key) and for this round, and the proof shows the bet as leaf `proof.leaf` of the root the close
 * signed, under the close's count. Then its stake per box is within the close's totals. Pure
 * apart from the signature check; what it proves is in §D6.
 */
export async function checkMyBet(a: {
  close: Signed2<MerkleClose>;
  bet: BetRequest;
  proof: BetProof;
  player?: string;
  keys?: Jwks | VerifyKeys;
}): Promise<Result<{ leaf: number }, EngineError<MyBetCode>>> {
  const c = a.close.body;
  let digest: Uint8Array<ArrayBuffer>;
  try {
    digest = shared2RecordDigest(c);
  } catch {
    return fail('hash_mismatch', 'the close has no canonical form');
  }
  if (bytesToHex(digest) !== a.close.hash) return fail('hash_mismatch', 'the close does not hash to its recorded hash: it was changed after signing');
  if (a.keys) {
    const keys = isVerifyKeys(a.keys) ? a.keys : await importKidVerifyKeys(a.keys);
    const key = keys.byId.get(c.keyId);
    if (!key) return fail('unknown_key', `the close's key ${c.keyId} is not in the operator's keys`);
    if (!(await verifyBytes(key, a.close.signature, digest))) return fail('bad_signature', "the operator's signature on the close does not verify");
  }
  const b = a.bet.body;
  if (a.player !== undefined && b.player !== a.player) return fail('not_my_bet', `the bet is signed by ${b.player}, not by your key ${a.player}`);
  if (b.table !== c.table || b.shoe !== c.shoe || b.round !== c.round)
    return fail('request_mismatch', `the bet is for shoe ${b.shoe} round ${b.round}, the close for shoe ${c.shoe} round ${c.round}`);
  const p = a.proof as Partial<BetProof> | null;
  const leaf = p?.leaf;
  if (typeof leaf !== 'number' || !Number.isSafeInteger(leaf) || leaf < 0 || leaf >= c.betCount)
    return fail('bad_proof', `the proof's leaf must be a whole number below the close's count ${c.betCount}`);
  if (!Array.isArray(p!.path) || p!.path.some((h) => typeof h !== 'string' || !/^[0-9a-f]{64}$/.test(h)))
    return fail('bad_proof', "the proof's path must be a list of 64-hex hashes");
  const root = hexToBytes(c.betsRoot);
  const path = p!.path.map((h) => hexToBytes(h)!);
  let leafHash: Uint8Array;
  try {
    leafHash = betLeafHash(a.bet);
  } catch {
    return fail('bad_proof', 'the bet has no canonical form');
  }
  if (root === null || !verifyMerkleInclusion(leafHash, leaf, c.betCount, path, root))
    return fail('bet_not_included', `the proof does not show your bet as leaf ${leaf} of the ${c.betCount} the close's root commits to`);
  const mine = boxTotals([a.bet]);
  for (const box of ['player', 'banker', 'tie'] as const) {
    if (mine[box] > c.totals[box]) return fail('totals_mismatch', `your ${box} stake ${mine[box]} is more than the close's ${box} total ${c.totals[box]}`);
  }
  return ok({ leaf });
}
