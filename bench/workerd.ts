/**
 * The Worker's own cost per settled round (both phases of pb-fair-2), without the dev server's proxy: the Worker bundled
 * with esbuild and run in workerd through Miniflare (both come with wrangler), called with
 * `dispatchFetch`. Workers are billed by CPU time and SQLite-backed Durable Objects by rows
 * written, so those are the figures:
 *
 * - CPU: the workerd process's own utime + stime (Linux /proc) over many sequential settled
 *   rounds, divided by the rounds. That is real CPU of the runtime: the Worker, the Durable
 *   Object, SQLite, and the local HTTP plumbing in front of them. Two more figures split it: a
 *   plain GET /.well-known/jwks.json (what any request costs here), and a round for a table that
 *   does not exist (the fetch handler's whole path, with an RPC the object answers at once).
 *   (Deployed, workerd's clocks do not advance while code runs; locally they do, but they also
 *   count the time spent waiting for a core on a busy machine, which CPU time does not.)
 * - Rows written: the table's `stats()` counter (every statement's `rowsWritten`, indexes
 *   included, as Cloudflare bills them), for each phase of an ordinary round, for the secret that
 *   ends a shoe, and for starting and ending a shoe.
 *
 * Figures only: nothing here passes or fails.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
// Miniflare and its workerd come with wrangler (no dependency of their own).
import { convertV4MiniflareOptions, Miniflare } from 'miniflare';
import { unstable_getMiniflareWorkerOptions } from 'wrangler';
import { generateSigningKey } from '../shared/index.ts';
import type { BetRequest, SignedRequest } from '../shared/fairness/pb-fair-2/records.ts';
import * as apiCalls from '../shared/wire/http-calls.ts';
import { type ApiCall, apiUrl } from '../shared/wire/http-client.ts';
import { BenchPlayer, type Send } from './player.ts';
import { mclWasmModule } from '../scripts/mcl-wasm.ts';

const WARMUP_ROUNDS = 30;
/** Sequential rounds to measure: /proc counts CPU in 10 ms ticks, so enough for ~1% at 1 ms a round. */
const MEASURED_SECONDS = 8;
const BASELINE_REQUESTS = 1000;

/** The table's counters (`Table.stats()`, worker/session/table.ts). */
interface TableStats {
  rowsWritten: number;
  changes: Partial<Record<'create' | 'start' | 'bet' | 'secret' | 'secret-ending-shoe' | 'end' | 'void' | 'ledger', { count: number; rowsWritten: number }>>;
}

export const ORIGIN = 'http://bench.local';

/** The bundle each Miniflare runs (its text), to map a CPU profile's lines back to the source files. */
const bundles = new WeakMap<Miniflare, string>();
export function bundleOf(mf: Miniflare): string | undefined {
  return bundles.get(mf);
}

/** CPU seconds (user, system) used so far by the workerd processes Miniflare started (children of this process). */
export async function workerdCpu(): Promise<{ user: number; system: number }> {
  let user = 0;
  let system = 0;
  for (const pid of (await readdir('/proc')).filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      if (!stat.includes('(workerd)')) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields from 3 (state) on
      if (Number(fields[1]) !== process.pid) continue; // field 4: ppid
      user += Number(fields[11]); // field 14: utime
      system += Number(fields[12]); // field 15: stime
    } catch {
      /* the process ended meanwhile */
    }
  }
  return { user: user / 100, system: system / 100 }; // USER_HZ is 100 on Linux
}

/** CPU ms per operation between two readings: in all, and in the kernel (system calls: the SQLite file, sockets). */
function perOperation(a: { user: number; system: number }, b: { user: number; system: number }, n: number): { ms: number; systemMs: number } {
  return { ms: ((b.user + b.system - a.user - a.system) * 1000) / n, systemMs: ((b.system - a.system) * 1000) / n };
}

/**
 * The Worker of wrangler.toml (without its static assets), bundled, in workerd with in-memory
 * storage. `port`: where its HTTP server listens on loopback (the shared-table bench's WebSockets;
 * unset, a free one: never 8787); `inspectorPort`: where its inspector listens, for a CPU profile (profile.ts).
 */
