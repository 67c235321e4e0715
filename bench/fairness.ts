/**
 * Fairness figures (`npm run bench -- fairness`): deriving an 8-deck shoe from its seeds, and
 * verifying a whole 8-deck shoe (about 80 rounds, played with fresh keys): as a pb-fair-1
 * transcript, and as a pb-fair-2 file (both signers, two records per round).
 * Target: the whole-shoe verification under 20 ms in Node. Figures only: nothing passes or fails.
 */
import {
  BOXES,
  CARDS_PER_DECK,
  cutRange,
  DEFAULT_ROOM,
  FAIR1_DEFAULT_SHOE_PARAMS,
  DEFAULT_VOID_AFTER_SECONDS,
  deriveFair1Shoe,
  generateSigningKey,
  importVerifyKeys,
  newRoundSecret,
  newServerSeed,
  fair1RecordDigest,
  fair1RecordHash,
  ROOMS,
  SECTORS,
  type ShoeParams,
  verifyBytes,
  verifyText,
  verifyFair1Transcript,
} from '../shared/index.ts';
import { MerkleTree, merkleLeafHash, verifyMerkleInclusion } from '../shared/fairness/common/merkle.ts';
import { playFair1Transcript } from '../test/players/pb-fair-1.ts';
import { playPrivateTable } from '../test/players/pb-fair-2.ts';

let sink = 0;

/** Wall time and this process's CPU time (user + system, all threads) of one call, in ms. */
async function timed(fn: () => Promise<unknown> | unknown): Promise<{ wall: number; cpu: number }> {
  const cpu = process.cpuUsage();
  const t = performance.now();
  await fn();
  const wall = performance.now() - t;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000 };
}

function median(xs: number[]): number {
  const sorted = xs.slice().sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const EIGHT_DECKS = { ...FAIR1_DEFAULT_SHOE_PARAMS, decks: 8 };
const CUTS = cutRange(EIGHT_DECKS);
/** A cut in the middle of the stack. */
const MIDDLE_CUT = Math.floor((EIGHT_DECKS.decks * CARDS_PER_DECK) / 2);
const randomBytes = (n: number) => crypto.getRandomValues(new Uint8Array(n));

function derivationFigures(): void {
  const seeds = Array.from({ length: 2_000 }, () => newServerSeed(randomBytes));
  for (const s of seeds.slice(0, 200)) sink += deriveFair1Shoe(EIGHT_DECKS, s, 'warm-up', MIDDLE_CUT).burned; // warm-up
  const batches = Array.from({ length: 9 }, (_, b) => {
    const cpu = process.cpuUsage();
    const t = performance.now();
    for (let i = b * 200; i < (b + 1) * 200; i++)
      sink += deriveFair1Shoe(EIGHT_DECKS, seeds[i % seeds.length]!, 'bench client seed', CUTS.min + (i % (CUTS.max - CUTS.min + 1))).burned;
    const used = process.cpuUsage(cpu);
    return { wall: ((performance.now() - t) * 1000) / 200, cpu: (used.user + used.system) / 200 };
  });
  console.log(
    `shoe derivation, ${EIGHT_DECKS.decks} decks (${EIGHT_DECKS.decks * CARDS_PER_DECK} cards: HMAC stream, rejection sampling, Fisher-Yates, cut, burn): ` +
      `${median(batches.map((b) => b.wall)).toFixed(1)} µs median per shoe (CPU ${median(batches.map((b) => b.cpu)).toFixed(1)} µs)`,
  );
}

async function verificationFigures(): Promise<void> {
  const { key } = await generateSigningKey();
  const transcript = await playFair1Transcript({
    table: 'bench',
    shoe: 1,
    params: EIGHT_DECKS,
    serverSeed: newServerSeed(randomBytes),
    clientSeed: 'bench client seed',
    cut: MIDDLE_CUT,
    key,
    balance: 100_000_000,
    limits: ROOMS[DEFAULT_ROOM].limits,
    bets: (r) => [
      { sector: r % SECTORS, box: BOXES[r % BOXES.length]!, amount: 1_000 },
      { sector: (r + 1) % SECTORS, box: 'banker', amount: 2_000 },
    ],
    clock: (n) => new Date(Date.UTC(2025, 0, 1, 0, 0, n)).toISOString(),
  });
  const jwks = { keys: [key.publicJwk] };
  const bytes = JSON.stringify(transcript).length;
  for (let i = 0; i < 5; i++) sink += (await verifyFair1Transcript(transcript, jwks)).rounds.length; // warm-up

  const withImport: { wall: number; cpu: number }[] = [];
  for (let i = 0; i < 21; i++) {
    withImport.push(
      await timed(async () => {
        const report = await verifyFair1Transcript(transcript, jwks);
        if (!report.ok) throw new Error(`bench transcript failed: ${report.failure?.message}`);
      }),
    );
  }
  const keys = await importVerifyKeys(jwks);
  const preImported: { wall: number; cpu: number }[] = [];
  for (let i = 0; i < 21; i++) preImported.push(await timed(async () => (sink += (await verifyFair1Transcript(transcript, keys)).rounds.length)));
  const hashing: number[] = [];
  for (let i = 0; i < 21; i++) {
    const t = performance.now();
    for (const r of transcript.receipts) sink += fair1RecordHash(r.body).length;
    hashing.push(performance.now() - t);
  }
  const records = transcript.receipts.length + 3;
  const wall = (xs: { wall: number }[]) => median(xs.map((x) => x.wall)).toFixed(2);
  const cpu = (xs: { cpu: number }[]) => median(xs.map((x) => x.cpu)).toFixed(2);
  console.log(
    `verify a whole 8-deck shoe: ${transcript.receipts.length} receipts + commitment, start, reveal (${records} Ed25519 signatures, ${(bytes / 1024).toFixed(0)} KiB JSON): ` +
      `${wall(withImport)} ms median of ${withImport.length} (CPU ${cpu(withImport)} ms) importing the JWKS each time; ` +
      `${wall(preImported)} ms (CPU ${cpu(preImported)} ms) with the keys imported once; target < 20 ms`,
  );
  const key0 = keys.byId.get(transcript.commitment.keyId)!;
  const digests = transcript.receipts.map((r) => fair1RecordDigest(r.body));
  const single: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    for (const [j, r] of transcript.receipts.entries()) sink += Number(await verifyBytes(key0, r.signature, digests[j]!));
    single.push(((performance.now() - t) * 1000) / transcript.receipts.length);
  }
  console.log(
    `  for scale on this machine now: canonical JSON + SHA-256 of the ${transcript.receipts.length} receipts ${median(hashing).toFixed(2)} ms; ` +
      `one WebCrypto Ed25519 verify ${median(single).toFixed(0)} µs (awaited one by one)`,
  );
}

