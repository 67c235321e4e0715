/**
 * Beacon figures (`npm run bench -- beacon`): verifying one drand quicknet round (hash to G1, a BLS
 * pairing check, SHA-256 of the signature), and signing one round with a local beacon key.
 * A shared table verifies its round once, never per player. Figures only: nothing passes or fails.
 *
 * The options measured, each on the same real round (and checked on it first):
 * - `verifyBeacon` as shipped: @noble/curves (pure JavaScript) with the Miller loop's lines of the
 *   two fixed G2 points (the chain's key and the generator) computed once per chain key;
 * - the library's own `shortSignatures.verify`, which computes those lines on every call (what
 *   `verifyBeacon` did before);
 * - herumi's mcl compiled to WebAssembly (`mcl-wasm`, BSD-3-Clause), only when it is installed
 *   (`npm install --no-save mcl-wasm`): it is not a dependency. It is some 3× faster in CPU, but it
 *   does not load in workerd as published (it compiles its WebAssembly from bytes at run time,
 *   which workerd refuses: "Wasm code generation disallowed by embedder"; it would need its
 *   binary extracted and imported as a compiled module), its RFC 9380 DST for G1 is set through
 *   an export it marks internal, and it would add ~600 KB (its WebAssembly in base64) to the
 *   widget's lazy verifier. Other registry packages do not fit: bls-eth-wasm is the same mcl
 *   build with Ethereum's signatures on G2, bls-signatures (Chia) has only signatures on G2 and
 *   no pairing, @chainsafe/blst is a native Node addon (not in a Worker).
 *
 * Node: median CPU (user + system) and wall time per verification, the options interleaved so
 * that a busy machine slows them alike. workerd: the same options inside the Workers runtime
 * (through Miniflare), CPU of the workerd process per verification, batches of the options in turn.
 */
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { BEACON_DST, beaconMessage, beaconRandomness, isHex, QUICKNET, verifyBeacon } from '../shared/beacon.ts';
import { beaconSecretKeyFromSeed, localBeacon, signRound } from '../shared/beacon-local.ts';

const ROUND_1000 = {
  round: 1000,
  signature: 'b44679b9a59af2ec876b1a6b1ad52ea9b1615fc3982b19576350f93447cb1125e342b73a8dd2bacbe47e4b6b63ed5e39',
  randomness: 'fe290beca10872ef2fb164d2aa4442de4566183ec51c56ff3cd603d930e54fdd',
};

/** A verification option: true when ROUND_1000 (or `round`, for the tamper check) verifies under quicknet's key. */
type Verify = (round?: number) => boolean;

/** The library's `verify` on a strictly encoded round, and the randomness: `verifyBeacon`'s work before its lines were precomputed. */
function libraryVerify(round = ROUND_1000.round): boolean {
  const { shortSignatures } = bls12_381;
  if (!isHex(ROUND_1000.signature, 48)) return false;
  const signature = shortSignatures.Signature.fromHex(ROUND_1000.signature);
  const valid = shortSignatures.verify(signature, shortSignatures.hash(beaconMessage(round), BEACON_DST), quicknetKey());
  return valid && beaconRandomness(ROUND_1000.signature) === ROUND_1000.randomness;
}

let decodedKey: ReturnType<typeof bls12_381.G2.Point.fromHex> | undefined;
function quicknetKey(): ReturnType<typeof bls12_381.G2.Point.fromHex> {
  return (decodedKey ??= bls12_381.G2.Point.fromHex(QUICKNET.publicKey));
}

/** The options that run everywhere (Node, workerd, the browser), by name. */
export const OPTIONS: Record<string, { label: string; verify: Verify }> = {
  shipped: {
    label: 'verifyBeacon: @noble/curves, G2 lines precomputed per chain key (shipped)',
    verify: (round = ROUND_1000.round) => verifyBeacon(QUICKNET, { ...ROUND_1000, round }).ok,
  },
  library: { label: '@noble/curves shortSignatures.verify, G2 lines computed per call (before)', verify: libraryVerify },
};