export async function startMiniflare(root: string, vars: Record<string, string>, port?: number, inspectorPort?: number): Promise<Miniflare> {
  const bundle = await build({
    entryPoints: [join(root, 'worker/index.ts')],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    // The beacon check's WebAssembly stays a module of its own, compiled ahead (scripts/mcl-wasm.ts).
    external: ['cloudflare:*', 'node:*', '*.wasm'],
    write: false,
    logLevel: 'warning',
  });
  const { workerOptions } = unstable_getMiniflareWorkerOptions(join(root, 'wrangler.toml'));
  // Typed loosely: these option shapes belong to wrangler's and Miniflare's unstable APIs.
  const { assets: _assets, ...options } = workerOptions as unknown as { assets?: unknown; bindings?: Record<string, unknown> };
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      workers: [
        {
          ...options,
          name: 'punto-banco-bench',
          modules: [{ type: 'ESModule', path: 'index.js', contents: bundle.outputFiles[0]!.text }, await mclWasmModule()],
          bindings: { ...options.bindings, ...vars },
        },
      ],
      ...(port === undefined ? {} : { host: '127.0.0.1', port }),
      ...(inspectorPort === undefined ? {} : { inspectorPort }),
    } as Parameters<typeof convertV4MiniflareOptions>[0]),
  );
  await mf.ready;
  bundles.set(mf, bundle.outputFiles[0]!.text);
  return mf;
}

/** One call of the typed client (shared/wire) through Miniflare's dispatchFetch; it throws unless the answer has the `expected` status. */
export function dispatchCall(mf: Miniflare) {
  return async <T>(c: ApiCall<T>, token?: string, expected = 200): Promise<T> => {
    const headers: Record<string, string> = { 'CF-Connecting-IP': '192.0.2.1' };
    if (c.idempotencyKey) headers['Idempotency-Key'] = c.idempotencyKey;
    if (c.body !== undefined) headers['Content-Type'] = 'application/json';
    if (token) headers.Authorization = `Bearer ${token}`;
    const res = await mf.dispatchFetch(apiUrl(ORIGIN, c.path), {
      method: c.method,
      headers,
      body: c.body === undefined ? undefined : JSON.stringify(c.body),
    });
    const text = await res.text();
    if (res.status !== expected && !(expected === 200 && res.ok)) throw new Error(`${c.method} /${c.path}: HTTP ${res.status} ${text}`);
    return JSON.parse(text) as T;
  };
}

/** Rows written per change of one kind, averaged; null when the Worker has no counter or did not make that change. */
type Rows = number | null;

export interface WorkerdFigures {
  cpuPerRoundMs: number;
  /** The part of it spent in the kernel. */
  systemPerRoundMs: number;
  cpuPerBaselineMs: number;
  /** A round for a table that does not exist: the fetch handler's path and an RPC the Durable Object answers at once. */
  cpuPerRefusedRoundMs: number;
  rounds: number;
  /** Per phase: the bet (acceptance) and the secret (receipt); the secret that ends a shoe writes the reveal and the next commitment too. */
  rows: { bet: Rows; secret: Rows; secretEndingShoe: Rows; create: Rows; start: Rows; end: Rows; ledger: Rows };
  /** All rows written during the measured rounds (shoe changes, and on older Workers the ledger's acknowledgments, included), per round. */
  rowsAverage: Rows;
}

/**
 * Runs the measurements on a Worker of its own: the one in `root` (default: this checkout), so
 * that another checkout, e.g. the commit before a change, can be measured in the same run.
 */