/**
 * pb-fair-2: a whole 8-deck shoe played to its cut card by both signers (playPrivateTable), as the
 * table's file: each round is an acceptance (embedding the player's signed bet) and a receipt
 * (embedding the signed secret), so about twice the records and four signatures per round.
 */
async function verificationFiguresV2(): Promise<void> {
  const operator = (await generateSigningKey('bench-operator')).key;
  const player = (await generateSigningKey('bench-player')).key;
  const params: ShoeParams = {
    algorithm: 'pb-fair-2',
    mode: 'shoe',
    decks: 8,
    burn: true,
    cutCardFromEnd: FAIR1_DEFAULT_SHOE_PARAMS.cutCardFromEnd,
    voidAfterSeconds: DEFAULT_VOID_AFTER_SECONDS,
  };
  const file = await playPrivateTable({
    table: 'bench',
    operatorKey: operator,
    playerKey: player,
    openingBalance: 100_000_000,
    shoes: [
      {
        params,
        limits: ROOMS[DEFAULT_ROOM].limits,
        serverSeed: newServerSeed(randomBytes),
        clientSeed: 'bench client seed',
        cut: MIDDLE_CUT,
        // More rounds than the shoe holds: play stops at the cut card.
        rounds: Array.from({ length: 120 }, (_, r) => ({
          bets: [
            { sector: r % SECTORS, box: BOXES[r % BOXES.length]!, amount: 1_000 },
            { sector: (r + 1) % SECTORS, box: 'banker', amount: 2_000 },
          ],
          secret: newRoundSecret(randomBytes),
        })),
      },
    ],
  });
  const text = JSON.stringify({ version: file.version, records: file.records });
  const jwks = { keys: [operator.publicJwk] };
  for (let i = 0; i < 5; i++) sink += (await verifyText(text, jwks)).rounds.length; // warm-up
  const runs: { wall: number; cpu: number }[] = [];
  let rounds = 0;
  for (let i = 0; i < 21; i++) {
    runs.push(
      await timed(async () => {
        const report = await verifyText(text, jwks);
        if (!report.ok) throw new Error(`bench file failed: ${report.failure?.message}`);
        rounds = report.rounds.length;
      }),
    );
  }
  const signatures = file.records.length + 2 * rounds + 1; // every record, the two requests of each round, the start request
  console.log(
    `pb-fair-2: verify a whole 8-deck shoe from its file text: ${rounds} rounds, ${file.records.length} records ` +
      `(${signatures} Ed25519 signatures, operator's and player's; ${(text.length / 1024).toFixed(0)} KiB JSON): ` +
      `${median(runs.map((x) => x.wall)).toFixed(2)} ms median of ${runs.length} (CPU ${median(runs.map((x) => x.cpu)).toFixed(2)} ms), importing the JWKS each time; target < 20 ms`,
  );
}

/** The Merkle tree a shared table's close will commit to (one leaf per accepted bet): build, one proof, one check. */
function merkleFigures(): void {
  for (const n of [1_000, 10_000]) {
    const leaves = Array.from({ length: n }, () => merkleLeafHash(randomBytes(200)));
    const build: number[] = [];
    let tree = new MerkleTree(leaves);
    for (let i = 0; i < 7; i++) {
      const t = performance.now();
      tree = new MerkleTree(leaves);
      build.push(performance.now() - t);
    }
    const root = tree.root();
    const checks: number[] = [];
    let proofLength = 0;
    for (let b = 0; b < 7; b++) {
      const t = performance.now();
      for (let i = 0; i < 200; i++) {
        const index = (i * 7919 + b) % n;
        const proof = tree.inclusionProof(index);
        proofLength = Math.max(proofLength, proof.length);
        if (!verifyMerkleInclusion(leaves[index]!, index, n, proof, root)) throw new Error('bench proof failed');
      }
      checks.push(((performance.now() - t) * 1000) / 200);
    }
    console.log(
      `merkle (RFC 9162) over ${n} bet leaves: build ${median(build).toFixed(2)} ms median; one inclusion proof (${proofLength} hashes, ${proofLength * 32} B) built and checked ${median(checks).toFixed(1)} µs median`,
    );
  }
}

export async function run(): Promise<void> {
  derivationFigures();
  merkleFigures();
  await verificationFigures();
  await verificationFiguresV2();
  if (sink === 0.5) console.log('');
}