/** mcl-wasm's `verify`, when the package is installed: its module, initialised for quicknet. */
async function mclOption(): Promise<Verify | string> {
  const name = 'mcl-wasm'; // not a dependency: resolved only if someone installed it
  let mcl: any;
  try {
    mcl = await import(name);
    mcl = mcl.default ?? mcl;
  } catch {
    return 'not installed (`npm install --no-save mcl-wasm` to measure it; not a dependency)';
  }
  await mcl.init(mcl.BLS12_381);
  mcl.setETHserialization(true); // the compressed encodings drand uses
  mcl.setMapToMode(mcl.IRTF); // RFC 9380 hash to curve
  const dst = new TextEncoder().encode(BEACON_DST);
  const at = mcl.mod._malloc(dst.length);
  mcl.mod.HEAP8.set(dst, at);
  const set = mcl.mod._mclBnG1_setDst(at, dst.length); // an export mcl-wasm marks internal
  mcl.mod._free(at);
  if (set !== 0) return `cannot set the DST (${set})`;
  mcl.mod._mclBn_verifyOrderG1(1); // subgroup checks on decoding
  mcl.mod._mclBn_verifyOrderG2(1);
  const key = new mcl.G2();
  key.deserialize(bls12_381.G2.Point.fromHex(QUICKNET.publicKey).toBytes(true));
  const generator = new mcl.G2();
  generator.deserialize(bls12_381.G2.Point.BASE.toBytes(true));
  const negatedGenerator = new mcl.PrecomputedG2(mcl.neg(generator));
  const keyLines = new mcl.PrecomputedG2(key);
  return (round = ROUND_1000.round) => {
    const signature = new mcl.G1();
    signature.deserialize(Buffer.from(ROUND_1000.signature, 'hex'));
    if (signature.isZero()) return false;
    const message = mcl.hashAndMapToG1(beaconMessage(round));
    const valid = mcl.finalExp(mcl.precomputedMillerLoop2(signature, negatedGenerator, message, keyLines)).isOne();
    return valid && beaconRandomness(ROUND_1000.signature) === ROUND_1000.randomness;
  };
}

let sink = 0;

function median(xs: number[]): number {
  const sorted = xs.slice().sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Median wall and CPU time (user + system) of `n` calls, in ms, after `warm` unmeasured ones. */
function measure(n: number, warm: number, fn: (i: number) => void): { wall: number; cpu: number } {
  const [figures] = measureInterleaved(n, warm, [fn]);
  return figures!;
}

/** Like `measure`, for several functions called in turn (one call of each per step), so that load hits them alike. */
function measureInterleaved(n: number, warm: number, fns: Array<(i: number) => void>): Array<{ wall: number; cpu: number }> {
  for (let i = 0; i < warm; i++) for (const fn of fns) fn(i);
  const walls = fns.map((): number[] => []);
  const cpus = fns.map((): number[] => []);
  for (let i = 0; i < n; i++) {
    fns.forEach((fn, k) => {
      const cpu = process.cpuUsage();
      const t = performance.now();
      fn(i);
      walls[k]!.push(performance.now() - t);
      const used = process.cpuUsage(cpu);
      cpus[k]!.push((used.user + used.system) / 1000);
    });
  }
  return fns.map((_, k) => ({ wall: median(walls[k]!), cpu: median(cpus[k]!) }));
}

/** Each option must accept the real round and refuse its signature for the next round. */
function checkOption(name: string, verify: Verify): void {
  if (!verify()) throw new Error(`bench option ${name} refused quicknet round ${ROUND_1000.round}`);
  if (verify(ROUND_1000.round + 1)) throw new Error(`bench option ${name} accepted round ${ROUND_1000.round}'s signature for the next round`);
}

/**
 * The shared options inside workerd: CPU ms per verification of the workerd process (/proc counts
 * in 10 ms ticks, so batches of `calls`), the median of `batches` batches per option.
 */
async function measureInWorkerd(batches: number, calls: number): Promise<Record<string, number>> {
  const { build } = await import('esbuild');
  const { convertV4MiniflareOptions, Miniflare } = await import('miniflare');
  const { workerdCpu } = await import('./workerd.ts');
  const entry = `
    import { OPTIONS } from './bench/beacon.ts';
    export default {
      async fetch(request) {
        const url = new URL(request.url);
        const option = OPTIONS[url.searchParams.get('option')];
        const calls = Number(url.searchParams.get('calls'));
        let valid = 0;
        for (let i = 0; i < calls; i++) valid += Number(option.verify());
        return new Response(String(valid + Number(option.verify(1001))));
      },
    };`;
  const bundle = await build({
    stdin: { contents: entry, resolveDir: process.cwd(), sourcefile: 'beacon-bench-entry.js', loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    // The harness (dynamically imported by run(), never in the Worker) stays out of the bundle.
    external: ['esbuild', 'miniflare', './workerd.ts', 'node:*'],
    write: false,
    logLevel: 'warning',
  });
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      workers: [
        {
          name: 'beacon-bench',
          modules: [{ type: 'ESModule', path: 'index.js', contents: bundle.outputFiles[0]!.text }],
          compatibilityDate: '2026-10-01',
        },
      ],
    }),
  );
  try {
    const call = async (option: string, n: number): Promise<void> => {
      const res = await mf.dispatchFetch(`http://bench.local/?option=${option}&calls=${n}`);
      const text = await res.text();
      if (text !== String(n)) throw new Error(`workerd option ${option}: ${text}`);
    };
    const names = Object.keys(OPTIONS);
    for (const option of names) await call(option, 3); // warm-up, and the vector checks
    // Batches of the options in turn, so that load on the machine hits them alike; the median batch.
    const perBatch: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
    for (let b = 0; b < batches; b++) {
      for (const option of names) {
        const before = await workerdCpu();
        await call(option, calls);
        const after = await workerdCpu();
        perBatch[option]!.push(((after.user + after.system - before.user - before.system) * 1000) / calls);
      }
    }
    return Object.fromEntries(names.map((name) => [name, median(perBatch[name]!)]));
  } finally {
    await mf.dispose();
  }
}

