/**
 * Worker figures (`npm run bench -- worker`): settled rounds per second and latency (p50, p99) of
 * each phase of a round and of the whole round, against `wrangler dev` on loopback, first with one
 * table session playing round after round, then with 64 sessions playing at once. A round is two
 * signed requests (pb-fair-2): POST /rounds (the player's signature checked, the bets validated,
 * the stake debited, the acceptance signed and stored) and POST /rounds/:n/secret (the lock
 * opened, the deal, settlement, the receipt signed and stored).
 *
 * Always starts its own `wrangler dev` on a free loopback port with its own throw-away state and
 * generous rate limits, and stops it at the end: a Worker someone left running on 8787 may be
 * another version with other limits and other state, so it is never reused. Bounded in time: each
 * phase runs for a fixed number of seconds.
 *
 * Those figures are the dev server as a whole, wrangler's proxy included. Then the Worker's own
 * cost, which is what Cloudflare bills: CPU per settled round in workerd without the proxy, and
 * SQLite rows written per round (workerd.ts). Figures only; `wrangler dev` needs dist/ (`npm run
 * build`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sendApiCall } from '../shared/wire/http-client.ts';
import { BenchPlayer, type Send } from './player.ts';
import { measureWorkerd, reportWorkerd } from './workerd.ts';
const STARTUP_TIMEOUT_MS = 90_000;
const WARMUP_ROUNDS = 20;
const SINGLE_SECONDS = 6;
const CONCURRENT_SECONDS = 8;
const CONCURRENT_SESSIONS = 64;

/** Vars for the Worker the bench starts: no rate limit gets in the way of one loopback address. */
const BENCH_VARS: Record<string, string> = {
  RATE_SESSION_BURST: '1000000',
  RATE_SESSION_PER_SEC: '1000000',
  RATE_IP_BURST: '1000000',
  RATE_IP_PER_SEC: '1000000',
  RATE_CREATE_BURST: '1000000',
  RATE_CREATE_PER_SEC: '1000000',
};

interface Phase {
  rounds: number;
  seconds: number;
  /** Per settled round: phase 1 (bet → acceptance), phase 2 (secret → receipt), and both. */
  latencies: { bet: number[]; secret: number[]; round: number[] };
  throttled: number;
  /** CPU used by the dev server (wrangler and workerd) during the phase, when measurable. */
  cpuSeconds: number | null;
}

async function isUp(base: string): Promise<boolean> {
  try {
    const res = await fetch(`${base}/.well-known/jwks.json`, { signal: AbortSignal.timeout(2000) });
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * CPU seconds used so far by every process of a process group (Linux /proc; null elsewhere). The
 * wall-clock figures depend on how busy the machine is; CPU per round much less so.
 */
async function groupCpuSeconds(pgid: number): Promise<number | null> {
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return null;
  }
  let ticks = 0;
  for (const pid of entries.filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields from 3 (state) on
      if (Number(fields[2]) !== pgid) continue; // field 5: pgrp
      ticks += Number(fields[11]) + Number(fields[12]); // fields 14, 15: utime, stime
    } catch {
      /* the process ended meanwhile */
    }
  }
  return ticks / 100; // USER_HZ is 100 on Linux
}

/** `wrangler dev` on loopback with its own state directory; `stop()` ends it and everything it started. */
async function startWrangler(): Promise<{ base: string; stop: () => Promise<void>; cpu: () => Promise<number | null> }> {
  const [port, inspector] = [await freePort(), await freePort()];
  const state = await mkdtemp(join(tmpdir(), 'pb-bench-'));
  const args = [
    'dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--inspector-port',
    String(inspector),
    '--persist-to',
    state,
    '--log-level',
    'warn',
    '--show-interactive-dev-session=false',
  ];
  for (const [k, v] of Object.entries(BENCH_VARS)) args.push('--var', `${k}:${v}`);
  const child: ChildProcess = spawn(join(process.cwd(), 'node_modules', '.bin', 'wrangler'), args, {
    detached: true, // its own process group, so that stop() reaches workerd too
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' },
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-2000);
    if (process.env.PB_BENCH_DEBUG) process.stderr.write(d); // PB_BENCH_DEBUG=1 shows wrangler's log
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
      const killer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }, 5000);
      await exited;
      clearTimeout(killer);
    }
    await rm(state, { recursive: true, force: true });
  };
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    if (await isUp(base)) return { base, stop, cpu: () => groupCpuSeconds(child.pid!) };
    await new Promise((r) => setTimeout(r, 500));
  }
  await stop();
  throw new Error(`wrangler dev did not start within ${STARTUP_TIMEOUT_MS / 1000} s: ${stderr.trim().split('\n').slice(-3).join(' / ')}`);
}

/** A `Send` over fetch; a 429 waits for its Retry-After and counts as throttled. */
function sender(base: string, phase: () => Phase | null): Send {
  return async (call, token) => {
    for (;;) {
      const result = await sendApiCall(fetch, base, call, { token });
      if (result.ok) return result.value;
      if (result.error.status === 429) {
        const p = phase();
        if (p) p.throttled++;
        await new Promise((r) => setTimeout(r, result.error.retryAfterMs ?? 1000));
        continue;
      }
      throw new Error(`${call.method} /${call.path}: HTTP ${result.error.status} ${result.error.code}: ${result.error.message}`);
    }
  };
}

