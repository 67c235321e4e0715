/** pb-fair-2 golden vectors: recomputed from their inputs, and quoted correctly in FAIRNESS.md part II. */
import { readFileSync } from 'node:fs';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { describe, expect, test } from 'vitest';
import { concatBytes, u32be } from '../../shared/fairness/common/encoding.ts';
import { roundKey, roundMessagePrefix, roundStream } from '../../shared/fairness/pb-fair-2/derive.ts';
import { verifyText } from '../../shared/index.ts';
import { computeVectorsV2 } from '../vectors/compute-v2.ts';
import { SEED_A, SEED_B } from '../vectors/inputs.ts';

const dir = new URL('../vectors/', import.meta.url);
const jwk = (name: string) => JSON.parse(readFileSync(new URL(name, dir), 'utf8')) as JsonWebKey;
const stored = JSON.parse(readFileSync(new URL('fairness-v2.json', dir), 'utf8'));
const spec = readFileSync(new URL('../../FAIRNESS.md', import.meta.url), 'utf8');

describe('pb-fair-2 golden vectors', () => {
  test('fairness-v2.json is exactly what the code computes', async () => {
    const fresh = JSON.parse(JSON.stringify(await computeVectorsV2(jwk('test-key.jwk.json'), jwk('player-key.jwk.json'))));
    expect(fresh).toEqual(stored);
  });

  test('FAIRNESS.md part II quotes the vectors', () => {
    const part2 = spec.slice(spec.indexOf('# Part II'));
    const quoted = [
      stored.commitment.commitment,
      stored.lock.lock,
      stored.roundKey.roundKey,
      stored.roundStream.block0,
      ...stored.shoeStream.firstWords.map(String),
      ...stored.roundStream.recutOffsets.map((o: { m: number; offset: number }) => `m = ${o.m} → ${o.offset}`),
      stored.reshuffleStack.first12.join(' '),
      stored.shoeStack.stack.slice(0, 6).join(' '),
      stored.table.playerKey,
      stored.table.file.records[0].hash,
      stored.table.file.records[1].hash,
      stored.table.firstAcceptance.hash,
      stored.table.firstAcceptance.signature,
      stored.table.firstBetRequest.digest,
      stored.table.firstReceipt.hash,
      stored.table.lastHash,
    ];
    for (const value of quoted) expect(part2, value).toContain(value);
  });

  test('the vector table verifies', async () => {
    const report = await verifyText(JSON.stringify(stored.table.file), { keys: [stored.key] });
    expect(report.code).toBe('ok');
    expect(report.rounds.filter((r) => r.status === 'verified')).toHaveLength(10);
  });

  test('the pb-fair-1 vectors are untouched', () => {
    const v1 = JSON.parse(readFileSync(new URL('fairness.json', dir), 'utf8'));
    expect(v1.version).toBe('pb-fair-1');
    expect(v1.transcripts[0].transcript.reveal.hash).toBe('6667d35e6d54d0394374fb20b8dac2ee59f49d490679bbb41fa10f6738511520');
  });

  test('the round stream of a shoe is the same whichever shoe was dealt before it (the keyed HMAC is kept per seed)', () => {
    const secret = 'ab'.repeat(32);
    const acceptance = 'cd'.repeat(32);
    // Block 0 from the definition: HMAC(roundKey(seed), prefix ‖ u32be(0)), read as big-endian words.
    const firstWords = (seed: string) => {
      const block = hmac(sha256, roundKey(seed), concatBytes(roundMessagePrefix(secret, acceptance), u32be(0)));
      return Array.from({ length: 8 }, (_, i) => new DataView(block.buffer).getUint32(4 * i, false));
    };
    const streamed = (seed: string) => {
      const stream = roundStream(seed, secret, acceptance);
      return Array.from({ length: 8 }, () => stream.nextWord());
    };
    for (const seed of [SEED_A, SEED_B, SEED_A, SEED_A, SEED_B]) expect(streamed(seed), seed).toEqual(firstWords(seed));
    expect(firstWords(SEED_A)).not.toEqual(firstWords(SEED_B));
  });
});
