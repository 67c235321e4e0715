/**
 * `npm run test:examples`: the example apps in examples/ as an integrator builds them. Packs this
 * package (`npm pack`, whose prepack builds it) to examples/.pack/punto-banco.tgz; installs each
 * example from its own lockfile (`npm ci`, which takes the fresh tarball: the lockfiles record it
 * without an integrity hash); builds each with its own toolchain and prints the output's sizes;
 * then starts the Worker (`wrangler dev` on a free loopback port) and runs play.test.ts, which
 * serves each built app and plays a round in Chromium.
 *
 *   npm run test:examples -- NAME…       only those examples (react, vue, svelte, plain-html, astro)
 *   npx node test/examples/run.ts --lock rewrites the examples' lockfiles (after a dependency change)
 */
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { startServer } from '../e2e/server.ts';
import { chosenExamples, EXAMPLES_DIR, type Example, ROOT, TARBALL } from './examples.ts';

const args = process.argv.slice(2);
const lockMode = args.includes('--lock');
const examples = chosenExamples(args.filter((a) => !a.startsWith('--')));
const started = performance.now();
const since = (t: number) => `${((performance.now() - t) / 1000).toFixed(1)} s`;
/** No telemetry, no update checks: CI has the npm registry and nothing else. */
const quiet = {
  ...process.env,
  ASTRO_TELEMETRY_DISABLED: '1',
  NO_UPDATE_NOTIFIER: '1',
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
};

/** Runs `npm ARGS` in `cwd`, its output kept and shown only if it fails. */
function npm(cwd: string, npmArgs: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', npmArgs, { cwd, env: quiet, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`npm ${npmArgs.join(' ')} in ${path.relative(ROOT, cwd)} failed (${code}):\n${out}`)),
    );
  });
}

function pack(): void {
  const t = performance.now();
  const dest = path.dirname(TARBALL);
  rmSync(dest, { recursive: true, force: true });
  mkdirSync(dest, { recursive: true });
  const run = spawnSync('npm', ['pack', '--json', '--pack-destination', dest], {
    cwd: ROOT,
    env: quiet,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (run.status !== 0) throw new Error(`npm pack failed (${run.status})`);
  const [info] = JSON.parse(run.stdout.slice(run.stdout.indexOf('[\n  {'))) as { filename: string; size: number; unpackedSize: number; entryCount: number }[];
  renameSync(path.join(dest, info!.filename), TARBALL);
  console.log(`packed ${info!.filename}: ${kb(info!.size)} KB, ${info!.entryCount} files, ${kb(info!.unpackedSize)} KB unpacked (${since(t)})`);
}

const lockPath = (ex: Example) => path.join(EXAMPLES_DIR, ex.name, 'package-lock.json');

interface Lock {
  packages: Record<string, { version?: string; resolved?: string; integrity?: string; dependencies?: Record<string, string> }>;
}
const readLock = (ex: Example) => JSON.parse(readFileSync(lockPath(ex), 'utf8')) as Lock;
const writeLock = (ex: Example, lock: Lock) => writeFileSync(lockPath(ex), `${JSON.stringify(lock, null, 2)}\n`);
/** This package as packed: its run-time dependencies. */
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };

/**
 * The lockfile's entry for the package must name the tarball without an integrity hash (with one,
 * `npm ci` would install the tarball of that hash from npm's cache, not the one just packed), and
 * record these run-time dependencies (else `npm ci` installs the ones of before; a new version
 * alone needs no new lockfile).
 */
function checkLock(ex: Example): void {
  const entry = readLock(ex).packages['node_modules/punto-banco'];
  const problem =
    entry?.resolved !== 'file:../.pack/punto-banco.tgz'
      ? 'does not take punto-banco from file:../.pack/punto-banco.tgz'
      : entry.integrity !== undefined
        ? 'records an integrity hash for punto-banco'
        : JSON.stringify(entry.dependencies ?? {}) !== JSON.stringify(manifest.dependencies ?? {})
          ? "records other run-time dependencies of punto-banco than package.json's"
          : null;
  if (problem) throw new Error(`examples/${ex.name}/package-lock.json ${problem}: run npx node test/examples/run.ts --lock`);
}

/**
 * Rewrites an example's lockfile: the package's entry dropped (npm would keep its old dependencies),
 * `npm install --package-lock-only` (which takes it from the tarball again and drops what only it
 * needed), then its integrity taken out (see checkLock).
 */
async function relock(ex: Example): Promise<void> {
  const before = readLock(ex);
  delete before.packages['node_modules/punto-banco'];
  writeLock(ex, before);
  await npm(path.join(EXAMPLES_DIR, ex.name), ['install', '--package-lock-only']);
  const after = readLock(ex);
  delete after.packages['node_modules/punto-banco']!.integrity;
  writeLock(ex, after);
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => path.join(dir, f))
    .filter((f) => statSync(f).isFile());
}