/** Plays two-phase rounds on `p` until `until` (performance.now()), recording each phase's latency and the whole round's. */
async function playUntil(p: BenchPlayer, until: number, phase: Phase, maxRounds = Infinity): Promise<void> {
  let played = 0;
  while (performance.now() < until && played < maxRounds) {
    const times = await p.round();
    if (times === null) return; // out of play money: this session stops
    played++;
    phase.rounds++;
    phase.latencies.bet.push(times.bet);
    phase.latencies.secret.push(times.secret);
    phase.latencies.round.push(times.bet + times.secret);
  }
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function report(name: string, phase: Phase): void {
  const p = (xs: number[]) => {
    const sorted = xs.slice().sort((a, b) => a - b);
    return `p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms`;
  };
  const throttled = phase.throttled > 0 ? `, ${phase.throttled} throttled (429)` : '';
  const cpu =
    phase.cpuSeconds === null
      ? ''
      : `; dev server CPU ${((phase.cpuSeconds * 1000) / Math.max(1, phase.rounds)).toFixed(1)} ms per settled round (both phases)`;
  console.log(
    `${name}: ${(phase.rounds / phase.seconds).toFixed(0)} settled rounds/s (${phase.rounds} two-phase rounds in ${phase.seconds.toFixed(1)} s); ` +
      `latency of the whole round ${p(phase.latencies.round)}; phase 1 (bet → acceptance) ${p(phase.latencies.bet)}; ` +
      `phase 2 (secret → receipt) ${p(phase.latencies.secret)}${cpu}${throttled}`,
  );
}

const emptyPhase = (): Phase => ({ rounds: 0, seconds: 0, latencies: { bet: [], secret: [], round: [] }, throttled: 0, cpuSeconds: null });

/** The phase being measured, for the sender's 429 count. */
let current: Phase | null = null;

async function measure(players: BenchPlayer[], seconds: number, cpu: () => Promise<number | null>): Promise<Phase> {
  const phase = emptyPhase();
  current = phase;
  const cpu0 = await cpu();
  const t = performance.now();
  await Promise.all(players.map((p) => playUntil(p, t + seconds * 1000, phase)));
  phase.seconds = (performance.now() - t) / 1000;
  const cpu1 = await cpu();
  // A process of the group that ended meanwhile takes its CPU time with it: then there is no figure.
  if (cpu0 !== null && cpu1 !== null && cpu1 > cpu0) phase.cpuSeconds = cpu1 - cpu0;
  return phase;
}

export async function run(): Promise<void> {
  // wrangler dev serves dist/ as the static assets and does not start without it.
  if (!existsSync(join(process.cwd(), 'dist'))) throw new Error('dist/ is missing: run `npm run build` first (wrangler dev serves it as the static assets)');
  const t = performance.now();
  const server = await startWrangler();
  console.log(`started wrangler dev at ${server.base} in ${((performance.now() - t) / 1000).toFixed(1)} s (local SQLite, throw-away state)`);
  try {
    // What any request costs on this machine and this dev server, before a table is involved.
    const base: number[] = [];
    for (let i = 0; i < 40; i++) {
      const t = performance.now();
      await (await fetch(`${server.base}/.well-known/jwks.json`)).arrayBuffer();
      if (i >= 10) base.push(performance.now() - t);
    }
    base.sort((a, b) => a - b);
    console.log(`baseline, GET /.well-known/jwks.json (no Durable Object): p50 ${percentile(base, 50).toFixed(1)} ms`);

    const send = sender(server.base, () => current);
    const one = await BenchPlayer.open(send);
    await playUntil(one, Infinity, emptyPhase(), WARMUP_ROUNDS);
    report('1 session, sequential rounds', await measure([one], SINGLE_SECONDS, server.cpu));

    const many: BenchPlayer[] = [];
    for (let i = 0; i < CONCURRENT_SESSIONS; i += 16)
      many.push(...(await Promise.all(Array.from({ length: Math.min(16, CONCURRENT_SESSIONS - i) }, () => BenchPlayer.open(send)))));
    report(`${CONCURRENT_SESSIONS} sessions at once`, await measure(many, CONCURRENT_SECONDS, server.cpu));
  } finally {
    await server.stop();
  }
  // What Cloudflare bills, without the dev server's proxy (one process less on the machine meanwhile).
  // PB_BENCH_BEFORE=<dir>: also the Worker of another checkout (e.g. `git worktree add /tmp/base
  // <commit>` with node_modules linked), measured the same way in the same run, for a before/after.
  const other = process.env.PB_BENCH_BEFORE;
  if (other) reportWorkerd(await measureWorkerd(BENCH_VARS, other), `before (${other}): `);
  reportWorkerd(await measureWorkerd(BENCH_VARS), other ? 'this checkout: ' : '');
}