export async function run(): Promise<void> {
  const cold = performance.now();
  const first = verifyBeacon(QUICKNET, ROUND_1000);
  if (!first.ok) throw new Error(`bench vector failed: ${first.error.message}`);
  console.log(
    `verify the first quicknet round in this process (module warm-up, public key decoding, its G2 lines): ${(performance.now() - cold).toFixed(1)} ms`,
  );

  const options: Array<[string, Verify]> = Object.values(OPTIONS).map((o) => [o.label, o.verify]);
  const mcl = await mclOption();
  if (typeof mcl === 'string') console.log(`mcl-wasm (herumi mcl, WebAssembly): ${mcl}`);
  else options.push(['mcl-wasm (herumi mcl, WebAssembly), G2 lines precomputed (Node only: does not load in workerd as published)', mcl]);
  for (const [label, verify] of options) checkOption(label, verify);

  const figures = measureInterleaved(
    21,
    3,
    options.map(
      ([, verify]) =>
        () =>
          (sink += Number(verify())),
    ),
  );
  options.forEach(([label], k) => {
    const f = figures[k]!;
    console.log(`verify one quicknet round in Node, ${label}: CPU ${f.cpu.toFixed(1)} ms median of 21 (wall ${f.wall.toFixed(1)} ms)`);
  });

  try {
    const inWorkerd = await measureInWorkerd(7, 15);
    for (const [name, ms] of Object.entries(inWorkerd)) {
      console.log(`verify one quicknet round in workerd, ${OPTIONS[name]!.label}: CPU ${ms.toFixed(1)} ms (median of 7 batches of 15, the workerd process)`);
    }
  } catch (err) {
    console.log(`verify in workerd: not available (${(err as Error).message.split('\n')[0]})`);
  }

  const made = localBeacon(beaconSecretKeyFromSeed(new Uint8Array(48).fill(1)), { periodSeconds: 3, genesisTime: QUICKNET.genesisTime });
  if (!made.ok) throw new Error(made.error.message);
  const beacon = made.value;
  const sign = measure(21, 3, (i) => (sink += signRound(beacon, 1000 + i).round));
  console.log(
    `sign one round with a local beacon key (hash to G1, scalar multiplication): ${sign.wall.toFixed(1)} ms median of 21 (CPU ${sign.cpu.toFixed(1)} ms)`,
  );
  if (sink === 0.5) console.log('');
}
