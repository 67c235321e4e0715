/**
 * The npm package exactly as an integrator gets it, after `npm run build`: `npm pack`, then a fresh
 * project installs the tarball offline (the package has no runtime dependencies, so nothing else is
 * fetched) and
 *   - every entry of its "exports" imports in Node with no DOM (what Next.js, Nuxt, SvelteKit and
 *     Astro do while rendering on the server), on the pinned Node and on the oldest supported;
 *   - `npx punto-banco odds` prints the table, on both Nodes (the CLI is compiled JavaScript: Node
 *     refuses to strip types under node_modules);
 *   - a consumer's TSX using the tag, its `onpb-…` events and `addEventListener` /
 *     `removeEventListener` with `e.detail` type-checks with `skipLibCheck: false` under
 *     moduleResolution `bundler` and `node16`, with React's types and nothing else installed: the
 *     declarations need neither Lit's nor Pixi's; EMBED.md's own listener examples do too; and misuse (a wrong room, a detail field that
 *     does not exist) is an error, so the types are not `any`.
 * The file list and sizes of the tarball are printed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { name: string; version: string; exports: Record<string, unknown> };
const PINNED_NODE = process.execPath;
/** The oldest Node the package says it supports (package.json engines), where this machine has it: Debian's. */
const OLDEST_NODE = process.env.PB_OLDEST_NODE ?? '/usr/bin/node';

function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd: options.cwd, env: options.env ?? process.env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

/** The major version of a Node binary, or null if there is none there. */
function nodeMajor(node: string): number | null {
  if (!existsSync(node)) return null;
  const out = run(node, ['--version'], { cwd: root });
  return out.status === 0 ? Number(/^v(\d+)/.exec(out.stdout)?.[1]) : null;
}

const work = mkdtempSync(path.join(tmpdir(), 'pb-pack-'));
const app = path.join(work, 'app');
let tarball = '';

test('npm pack: only the built package, its docs and licence', (t) => {
  const packed = run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: root });
  assert.equal(packed.status, 0, packed.stderr);
  const [info] = JSON.parse(packed.stdout) as { filename: string; size: number; unpackedSize: number; files: { path: string; size: number }[] }[];
  tarball = path.join(work, info!.filename);
  const files = info!.files.map((f) => f.path).sort();
  for (const file of files) {
    const allowed = file === 'package.json' || /^[A-Z]+\.md$/.test(file) || file === 'LICENSE' || file.startsWith('dist/');
    assert.ok(allowed, `${file} should not be in the package`);
    assert.ok(!/\.ts$/.test(file) || file.endsWith('.d.ts'), `${file}: a source file`);
    assert.ok(!/(^|\/)test|fixture|\.test\./.test(file), `${file}: a test helper`);
  }
  for (const needed of ['LICENSE', 'CHANGELOG.md', 'README.md', 'dist/cli/punto-banco.js', 'dist/punto-banco-table.js', 'dist/custom-elements.json']) {
    assert.ok(files.includes(needed), `${needed} is missing from the package`);
  }
  t.diagnostic(`${info!.filename}: ${(info!.size / 1024).toFixed(1)} KB packed, ${(info!.unpackedSize / 1024).toFixed(1)} KB unpacked, ${files.length} files`);
  for (const f of info!.files) t.diagnostic(`${String(f.size).padStart(8)}  ${f.path}`);
});

test('a fresh project installs the tarball offline: no runtime dependencies', () => {
  assert.ok(tarball, 'npm pack ran');
  mkdirSync(app);
  writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'pb-consumer', private: true, type: 'module' }));
  const installed = run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], { cwd: app });
  assert.equal(installed.status, 0, installed.stdout + installed.stderr);
  const manifest = JSON.parse(readFileSync(path.join(app, 'node_modules/punto-banco/package.json'), 'utf8')) as { dependencies?: object };
  assert.deepEqual(Object.keys(manifest.dependencies ?? {}), []);
});

/** Imports every export of the package by its public name, with no DOM: the page's server render. */
function importEveryEntry(node: string): SpawnSyncReturns<string> {
  const entries = Object.keys(pkg.exports).map((sub) => (sub === '.' ? pkg.name : `${pkg.name}/${sub.slice(2)}`));
  const script = `
    if (typeof globalThis.HTMLElement !== 'undefined' || typeof globalThis.document !== 'undefined') throw new Error('a DOM is present');
    for (const entry of ${JSON.stringify(entries)}) {
      const mod = entry.endsWith('.json') ? await import(entry, { with: { type: 'json' } }) : await import(entry);
      console.log(entry, Object.keys(mod).length);
    }
    if (globalThis.customElements !== undefined || globalThis.HTMLElement !== undefined || globalThis.document !== undefined) throw new Error('a global of the server was set');
    const { PuntoBancoTable } = await import('${pkg.name}');
    if (typeof PuntoBancoTable !== 'function') throw new Error('no element class');
  `;
  return run(node, ['--input-type=module', '--no-warnings', '-e', script], { cwd: app });
}

test('every package entry imports in Node without a DOM (server rendering), pinned Node', () => {
  const out = importEveryEntry(PINNED_NODE);
  assert.equal(out.status, 0, out.stdout + out.stderr);
  assert.equal(out.stdout.trim().split('\n').length, Object.keys(pkg.exports).length);
});

