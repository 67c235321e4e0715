/** Computes the golden vectors from their inputs with the shared/ code (used by generate.ts and by the vectors test). */
import {
  bytesToHex,
  canonicalJson,
  cardCode,
  FAIR1_COMMIT_TAG,
  deriveFair1Stack,
  importSigningKey,
  prepareShoe,
  fair1RecordBytes,
  fair1SeedCommitment,
  serverSeedBytes,
  fair1ShuffledDecks,
  fair1ShuffleMessage,
  fair1ShuffleStream,
  type Fair1Transcript,
  uniformBelow,
  utf8Bytes,
  concatBytes,
} from '../../shared/index.ts';
import { playFair1Transcript } from '../players/pb-fair-1.ts';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import type { vectorInputs as Inputs } from './inputs.ts';

export async function computeVectors(inputs: typeof Inputs, privateJwk: JsonWebKey) {
  const key = await importSigningKey(privateJwk);
  const stream0 = inputs.streams[0]!;
  const drawing = fair1ShuffleStream(serverSeedBytes(stream0.serverSeed), stream0.clientSeed, stream0.nonce);
  const words: number[] = [];
  const tap = {
    nextWord: () => {
      const w = drawing.nextWord();
      words.push(w);
      return w;
    },
    get blocks() {
      return drawing.blocks;
    },
  };

  const transcripts: {
    name: string;
    transcript: Fair1Transcript;
    firstReceipt: { canonicalJson: string; recordBytesHex: string; hash: string; signature: string };
  }[] = [];
  for (const t of inputs.transcripts) {
    const before = transcripts.find((x) => x.name === ('after' in t ? t.after : undefined));
    const transcript = await playFair1Transcript({
      table: t.table,
      shoe: t.shoe,
      params: t.params,
      serverSeed: t.serverSeed,
      clientSeed: t.clientSeed,
      cut: t.cut,
      key,
      balance: t.balance,
      ...('limits' in t ? { limits: t.limits } : {}),
      prev: before?.transcript.reveal?.hash ?? null,
      affiliate: t.affiliate,
      bets: t.bets,
      clock: t.clock,
      ...('maxRounds' in t ? { maxRounds: t.maxRounds } : {}),
    });
    const first = transcript.receipts[0]!;
    transcripts.push({
      name: t.name,
      transcript,
      firstReceipt: {
        canonicalJson: canonicalJson(first.body),
        recordBytesHex: bytesToHex(fair1RecordBytes(first.body)),
        hash: first.hash,
        signature: first.signature,
      },
    });
  }

  return {
    version: 'pb-fair-1',
    about: 'Golden vectors of FAIRNESS.md, written by test/vectors/generate.ts from test/vectors/inputs.ts; checked by test/shared/fairness-vectors.test.ts.',
    key: { kid: key.keyId, publicJwk: key.publicJwk, source: 'RFC 8032 section 7.1 TEST 1 (private d in test/vectors/test-key.jwk.json)' },
    canonicalJson: inputs.canonical.map((value) => ({ json: canonicalJson(value) })),
    commitments: inputs.commitmentSeeds.map((serverSeed) => ({
      serverSeed,
      hashedBytesHex: bytesToHex(concatBytes(utf8Bytes(FAIR1_COMMIT_TAG), serverSeedBytes(serverSeed))),
      commitment: fair1SeedCommitment(serverSeed),
    })),
    streams: inputs.streams.map((s) => {
      const seed = serverSeedBytes(s.serverSeed);
      const blocks = [0, 1].map((counter) => {
        const message = fair1ShuffleMessage(s.clientSeed, s.nonce, counter);
        return { counter, messageHex: bytesToHex(message), hmacHex: bytesToHex(hmac(sha256, seed, message)) };
      });
      const stream = fair1ShuffleStream(seed, s.clientSeed, s.nonce);
      return { ...s, blocks, firstWords: Array.from({ length: 10 }, () => stream.nextWord()) };
    }),
    draws: {
      stream: stream0,
      results: inputs.draws.map((n) => {
        const from = words.length;
        const value = uniformBelow(tap, n);
        return { n, limit: 2 ** 32 - (2 ** 32 % n), wordsRead: words.slice(from), value };
      }),
    },
    shoes: inputs.shoes.map((s) => {
      const stack = deriveFair1Stack(s.params, s.serverSeed, s.clientSeed, s.cut, s.nonce);
      const shoe = prepareShoe(stack, s.params);
      return {
        ...s,
        shuffled: fair1ShuffledDecks(s.params, s.serverSeed, s.clientSeed, s.nonce).map(cardCode),
        stack: stack.map(cardCode),
        burned: shoe.burned,
        cutCardAt: shoe.cutCardAt,
      };
    }),
    transcripts,
  };
}
