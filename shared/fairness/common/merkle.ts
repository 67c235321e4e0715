/**
 * The Merkle tree of RFC 9162 §2.1 (Certificate Transparency's, unchanged from RFC 6962): SHA-256,
 * leaves hashed as H(0x00 ‖ data), interior nodes as H(0x01 ‖ left ‖ right), a tree of n > 1 leaves
 * split at the largest power of two below n (so an odd leaf is never copied), the empty tree's root
 * H(""). A standard tree because a proof is only worth something if another implementation agrees:
 * the tests pin the published reference roots and audit paths.
 *
 * Used where a record commits to many entries at once and each party needs to check only its own
 * entry: the proof for one leaf of n is ⌈log2 n⌉ hashes, whatever the table's size.
 */
import { sha256 } from '@noble/hashes/sha2.js';

const LEAF = 0x00;
const NODE = 0x01;

/** H(0x00 ‖ data): the hash of one leaf's bytes. */
export function merkleLeafHash(data: Uint8Array): Uint8Array {
  const input = new Uint8Array(data.length + 1);
  input[0] = LEAF;
  input.set(data, 1);
  return sha256(input);
}

/** H(0x01 ‖ left ‖ right): an interior node. */
export function merkleNodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  const input = new Uint8Array(1 + left.length + right.length);
  input[0] = NODE;
  input.set(left, 1);
  input.set(right, 1 + left.length);
  return sha256(input);
}

/**
 * A tree over leaf hashes, kept level by level so that every leaf's proof costs O(log n) after one
 * O(n) build. Pairing each level from the left and carrying a lone last node up unhashed gives the
 * same tree as RFC 9162's split at the largest power of two.
 */
export class MerkleTree {
  readonly size: number;
  readonly #levels: Uint8Array[][];

  constructor(leafHashes: readonly Uint8Array[]) {
    this.size = leafHashes.length;
    const levels: Uint8Array[][] = [leafHashes.slice()];
    for (let level = levels[0]!; level.length > 1;) {
      const up: Uint8Array[] = [];
      for (let i = 0; i + 1 < level.length; i += 2) up.push(merkleNodeHash(level[i]!, level[i + 1]!));
      if (level.length % 2 === 1) up.push(level[level.length - 1]!);
      levels.push(up);
      level = up;
    }
    this.#levels = levels;
  }

  /** The root: H("") for no leaves, the leaf hash itself for one. */
  root(): Uint8Array {
    if (this.size === 0) return sha256(new Uint8Array(0));
    return this.#levels[this.#levels.length - 1]![0]!;
  }

  /** The audit path of leaf `index` (RFC 9162 §2.1.3.1), leaf side first. */
  inclusionProof(index: number): Uint8Array[] {
    if (!Number.isSafeInteger(index) || index < 0 || index >= this.size) throw new RangeError(`no leaf ${index} in a tree of ${this.size}`);
    const proof: Uint8Array[] = [];
    let i = index;
    for (const level of this.#levels.slice(0, -1)) {
      const sibling = i ^ 1;
      if (sibling < level.length) proof.push(level[sibling]!);
      i >>= 1;
    }
    return proof;
  }
}

/** The root over these leaf hashes. */
export function merkleRoot(leafHashes: readonly Uint8Array[]): Uint8Array {
  return new MerkleTree(leafHashes).root();
}

/**
 * Whether `proof` shows that `leafHash` is leaf `index` of the tree of `size` leaves whose root is
 * `root` (RFC 9162 §2.1.3.2, step by step). Anything malformed is simply false: a verifier's answer.
 */
export function verifyMerkleInclusion(leafHash: Uint8Array, index: number, size: number, proof: readonly Uint8Array[], root: Uint8Array): boolean {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) return false;
  let fn = index;
  let sn = size - 1;
  let r = leafHash;
  for (const p of proof) {
    if (p.length !== 32 || sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = merkleNodeHash(p, r);
      // Climb past the levels where this node was carried up without a sibling.
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      r = merkleNodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && equalBytes(r, root);
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}