export async function measureWorkerd(vars: Record<string, string>, root = process.cwd()): Promise<WorkerdFigures> {
  // A SIGNING_KEY secret, as in production (not the development key kept in a Durable Object).
  const { privateJwk } = await generateSigningKey();
  const mf = await startMiniflare(root, { ...vars, SIGNING_KEY: JSON.stringify(privateJwk) });
  try {
    const call = dispatchCall(mf);
    const ns = await mf.getDurableObjectNamespace('TABLES');
    /** The table's counters; null when this Worker has none. */
    const stats = async (id: string): Promise<TableStats | null> => {
      try {
        return await (ns.get(ns.idFromName(id)) as unknown as { stats(): Promise<TableStats> }).stats();
      } catch {
        return null;
      }
    };

    const send: Send = (c, token) => call(c, token);
    const t = await BenchPlayer.open(send);
    /** One settled round, both phases (random bets of the smallest chips, so that the play money lasts); the next shoe started when the cut card came out. */
    const round = async (): Promise<void> => {
      if ((await t.round(true)) === null) throw new Error('the bench table ran out of play money');
    };
    for (let i = 0; i < WARMUP_ROUNDS; i++) await round();

    // CPU of a request that involves no Durable Object, then of settled rounds.
    for (let i = 0; i < 50; i++) await call(apiCalls.jwks());
    let cpu0 = await workerdCpu();
    for (let i = 0; i < BASELINE_REQUESTS; i++) await call(apiCalls.jwks());
    const cpuPerBaselineMs = perOperation(cpu0, await workerdCpu(), BASELINE_REQUESTS).ms;
    // The fetch handler's whole path for a round (token, Idempotency-Key, body, hashes, the RPC) to
    // a table that does not exist, so the Durable Object only answers 404.
    const nobody = 'C'.repeat(22);
    const request = { body: { type: 'bet', bets: t.bets() }, signature: 'A'.repeat(86) } as unknown as SignedRequest<BetRequest>;
    cpu0 = await workerdCpu();
    for (let i = 0; i < BASELINE_REQUESTS; i++) await call(apiCalls.placeBet(nobody, request, crypto.randomUUID()), `${nobody}.${'A'.repeat(43)}`, 404);
    const cpuPerRefusedRoundMs = perOperation(cpu0, await workerdCpu(), BASELINE_REQUESTS).ms;

    let rounds = 0;
    const before = await stats(t.id);
    cpu0 = await workerdCpu();
    const until = performance.now() + MEASURED_SECONDS * 1000;
    for (; performance.now() < until; rounds++) await round();
    const { ms: cpuPerRoundMs, systemMs: systemPerRoundMs } = perOperation(cpu0, await workerdCpu(), rounds);
    const after = await stats(t.id);

    // Every kind of change the table made so far (the cut card may not have come out while measuring).
    const per = (kind: keyof TableStats['changes']): Rows => {
      const c = after?.changes[kind];
      return c && c.count > 0 ? c.rowsWritten / c.count : null;
    };
    return {
      cpuPerRoundMs,
      systemPerRoundMs,
      cpuPerBaselineMs,
      cpuPerRefusedRoundMs,
      rounds,
      rows: {
        bet: per('bet'),
        secret: per('secret'),
        secretEndingShoe: per('secret-ending-shoe'),
        create: per('create'),
        start: per('start'),
        end: per('end'),
        ledger: per('ledger'),
      },
      rowsAverage: before && after ? (after.rowsWritten - before.rowsWritten) / rounds : null,
    };
  } finally {
    await mf.dispose();
  }
}

export function reportWorkerd(f: WorkerdFigures, label = ''): void {
  const n = (x: Rows) => (x === null ? 'n/a' : String(Math.round(x * 100) / 100));
  const ms = (x: number) => x.toFixed(2);
  console.log(
    `${label}Worker CPU per settled round (ms): ${ms(f.cpuPerRoundMs)} in workerd, proxy-free (${f.rounds} sequential rounds via Miniflare dispatchFetch; ${ms(f.systemPerRoundMs)} of it in the kernel). ` +
      `Of that, ~${ms(f.cpuPerBaselineMs)} any request costs here (a plain GET /.well-known/jwks.json: Miniflare's entry worker, HTTP), ` +
      `~${ms(f.cpuPerRefusedRoundMs - f.cpuPerBaselineMs)} the fetch handler's own work for a round (measured with rounds for a table that does not exist: token, body, hashes, the RPC), ` +
      `~${ms(f.cpuPerRoundMs - f.cpuPerRefusedRoundMs)} the table's Durable Object (deal, settle, sign, SQLite; Cloudflare bills it as Durable Object duration, not Worker CPU)`,
  );
  if (f.rows.bet === null) {
    console.log(`${label}SQLite rows written: n/a (this Worker has no Table.stats())`);
    return;
  }
  console.log(
    `${label}SQLite rows written per settled round: ${n(f.rows.bet === null || f.rows.secret === null ? null : f.rows.bet + f.rows.secret)} = phase 1 (bet → acceptance) ${n(f.rows.bet)} + phase 2 (secret → receipt) ${n(f.rows.secret)} ` +
      `(the secret that brings out the cut card: ${n(f.rows.secretEndingShoe)}, reveal and next commitment included); ` +
      `${n(f.rowsAverage)} on average over the measured rounds, shoe changes (and, on older Workers, ledger acknowledgments) included. ` +
      `Create session ${n(f.rows.create)}, start shoe ${n(f.rows.start)}, end shoe ${n(f.rows.end)}, ledger acknowledgment ${f.rows.ledger === null ? 'none (kept in memory)' : n(f.rows.ledger)}`,
  );
}
