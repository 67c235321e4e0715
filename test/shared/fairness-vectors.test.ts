/**
 * The golden vectors (test/vectors/fairness.json, written once by test/vectors/generate.ts from fixed
 * seeds and the fixed RFC 8032 test key) must come out of the code byte for byte, and FAIRNESS.md
 * must quote them.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { base64urlToBytes, hexToBytes, importSigningKey, signBytes, bytesToHex, verifyFair1Transcripts } from '../../shared/index.ts';
import { computeVectors } from '../vectors/compute.ts';
import { vectorInputs } from '../vectors/inputs.ts';
import { loadVectors, testJwks, testPrivateJwk } from './fairness-fixtures.ts';

const vectors = loadVectors();

test('the code reproduces every golden vector exactly', async () => {
  const fresh = JSON.parse(JSON.stringify(await computeVectors(vectorInputs, testPrivateJwk)));
  expect(fresh).toEqual(vectors);
});

test('the test key is RFC 8032 TEST 1, its kid the RFC 8037 thumbprint', async () => {
  const key = await importSigningKey(testPrivateJwk);
  expect(key.keyId).toBe('kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k');
  expect(bytesToHex(base64urlToBytes(await signBytes(key, new Uint8Array(0)))!)).toBe(
    'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
  );
});

test("a receipt's hash and signature check out with plain WebCrypto, as another implementation would", async () => {
  const { firstReceipt, transcript } = vectors.transcripts[0]!;
  const bytes = hexToBytes(firstReceipt.recordBytesHex)!;
  expect(new TextDecoder().decode(bytes)).toBe(`pb-fair-1/record\n${firstReceipt.canonicalJson}`);
  expect(JSON.parse(firstReceipt.canonicalJson)).toEqual(transcript.receipts[0]!.body);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  expect(bytesToHex(digest)).toBe(firstReceipt.hash);
  const publicKey = await crypto.subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x: vectors.key.publicJwk.x! }, { name: 'Ed25519' }, false, ['verify']);
  expect(await crypto.subtle.verify({ name: 'Ed25519' }, publicKey, base64urlToBytes(firstReceipt.signature)!, digest)).toBe(true);
});

test('the golden transcripts verify', async () => {
  const reports = await verifyFair1Transcripts(
    vectors.transcripts.map((v) => v.transcript),
    await testJwks(),
  );
  expect(reports.every((r) => r.ok && !r.pending)).toBe(true);
});

test('FAIRNESS.md quotes the vectors it documents', () => {
  const doc = readFileSync(new URL('../../FAIRNESS.md', import.meta.url), 'utf8');
  const v = vectors as unknown as {
    commitments: { commitment: string; hashedBytesHex: string }[];
    streams: { blocks: { messageHex: string; hmacHex: string }[]; firstWords: number[] }[];
    shoes: { stack: string[]; shuffled: string[] }[];
  };
  const quoted = [
    v.commitments[0]!.commitment,
    v.commitments[0]!.hashedBytesHex,
    v.streams[0]!.blocks[0]!.messageHex,
    v.streams[0]!.blocks[0]!.hmacHex,
    String(v.streams[0]!.firstWords[0]),
    v.shoes[0]!.shuffled.slice(0, 13).join(' '),
    v.shoes[0]!.stack.slice(0, 13).join(' '),
    vectors.transcripts[0]!.firstReceipt.canonicalJson,
    vectors.transcripts[0]!.firstReceipt.hash,
    vectors.transcripts[0]!.firstReceipt.signature,
    vectors.key.kid,
  ];
  for (const q of quoted) expect(doc, q).toContain(q);
});
