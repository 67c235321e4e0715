/**
 * `npm run build`: the widget bundle and the demo page, into dist/ (served by `npm start` through
 * wrangler's static assets).
 *   dist/punto-banco-table.js   the loader: defines <punto-banco-table> (Lit + the element)
 *   dist/chunks/*.js            lazy chunks: the Pixi scene, the translator and the catalogs
 *   dist/index.html             the demo host page (demo/ is copied as is)
 *   dist/verify.html            the standalone verify page (scripts/verify-page.ts), served at /verify
 *   dist/lib/{engine,verify}.js the npm package's engine and verifier; dist/types/ the declarations
 *   dist/cli/punto-banco.js     the `punto-banco` command, compiled
 *   dist/embed.js               the host page's helper for /embed iframes (widget/embed/host.ts)
 *   dist/embed-frame.js         the /embed page's messenger to its parent (widget/embed/frame.ts)
 * Prints every file's size raw and gzipped, the loader's and the total.
 */
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { cp, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { buildVerifyPage, VERIFY_PAGE_FILE } from './verify-page.ts';
import { writeCdnHeaders } from './cdn-headers.ts';
import { cssMinify } from './css-minify.ts';
import { pixiWebGl } from './pixi-webgl.ts';
import { againstBudget, BUDGET_KB } from './budget.ts';
import { publicDeclarations } from './public-types.ts';
import { pinnedSnippet, publishVersion } from './cdn-versions.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const LOADER = 'punto-banco-table.js';

await mkdir(dist, { recursive: true });
// Only what this build owns: stale hashed chunks would otherwise count in the total.
await rm(path.join(dist, 'chunks'), { recursive: true, force: true });
await rm(path.join(dist, LOADER), { force: true });

const result = await build({
  absWorkingDir: root,
  metafile: true,
  entryPoints: { 'punto-banco-table': 'widget/cdn.ts' },
  outdir: dist,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  chunkNames: 'chunks/[name]-[hash]',
  // Module scripts are always read as UTF-8: the Russian and Greek catalogs need no \u escapes.
  charset: 'utf8',
  define: { 'process.env.NODE_ENV': '"production"' },
  // Server-render safety: `HTMLElement` and `document` fall back to inert stand-ins where there is no DOM.
  inject: ['widget/ssr-globals.ts'],
  // Pixi's batch shader without its WGSL half (scripts/pixi-webgl.ts).
  plugins: [cssMinify, pixiWebGl],
  logLevel: 'warning',
});

// The iframe's two halves: the /embed page's messenger (a module, beside the loader) and the host
// page's helper (a classic script: it finds the Worker's origin from document.currentScript).
await build({
  absWorkingDir: root,
  entryPoints: { 'embed-frame': 'widget/embed/frame.ts' },
  outdir: dist,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
});
await build({
  absWorkingDir: root,
  entryPoints: { embed: 'widget/embed/host.ts' },
  outdir: dist,
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2020',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
});

// The npm package's library entries (package.json "exports"): the engine and the verifier as plain
// ES modules with their few dependencies (@noble/*) bundled in, so the package installs with no
// runtime dependencies at all; and the declarations for all of them.
await build({
  absWorkingDir: root,
  entryPoints: { engine: 'shared/index.ts', verify: 'shared/fairness/index.ts' },
  outdir: path.join(dist, 'lib'),
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  logLevel: 'warning',
});
// `punto-banco/react`, `/vue` and `/svelte` are types (written by `npm run manifest`); this empty
// module is what they are at run time, so even a plain `import 'punto-banco/react'` loads.
await writeFile(path.join(dist, 'lib/types-only.js'), '// Types only: see the .d.ts of this export.\nexport {};\n');
// The `punto-banco` command, compiled to one JavaScript file: Node refuses to strip types under
// node_modules, so an installed package cannot run cli/*.ts. The oldest Node it runs on is
// package.json "engines" (the CLI's pack test runs it there).
await rm(path.join(dist, 'cli'), { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: { 'punto-banco': 'cli/main.ts' },
  outdir: path.join(dist, 'cli'),
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  banner: { js: '#!/usr/bin/env node' },
  logLevel: 'warning',
});
await rm(path.join(dist, 'types'), { recursive: true, force: true });
const types = spawnSync(process.execPath, [createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-p', 'tsconfig.types.json'], {
  cwd: root,
  stdio: 'inherit',
});
if (types.status !== 0) throw new Error('tsc -p tsconfig.types.json failed: the package declarations were not written');
const declarations = await publicDeclarations(root, ['dist/types/widget/index.d.ts', 'dist/types/shared/index.d.ts', 'dist/types/shared/fairness/index.d.ts']);
console.log(`dist/types: ${declarations.kept} declaration files, self-contained (${declarations.removed} no export reaches removed)`);

await cp(path.join(root, 'demo'), dist, { recursive: true, filter: (from) => !from.endsWith('.ts') });
// The demo's development-only real-wallet switch signs a launch with the shared code: bundled.
await build({
  absWorkingDir: root,
  entryPoints: { 'wallet-switch': 'demo/wallet-switch.ts' },
  outdir: dist,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  logLevel: 'warning',
});
// The standalone verifier, one self-contained file: served at /verify, and works saved to disk.
await buildVerifyPage(dist);
await writeCdnHeaders(dist, LOADER); // CORS for the loader and chunks: pages on other origins load them
// The loader pinned by version, for good, with its integrity (scripts/cdn-versions.ts).
const version = (JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
const pinned = await publishVersion(dist, version, LOADER);

/** Sizes of every .js file under dist/, raw and gzipped (level 9), in bytes. */
async function jsSizes(dir: string): Promise<{ file: string; raw: number; gzip: number }[]> {
  const out: { file: string; raw: number; gzip: number }[] = [];
  for (const entry of await readdir(dir, { recursive: true })) {
    const name = String(entry);
    if (!name.endsWith('.js')) continue;
    const full = path.join(dir, name);
    if (!(await stat(full)).isFile()) continue;
    const bytes = await readFile(full);
    out.push({ file: name, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length });
  }
  return out.sort((a, b) => b.gzip - a.gzip);
}

const kb = (n: number): string => `${(n / 1024).toFixed(1)} KB`;
const sizes = (await jsSizes(dist)).filter((s) => s.file === LOADER || s.file.startsWith('chunks'));
for (const s of sizes) console.log(`${s.file.padEnd(44)} ${kb(s.raw).padStart(10)}  ${kb(s.gzip).padStart(9)} gzip`);
// The loader is the entry plus every chunk it imports statically: all of it loads before the element is defined.
const outputs = result.metafile.outputs;
const loaderFiles = new Set<string>();
const visit = (file: string): void => {
  if (loaderFiles.has(file)) return;
  loaderFiles.add(file);
  for (const imp of outputs[file]?.imports ?? []) if (imp.kind === 'import-statement') visit(imp.path);
};
visit(Object.keys(outputs).find((f) => f.endsWith(`/${LOADER}`) || f === `dist/${LOADER}`)!);
const relative = new Set([...loaderFiles].map((f) => path.relative(dist, path.resolve(root, f))));
const loader = sizes.filter((s) => relative.has(s.file)).reduce((sum, s) => sum + s.gzip, 0);
const total = sizes.reduce((sum, s) => sum + s.gzip, 0);
console.log(
  `loader (${LOADER} + ${relative.size - 1} static chunks) ${kb(loader)} gzip (${againstBudget(loader, BUDGET_KB.loader)}); all JavaScript ${kb(total)} gzip in ${sizes.length} files (${againstBudget(total, BUDGET_KB.all)})`,
);
for (const file of ['embed.js', 'embed-frame.js']) {
  const bytes = await readFile(path.join(dist, file));
  console.log(`${file.padEnd(44)} ${kb(bytes.length).padStart(10)}  ${kb(gzipSync(bytes, { level: 9 }).length).padStart(9)} gzip`);
}
const verifyPage = await readFile(path.join(dist, VERIFY_PAGE_FILE));
console.log(`${VERIFY_PAGE_FILE} (standalone, script inlined) ${kb(verifyPage.length)}, ${kb(gzipSync(verifyPage, { level: 9 }).length)} gzip`);
console.log(
  pinned.created
    ? `${pinned.published.loader}: version ${version} published, integrity ${pinned.published.integrity}`
    : pinned.unchanged
      ? `${pinned.published.loader}: version ${version} as published, integrity ${pinned.published.integrity}`
      : `${pinned.published.loader}: version ${version} is published already and stays as it was; this build changed the loader, so bump package.json "version" to publish it at a new path`,
);
console.log(`pinned: ${pinnedSnippet(pinned.published, 'https://<your Worker>')}`);