/** The build output's size: files, KB as written, KB gzipped file by file (as a server sends them). */
function size(dir: string): { files: number; raw: number; gzip: number } {
  const all = files(dir);
  let raw = 0;
  let gzip = 0;
  for (const f of all) {
    const bytes = readFileSync(f);
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  return { files: all.length, raw, gzip };
}

pack();
if (lockMode) {
  for (const ex of examples) await relock(ex);
  console.log(`lockfiles rewritten: ${examples.map((e) => e.name).join(', ')}`);
  process.exit(0);
}
for (const ex of examples) checkLock(ex);

// The Worker serves the dist/ the pack just built: it starts while the examples install and build.
let t = performance.now();
const worker = startServer();
worker.then((w) => console.log(`Worker on ${w.url} (${since(t)})`)).catch(() => {});

// Installs are mostly waiting on the registry and the disk: all at once, from one npm cache.
t = performance.now();
await Promise.all(examples.map((ex) => npm(path.join(EXAMPLES_DIR, ex.name), ['ci', '--prefer-offline', '--loglevel=error'])));
console.log(`installed ${examples.length} examples with npm ci (${since(t)})`);

/** play.test.ts for one example, against the Worker; its exit status. */
function play(ex: Example, endpoint: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', '--test', path.join(ROOT, 'test/examples/play.test.ts')], {
      stdio: 'inherit',
      env: { ...quiet, PB_ENDPOINT: endpoint, PB_EXAMPLES: ex.name },
    });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

// Builds are CPU work: one at a time. Each example is played in Chromium as soon as it is built,
// while the next one builds (a round is mostly waiting on the table's animations); one at a time too.
const sizes: string[] = [];
const failed: string[] = [];
let playing: Promise<unknown> = Promise.resolve();
try {
  for (const ex of examples) {
    t = performance.now();
    const dir = path.join(EXAMPLES_DIR, ex.name);
    await npm(dir, ['run', 'build']);
    const took = since(t);
    for (const out of ex.outputs) {
      const s = size(path.join(dir, out.dir));
      sizes.push(`${`${ex.name} ${out.label}`.padEnd(34)} ${String(s.files).padStart(5)} ${kb(s.raw).padStart(10)} ${kb(s.gzip).padStart(10)}`);
    }
    console.log(`built ${ex.name} (${took})`);
    playing = playing.then(async () => {
      if ((await play(ex, (await worker).url)) !== 0) failed.push(ex.name);
    });
  }
  await playing;
} finally {
  await playing.catch(() => {});
  await (await worker.catch(() => null))?.stop();
}
console.log(`\n${'build output'.padEnd(34)} ${'files'.padStart(5)} ${'KB'.padStart(10)} ${'KB gzip'.padStart(10)}\n${sizes.join('\n')}\n`);
console.log(`test:examples took ${since(started)}${failed.length ? `; failed: ${failed.join(', ')}` : ''}`);
process.exit(failed.length ? 1 : 0);
