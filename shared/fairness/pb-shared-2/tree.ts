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

/** Every leaf's proof of a built tree, in leaf order: one O(n) build, O(log n) per proof (the start's tree too). */
export function leafProofs(tree: MerkleTree): BetProof[] {
  return Array.from({ length: tree.size }, (_, i) => betProof(tree, i));
}

/** Every bet's proof, in leaf order. */
export const betProofs = (bets: readonly BetRequest[]): BetProof[] => leafProofs(betsTree(bets));

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

/**
 * Steps 1–2 of a player's checks (FAIRNESS.md §D6, §D3a): the operator's record hashes to its
 * `hash` under this version's tag and, with `keys`, its signature verifies under its `keyId`.
 */
export async function checkOperatorRecord(
  record: Signed2,
  what: string,
  keys?: Jwks | VerifyKeys,
): Promise<{ ok: false; error: EngineError<'hash_mismatch' | 'unknown_key' | 'bad_signature'> } | null> {
  let digest: Uint8Array<ArrayBuffer>;
  try {
    digest = shared2RecordDigest(record.body);
  } catch {
    return fail('hash_mismatch', `the ${what} has no canonical form`);
  }
  if (bytesToHex(digest) !== record.hash) return fail('hash_mismatch', `the ${what} does not hash to its recorded hash: it was changed after signing`);
  if (keys) {
    const verifyKeys = isVerifyKeys(keys) ? keys : await importKidVerifyKeys(keys);
    const key = verifyKeys.byId.get(record.body.keyId);
    if (!key) return fail('unknown_key', `the ${what}'s key ${record.body.keyId} is not in the operator's keys`);
    if (!(await verifyBytes(key, record.signature, digest))) return fail('bad_signature', `the operator's signature on the ${what} does not verify`);
  }
  return null;
}

/**
 * A player's proof against a signed root (§D2 "Checking a proof"): well formed (`bad_proof`), and
 * leading from the player's leaf hash at `leaf` in a tree of `count` to `root`
 * (`bet_not_included` or `start_not_included`, by `what`).
 */
export function checkInclusion<W extends 'bet' | 'start'>(a: {
  leafHash: () => Uint8Array;
  proof: BetProof;
  count: number;
  root: string;
  what: W;
  record: string;
}): { ok: false; error: EngineError<'bad_proof' | `${W}_not_included`> } | null {
  const p = a.proof as Partial<BetProof> | null;
  const leaf = p?.leaf;
  if (typeof leaf !== 'number' || !Number.isSafeInteger(leaf) || leaf < 0 || leaf >= a.count)
    return fail('bad_proof', `the proof's leaf must be a whole number below the ${a.record}'s count ${a.count}`);
  if (!Array.isArray(p!.path) || p!.path.some((h) => typeof h !== 'string' || !/^[0-9a-f]{64}$/.test(h)))
    return fail('bad_proof', "the proof's path must be a list of 64-hex hashes");
  const root = hexToBytes(a.root);
  const path = p!.path.map((h) => hexToBytes(h)!);
  let leafHash: Uint8Array;
  try {
    leafHash = a.leafHash();
  } catch {
    return fail('bad_proof', `the ${a.what} has no canonical form`);
  }
  if (root === null || !verifyMerkleInclusion(leafHash, leaf, a.count, path, root))
    return fail(`${a.what}_not_included`, `the proof does not show your ${a.what} as leaf ${leaf} of the ${a.count} the ${a.record}'s root commits to`);
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
  const signed = await checkOperatorRecord(a.close, 'close', a.keys);
  if (signed) return signed;
  const b = a.bet.body;
  if (a.player !== undefined && b.player !== a.player) return fail('not_my_bet', `the bet is signed by ${b.player}, not by your key ${a.player}`);
  if (b.table !== c.table || b.shoe !== c.shoe || b.round !== c.round)
    return fail('request_mismatch', `the bet is for shoe ${b.shoe} round ${b.round}, the close for shoe ${c.shoe} round ${c.round}`);
  const included = checkInclusion({ leafHash: () => betLeafHash(a.bet), proof: a.proof, count: c.betCount, root: c.betsRoot, what: 'bet', record: 'close' });
  if (included) return included;
  const leaf = a.proof.leaf;
  const mine = boxTotals([a.bet]);
  for (const box of ['player', 'banker', 'tie'] as const) {
    if (mine[box] > c.totals[box]) return fail('totals_mismatch', `your ${box} stake ${mine[box]} is more than the close's ${box} total ${c.totals[box]}`);
  }
  return ok({ leaf });
}
