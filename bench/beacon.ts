/**
 * Beacon figures (`npm run bench -- beacon`): verifying one drand quicknet round (hash to G1, a BLS
 * pairing check, SHA-256 of the signature), and signing one round with a local beacon key.
 * A shared table verifies its round once, never per player. Figures only: nothing passes or fails.
 *
 * The options measured, each through `verifyBeacon` (or as it did before) on the same real round,
 * and checked on it first (the round verifies; its signature for the next round does not):
 * - `verifyBeacon` with the reference check: @noble/curves (pure JavaScript) with the Miller loop's
 *   lines of the two fixed G2 points (the chain's key and the generator) computed once per key:
 *   what the widget and the CLI verify with;
 * - the library's own `shortSignatures.verify`, which computes those lines on every call (what
 *   `verifyBeacon` did before);
 * - `verifyBeacon` with herumi's mcl in WebAssembly (worker/beacon/mcl.ts): the binary of the
 *   registry's `mcl-wasm` 2.4.1 (BSD-3-Clause), taken out of its JavaScript at build time
 *   (scripts/mcl-wasm.ts) and given to workerd as a module compiled ahead, since workerd compiles
 *   no WebAssembly from bytes ("Wasm code generation disallowed by embedder"); driven through its C
 *   interface with the lines of −g2 and of the key computed once: what the Worker checks with.
 * Other registry packages do not fit: bls-eth-wasm is the same mcl build with Ethereum's
 * signatures on G2, bls-signatures (Chia) has only signatures on G2 and no pairing, @chainsafe/blst
 * is a native Node addon (not in a Worker).
 *
 * Measured on the 2-core development machine while six other sessions used it (load average
 * 11–15, so the absolute figures move from run to run; the options are interleaved so that load
 * hits them alike), CPU per verification, median, three runs: in workerd, noble 13.3, 16.7 and
 * 16.7 ms, the library verify 17.3, 20.0 and 20.7 ms, mcl 8.0, 10.7 and 10.7 ms (35–40% less
 * than noble); in Node, noble 30–35 ms and mcl 6–8 ms (mcl gains less in workerd than in Node).
 * Setting mcl up in an isolate (instantiate, init, the lines of −g2 and of the key) costs some
 * 7–8 ms more, once, on the first round the isolate checks; compiling the module takes ~4 ms of
 * CPU in Node. The module adds 426 KB (123 KB gzipped) to the Worker's upload and nothing to the
 * widget.
 *
 * Node: median CPU (user + system) and wall time per verification, the options interleaved so
 * that a busy machine slows them alike. workerd: the same options inside the Workers runtime
 * (through Miniflare), CPU of the workerd process per verification, batches of the options in turn.
 */
import { bls12_381 } from '@noble/curves/bls12-381.js';
import {
  BEACON_DST,
  type BeaconSignatureCheck,
  beaconMessage,
  beaconRandomness,
  isHex,
  nobleSignatureCheck,
  QUICKNET,
  useBeaconSignatureCheck,
  verifyBeacon,
} from '../shared/beacon.ts';
import { beaconSecretKeyFromSeed, localBeacon, signRound } from '../shared/beacon-local.ts';
import { mclSignatureCheck } from '../worker/beacon/mcl.ts';

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

/** `verifyBeacon` on ROUND_1000 (or its signature for `round`) with `check` in place, the realm's check restored after. */
function verifyWith(check: BeaconSignatureCheck, round = ROUND_1000.round): boolean {
  useBeaconSignatureCheck(check);
  try {
    return verifyBeacon(QUICKNET, { ...ROUND_1000, round }).ok;
  } finally {
    useBeaconSignatureCheck();
  }
}

/**
 * The options, by name, the same in Node and in workerd: `mcl` is the compiled module of mcl's
 * WebAssembly (compiled from its bytes in Node; imported, compiled ahead, in workerd).
 */
export function beaconOptions(mcl: WebAssembly.Module): Record<string, { label: string; verify: Verify }> {
  const mclCheck = mclSignatureCheck(mcl);
  return {
    noble: {
      label: 'verifyBeacon, @noble/curves (JavaScript), G2 lines precomputed per chain key (the widget and the CLI)',
      verify: (round) => verifyWith(nobleSignatureCheck, round),
    },
    library: { label: '@noble/curves shortSignatures.verify, G2 lines computed per call (before)', verify: libraryVerify },
    mcl: {
      label: 'verifyBeacon, mcl (WebAssembly, mcl-wasm 2.4.1), G2 lines precomputed per chain key (the Worker)',
      verify: (round) => verifyWith(mclCheck, round),
    },
    'mcl-setup': {
      label: 'set mcl up (instantiate, init, the lines of -g2 and the key) and verify one round: once per isolate',
      verify: (round) => verifyWith(mclSignatureCheck(mcl), round),
    },
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
async function measureInWorkerd(names: string[], batches: number, calls: number): Promise<Record<string, number>> {
  const { build } = await import('esbuild');
  const { convertV4MiniflareOptions, Miniflare } = await import('miniflare');
  const { workerdCpu } = await import('./workerd.ts');
  const { mclWasmModule } = await import('../scripts/mcl-wasm.ts');
  const entry = `
    import { beaconOptions } from './bench/beacon.ts';
    import mcl from './mcl.wasm';
    const OPTIONS = beaconOptions(mcl);
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
    // mcl's WebAssembly is a module of its own, compiled ahead, as in the Worker.
    external: ['esbuild', 'miniflare', './workerd.ts', '../scripts/mcl-wasm.ts', 'node:*', '*.wasm'],
    write: false,
    logLevel: 'warning',
  });
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      workers: [
        {
          name: 'beacon-bench',
          modules: [{ type: 'ESModule', path: 'index.js', contents: bundle.outputFiles[0]!.text }, await mclWasmModule()],
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

  const { mclWasmBytes } = await import('../scripts/mcl-wasm.ts');
  const { gzipSync } = await import('node:zlib');
  const bytes = await mclWasmBytes();
  const compiling = performance.now();
  const compilingCpu = process.cpuUsage();
  const module = new WebAssembly.Module(bytes);
  const compileCpu = process.cpuUsage(compilingCpu);
  console.log(
    `mcl's WebAssembly: ${(bytes.length / 1024).toFixed(0)} KB (${(gzipSync(bytes).length / 1024).toFixed(0)} KB gzipped) in the Worker, none in the widget; compiled in Node: CPU ${((compileCpu.user + compileCpu.system) / 1000).toFixed(1)} ms (wall ${(performance.now() - compiling).toFixed(1)} ms)`,
  );
  const OPTIONS = beaconOptions(module);
  const options = Object.entries(OPTIONS);
  for (const [, o] of options) checkOption(o.label, o.verify);

  const figures = measureInterleaved(
    21,
    3,
    options.map(
      ([, o]) =>
        () =>
          (sink += Number(o.verify())),
    ),
  );
  options.forEach(([, o], k) => {
    const f = figures[k]!;
    console.log(`verify one quicknet round in Node, ${o.label}: CPU ${f.cpu.toFixed(1)} ms median of 21 (wall ${f.wall.toFixed(1)} ms)`);
  });

  try {
    const inWorkerd = await measureInWorkerd(Object.keys(OPTIONS), 7, 15);
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
