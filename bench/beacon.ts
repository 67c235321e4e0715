/**
 * Beacon figures (`npm run bench -- beacon`): verifying one drand quicknet round (a BLS pairing
 * check in pure JavaScript, @noble/curves), and signing one round with a local beacon key.
 * A shared table verifies its round once, never per player. Figures only: nothing passes or fails.
 */
import { QUICKNET, verifyBeacon } from '../shared/beacon.ts';
import { beaconSecretKeyFromSeed, localBeacon, signRound } from '../shared/beacon-local.ts';

const ROUND_1000 = {
  round: 1000,
  signature: 'b44679b9a59af2ec876b1a6b1ad52ea9b1615fc3982b19576350f93447cb1125e342b73a8dd2bacbe47e4b6b63ed5e39',
  randomness: 'fe290beca10872ef2fb164d2aa4442de4566183ec51c56ff3cd603d930e54fdd',
};

let sink = 0;

function median(xs: number[]): number {
  const sorted = xs.slice().sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Median wall and CPU time (user + system) of `n` calls, in ms, after `warm` unmeasured ones. */
function measure(n: number, warm: number, fn: (i: number) => void): { wall: number; cpu: number } {
  for (let i = 0; i < warm; i++) fn(i);
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < n; i++) {
    const cpu = process.cpuUsage();
    const t = performance.now();
    fn(i);
    walls.push(performance.now() - t);
    const used = process.cpuUsage(cpu);
    cpus.push((used.user + used.system) / 1000);
  }
  return { wall: median(walls), cpu: median(cpus) };
}

export async function run(): Promise<void> {
  const cold = performance.now();
  const first = verifyBeacon(QUICKNET, ROUND_1000);
  if (!first.ok) throw new Error(`bench vector failed: ${first.error.message}`);
  console.log(`verify the first quicknet round in this process (module warm-up, public key decoding): ${(performance.now() - cold).toFixed(1)} ms`);

  const verify = measure(21, 3, () => (sink += Number(verifyBeacon(QUICKNET, ROUND_1000).ok)));
  console.log(
    `verify one quicknet round (hash to G1, BLS pairing check, SHA-256 randomness): ${verify.wall.toFixed(1)} ms median of 21 (CPU ${verify.cpu.toFixed(1)} ms)`,
  );

  const made = localBeacon(beaconSecretKeyFromSeed(new Uint8Array(48).fill(1)), { periodSeconds: 3, genesisTime: QUICKNET.genesisTime });
  if (!made.ok) throw new Error(made.error.message);
  const beacon = made.value;
  const sign = measure(21, 3, (i) => (sink += signRound(beacon, 1000 + i).round));
  console.log(
    `sign one round with a local beacon key (hash to G1, scalar multiplication): ${sign.wall.toFixed(1)} ms median of 21 (CPU ${sign.cpu.toFixed(1)} ms)`,
  );
  if (sink === 0.5) console.log('');
}
