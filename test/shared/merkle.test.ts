import { describe, expect, test } from 'vitest';
import { MerkleTree, merkleLeafHash, merkleNodeHash, merkleRoot, verifyMerkleInclusion } from '../../shared/fairness/common/merkle.ts';
import { bytesToHex, hexToBytes } from '../../shared/index.ts';

const unhex = (h: string): Uint8Array => hexToBytes(h) ?? new Uint8Array(0);

// The RFC 6962 reference leaves and tree heads, as published by Certificate Transparency
// (transparency-dev/merkle, testonly/constants.go): the root for each tree size 0..8.
const LEAVES = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map(unhex);
const ROOTS = [
  'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];
// The same source's audit paths (its leaf numbers are 1-based; these are 0-based).
const PATHS = [
  {
    index: 0,
    size: 8,
    proof: [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  },
  {
    index: 5,
    size: 8,
    proof: [
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
  { index: 2, size: 3, proof: ['fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125'] },
  {
    index: 1,
    size: 5,
    proof: [
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  },
  { index: 0, size: 1, proof: [] },
];

const leafHashes = LEAVES.map(merkleLeafHash);

describe('Merkle tree (RFC 9162 §2.1) against the published reference vectors', () => {
  test('the root of every size 0..8', () => {
    for (let n = 0; n <= LEAVES.length; n++) expect(bytesToHex(merkleRoot(leafHashes.slice(0, n))), `size ${n}`).toBe(ROOTS[n]);
  });

  test('the prefixes: 0x00 for a leaf, 0x01 for a node', () => {
    expect(bytesToHex(merkleLeafHash(new Uint8Array(0)))).toBe(ROOTS[1]);
    expect(bytesToHex(merkleNodeHash(leafHashes[0]!, leafHashes[1]!))).toBe(ROOTS[2]);
  });

  test('the published audit paths, built and verified', () => {
    for (const { index, size, proof } of PATHS) {
      const tree = new MerkleTree(leafHashes.slice(0, size));
      expect(tree.inclusionProof(index).map(bytesToHex), `${index} of ${size}`).toEqual(proof);
      expect(verifyMerkleInclusion(leafHashes[index]!, index, size, proof.map(unhex), unhex(ROOTS[size]!))).toBe(true);
    }
  });
});

describe('inclusion proofs in every tree shape', () => {
  const many = Array.from({ length: 70 }, (_, i) => merkleLeafHash(new Uint8Array([i, (i * 7) & 255, 1])));

  test('every leaf of every size 1..70 verifies, and a wrong leaf, index, size, root or path does not', () => {
    for (let n = 1; n <= many.length; n++) {
      const tree = new MerkleTree(many.slice(0, n));
      const root = tree.root();
      for (let i = 0; i < n; i++) {
        const proof = tree.inclusionProof(i);
        expect(proof.length).toBeLessThanOrEqual(Math.ceil(Math.log2(n)));
        expect(verifyMerkleInclusion(many[i]!, i, n, proof, root), `${i} of ${n}`).toBe(true);
        const other = many[(i + 1) % n]!;
        if (n > 1) expect(verifyMerkleInclusion(other, i, n, proof, root)).toBe(false);
        if (n > 1) expect(verifyMerkleInclusion(many[i]!, (i + 1) % n, n, proof, root)).toBe(false);
        expect(verifyMerkleInclusion(many[i]!, i, n, proof, merkleLeafHash(root))).toBe(false);
        if (proof.length > 0) {
          const bent = proof.map((p, k) => (k === proof.length - 1 ? merkleLeafHash(p) : p));
          expect(verifyMerkleInclusion(many[i]!, i, n, bent, root)).toBe(false);
          expect(verifyMerkleInclusion(many[i]!, i, n, proof.slice(0, -1), root)).toBe(false);
        }
        expect(verifyMerkleInclusion(many[i]!, i, n, [...proof, root], root)).toBe(false);
      }
    }
  });

  // The size is an input of the check, not something the path proves: leaf 0's path in a tree of 3
  // ([h1, h2]) also checks as leaf 0 of a tree of 4 under the same root, since RFC 9162 reads the
  // last hash as the right subtree whatever it holds. So whoever publishes a root must sign the
  // tree's size with it, and a verifier takes both from that signed record.
  test('the tree size must be signed with the root: a path alone does not fix it', () => {
    const tree = new MerkleTree(many.slice(0, 3));
    const proof = tree.inclusionProof(0);
    expect(verifyMerkleInclusion(many[0]!, 0, 3, proof, tree.root())).toBe(true);
    expect(verifyMerkleInclusion(many[0]!, 0, 4, proof, tree.root())).toBe(true);
    expect(verifyMerkleInclusion(many[0]!, 0, 2, proof, tree.root())).toBe(false);
    expect(verifyMerkleInclusion(many[2]!, 2, 4, tree.inclusionProof(2), tree.root())).toBe(false);
  });

  test('out-of-range and malformed input is false or refused, never a crash', () => {
    const tree = new MerkleTree(many.slice(0, 5));
    expect(() => tree.inclusionProof(5)).toThrow(RangeError);
    expect(() => tree.inclusionProof(-1)).toThrow(RangeError);
    expect(verifyMerkleInclusion(many[0]!, 5, 5, [], tree.root())).toBe(false);
    expect(verifyMerkleInclusion(many[0]!, -1, 5, [], tree.root())).toBe(false);
    expect(verifyMerkleInclusion(many[0]!, 0, 0, [], tree.root())).toBe(false);
    expect(verifyMerkleInclusion(many[0]!, 0.5, 5, [], tree.root())).toBe(false);
    expect(verifyMerkleInclusion(many[0]!, 0, 5, [new Uint8Array(31)], tree.root())).toBe(false);
  });

  test('a tree of 10,000 leaves: proofs of 14 hashes', () => {
    const leaves = Array.from({ length: 10_000 }, (_, i) => merkleLeafHash(new Uint8Array([i & 255, i >> 8])));
    const tree = new MerkleTree(leaves);
    for (const i of [0, 1, 4_095, 8_191, 8_192, 9_998, 9_999]) {
      const proof = tree.inclusionProof(i);
      expect(proof.length).toBeLessThanOrEqual(14);
      expect(verifyMerkleInclusion(leaves[i]!, i, 10_000, proof, tree.root())).toBe(true);
    }
  });
});