test('every package entry imports in Node without a DOM, oldest supported Node (20)', (t) => {
  if (nodeMajor(OLDEST_NODE) !== 20) return t.skip(`no Node 20 at ${OLDEST_NODE} (PB_OLDEST_NODE)`);
  const out = importEveryEntry(OLDEST_NODE);
  assert.equal(out.status, 0, out.stdout + out.stderr);
});

/** `npx punto-banco odds` in the fresh project, with `node` on the PATH being `node`. */
function npxOdds(node: string): SpawnSyncReturns<string> {
  const env = { ...process.env, PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ''}` };
  return run('npx', ['--offline', 'punto-banco', 'odds'], { cwd: app, env });
}

for (const [label, node] of [
  ['the pinned Node', PINNED_NODE],
  ['the oldest supported Node (20)', OLDEST_NODE],
] as const) {
  test(`npx punto-banco odds prints the table on ${label}`, (t) => {
    const major = nodeMajor(node);
    if (major === null || (node === OLDEST_NODE && major !== 20)) return t.skip(`no Node 20 at ${OLDEST_NODE} (PB_OLDEST_NODE)`);
    const out = npxOdds(node);
    assert.equal(out.status, 0, out.stdout + out.stderr);
    assert.match(out.stdout, /Exact odds, 6 decks/);
    assert.match(out.stdout, /banker\s+403,095,751,234,560/);
    assert.match(out.stdout, /player\s+392,220,492,728,832/);
    assert.match(out.stdout, /tie\s+83,552,962,932,288/);
    t.diagnostic(`node v${major}`);
  });
}

const CONSUMER_TSX = `import { PuntoBancoTable, type ReadyDetail, type RoundSettledDetail } from 'punto-banco';
import type {} from 'punto-banco/react';

export function App() {
  return (
    <punto-banco-table
      endpoint="https://tables.example/"
      room="vip"
      mode="reshuffle"
      currency="USD"
      reduced-motion
      onpb-ready={(e) => console.log(e.detail.balance.toFixed(0), e.detail.limits)}
      onpb-round-settled={(e) => {
        const settled: RoundSettledDetail = e.detail;
        console.log(settled.body.type, settled.signature);
      }}
      onpb-error={(e) => console.log(e.detail.code, e.detail.message)}
    />
  );
}

export function Wrong() {
  // @ts-expect-error: not a room
  return <punto-banco-table room="hall-9" />;
}

const onReady = (e: CustomEvent<ReadyDetail>): void => console.log(e.detail.sessionId);
const onSettled = (e: CustomEvent<RoundSettledDetail>): void => console.log(e.detail.body);
document.addEventListener('pb-round-settled', (e) => console.log(e.detail.signature));
document.removeEventListener('pb-round-settled', onSettled);
window.addEventListener('pb-error', (e) => console.log(e.detail.code));
const table = document.querySelector('punto-banco-table');
table?.addEventListener('pb-ready', onReady);
table?.removeEventListener('pb-ready', onReady);
table?.addEventListener('pb-bet-change', (e) => console.log(e.detail.total, e.detail.bets.length));
// @ts-expect-error: the detail has no such field
document.addEventListener('pb-ready', (e) => console.log(e.detail.nonsense));
export const made: PuntoBancoTable = document.createElement('punto-banco-table');
export const balance: number = made.balance;
`;

/** EMBED.md's own listener examples, as a TypeScript file: what the docs show must type-check too. */
function embedSnippets(): string {
  const embed = readFileSync(path.join(root, 'EMBED.md'), 'utf8');
  const blocks = [...embed.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((code) => code.includes("addEventListener('pb-"));
  assert.ok(blocks.length > 0, 'EMBED.md shows a listener');
  return `import type {} from 'punto-banco';
declare const analytics: { track(name: string, data: object): void };
${blocks.map((code) => `{\n${code}}\n`).join('')}export {};
`;
}

for (const resolution of ['bundler', 'node16'] as const) {
  test(`a consumer's TSX type-checks under moduleResolution ${resolution}, skipLibCheck false, React types only`, () => {
    const dir = path.join(app, `tsc-${resolution}`);
    mkdirSync(dir, { recursive: true });
    // React's types, as a React app has them (the package itself brings no types of anyone else).
    for (const dep of ['@types/react', 'csstype']) {
      const target = path.join(app, 'node_modules', dep);
      if (!existsSync(target)) {
        mkdirSync(path.dirname(target), { recursive: true });
        symlinkSync(path.join(root, 'node_modules', dep), target, 'dir');
      }
    }
    writeFileSync(path.join(dir, 'consumer.tsx'), CONSUMER_TSX);
    writeFileSync(path.join(dir, 'embed-snippets.ts'), embedSnippets());
    writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          target: 'ES2022',
          lib: ['ES2022', 'DOM', 'DOM.Iterable'],
          jsx: 'react-jsx',
          noEmit: true,
          skipLibCheck: false,
          types: [],
          ...(resolution === 'bundler' ? { module: 'ESNext', moduleResolution: 'bundler' } : { module: 'node16', moduleResolution: 'node16' }),
        },
        files: ['consumer.tsx', 'embed-snippets.ts'],
      }),
    );
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const out = run(PINNED_NODE, [tsc, '-p', dir], { cwd: dir });
    assert.equal(out.status, 0, out.stdout + out.stderr);
  });
}
