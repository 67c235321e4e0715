/** Computes the pb-fair-2 golden vectors (FAIRNESS.md part II) with the shared/ code: generate-v2.ts writes them, fairness-v2-vectors.test.ts recomputes them. */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import {
  bytesToHex,
  canonicalJson,
  cardCode,
  concatBytes,
  type FairnessFile,
  hexToBytes,
  importSigningKey,
  LOCK_TAG,
  lockOf,
  playerKeyOf,
  recordBytes,
  recutOffset,
  requestDigest,
  roundKey,
  roundMessagePrefix,
  roundStack,
  roundStream,
  seedCommitment,
  shoeStack,
  type ShoeParams,
  type ReshuffleParams,
  shoeStream,
  u32be,
  utf8Bytes,
} from '../../shared/index.ts';
import { playPrivateTable } from '../players/pb-fair-2.ts';
import { SEED_A, SEED_B } from './inputs.ts';

export const SECRET_1 = '0f'.repeat(32);
export const ACCEPTANCE_HASH = 'ab'.repeat(32);
export const ONE_DECK_V2: ShoeParams = { algorithm: 'pb-fair-2', mode: 'shoe', decks: 1, burn: true, cutCardFromEnd: 14, voidAfterSeconds: 600 };
export const RESHUFFLE_V2: ReshuffleParams = { algorithm: 'pb-fair-2', mode: 'reshuffle', decks: 6, roundLimit: 100, voidAfterSeconds: 600 };

/** Round r's secret in the vector table: SHA-256("pb-fair-2 vector secret " ‖ r), hex. */
export const vectorSecret = (r: number): string => bytesToHex(sha256(utf8Bytes(`pb-fair-2 vector secret ${r}`)));

export async function vectorTableV2(operatorJwk: JsonWebKey, playerJwk: JsonWebKey): Promise<FairnessFile> {
  const operatorKey = await importSigningKey(operatorJwk);
  const playerKey = await importSigningKey(playerJwk);
  const rounds = Array.from({ length: 12 }, (_, i) => ({
    bets: [{ sector: i % 5, box: (['player', 'banker', 'tie'] as const)[i % 3]!, amount: 100 * (1 + ((7 * (i + 1)) % 20)) }],
    secret: vectorSecret(i + 1),
  }));
  const file = await playPrivateTable({
    table: 'vector-table',
    operatorKey,
    playerKey,
    openingBalance: 1_000_000,
    shoes: [
      {
        params: ONE_DECK_V2,
        limits: { min: 100, max: 10_000, step: 100, chips: [100, 500, 1_000, 2_000, 5_000, 10_000] },
        serverSeed: SEED_A,
        clientSeed: 'player seed',
        cut: 26,
        rounds,
      },
      { params: { ...RESHUFFLE_V2, roundLimit: 3 }, serverSeed: SEED_B, clientSeed: 'Ünïcödé 🎲', cut: 157, rounds: rounds.slice(0, 3) },
    ],
  });
  return { version: file.version, records: file.records };
}

export async function computeVectorsV2(operatorJwk: JsonWebKey, playerJwk: JsonWebKey) {
  const stream = roundStream(SEED_A, SECRET_1, ACCEPTANCE_HASH);
  const table = await vectorTableV2(operatorJwk, playerJwk);
  const acceptance = table.records[2]!;
  const receipt = table.records[3]!;
  const wordStream = shoeStream(SEED_A, 'player seed');
  return {
    version: 'pb-fair-2',
    about: 'Golden vectors of FAIRNESS.md part II, written by test/vectors/generate-v2.ts; checked by test/shared/fairness-v2-vectors.test.ts.',
    key: (await importSigningKey(operatorJwk)).publicJwk,
    commitment: { serverSeed: SEED_A, commitment: seedCommitment(SEED_A) },
    lock: { secret: SECRET_1, hashedBytesHex: bytesToHex(concatBytes(utf8Bytes(LOCK_TAG), hexToBytes(SECRET_1)!)), lock: lockOf(SECRET_1) },
    shoeStream: { serverSeed: SEED_A, clientSeed: 'player seed', firstWords: Array.from({ length: 4 }, () => wordStream.nextWord()) },
    roundKey: { serverSeed: SEED_A, roundKey: bytesToHex(roundKey(SEED_A)) },
    roundStream: {
      serverSeed: SEED_A,
      secret: SECRET_1,
      acceptanceHash: ACCEPTANCE_HASH,
      block0MessageHex: bytesToHex(concatBytes(roundMessagePrefix(SECRET_1, ACCEPTANCE_HASH), u32be(0))),
      block0: bytesToHex(hmac(sha256, roundKey(SEED_A), concatBytes(roundMessagePrefix(SECRET_1, ACCEPTANCE_HASH), u32be(0)))),
      firstWords: Array.from({ length: 4 }, () => stream.nextWord()),
      recutOffsets: [48, 47, 300].map((m) => ({ m, offset: recutOffset(SEED_A, SECRET_1, ACCEPTANCE_HASH, m) })),
    },
    shoeStack: {
      params: ONE_DECK_V2,
      serverSeed: SEED_A,
      clientSeed: 'player seed',
      cut: 26,
      stack: shoeStack(ONE_DECK_V2, SEED_A, 'player seed', 26).map(cardCode),
    },
    reshuffleStack: {
      params: RESHUFFLE_V2,
      serverSeed: SEED_B,
      secret: SECRET_1,
      acceptanceHash: ACCEPTANCE_HASH,
      cut: 157,
      first12: roundStack(RESHUFFLE_V2, SEED_B, SECRET_1, ACCEPTANCE_HASH, 157).slice(0, 12).map(cardCode),
    },
    table: {
      playerKey: playerKeyOf(await importSigningKey(playerJwk)),
      firstAcceptance: {
        canonicalJson: canonicalJson(acceptance.body),
        recordBytesHex: bytesToHex(recordBytes(acceptance.body)),
        hash: acceptance.hash,
        signature: acceptance.signature,
      },
      firstBetRequest: {
        canonicalJson: canonicalJson((acceptance.body as { request: { body: object } }).request.body),
        digest: bytesToHex(requestDigest((acceptance.body as { request: { body: object } }).request.body)),
      },
      firstReceipt: { canonicalJson: canonicalJson(receipt.body), hash: receipt.hash },
      lastHash: table.records.at(-1)!.hash,
      records: table.records.length,
      file: table,
    },
  };
}
