/**
 * The standalone verify page: bundles widget/panels/verify-page.ts (Lit, the panels and the shared
 * verifier) with esbuild and writes ONE self-contained `verify.html` — the script inlined, no other
 * file, no network — so the page works served by the Worker at /verify and equally saved to disk
 * and opened offline.
 *
 * The script is a classic (IIFE) inline script: module scripts loaded from file:// are blocked, and
 * an inline one needs no fetch. Pages we serve without a Content-Security-Policy run it as is.
 *
 *   import { buildVerifyPage } from './verify-page.ts'; await buildVerifyPage('dist');
 *   node scripts/verify-page.ts [outDir]          (default dist)
 */
import { build, type Plugin } from 'esbuild';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { minifyCssTemplates } from './css-minify.ts';
import { bindImportsStatically } from './static-imports.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = 'widget/panels/verify-page.ts';
export const VERIFY_PAGE_FILE = 'verify.html';

/** The page around the script: the document's own colours, so nothing flashes before the element draws. */
function page(script: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="dark">
<title>Verify a Punto Banco shoe</title>
<style>
html { background: #072419; }
body { margin: 0; padding: 16px 12px 40px; min-height: 100vh; box-sizing: border-box; background: radial-gradient(ellipse at top, #0f4a33, #072419 70%); color: #f4eedb; font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; }
pb-verify-page { display: block; }
noscript { display: block; max-width: 40em; margin: 2em auto; }
</style>
</head>
<body>
<pb-verify-page></pb-verify-page>
<noscript>This page verifies Punto Banco transcripts with JavaScript, entirely in your browser. Please enable JavaScript, or use <code>npx punto-banco verify FILE</code>.</noscript>
<script>${script}</script>
</body>
</html>
`;
}

/**
 * The page's own sources as the bundle reads them: `import('…')` bound statically (one file loads
 * nothing later; static-imports.ts says what that saves) and the widget's css`…` templates minified
 * as in the widget's bundle (css-minify.ts). One plugin for both: esbuild takes the first onLoad
 * answer for a file.
 */
const pageSources: Plugin = {
  name: 'verify-page-sources',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (args.path.split(path.sep).includes('node_modules')) return undefined;
      const source = await readFile(args.path, 'utf8');
      let contents = bindImportsStatically(args.path, source);
      if (/[\\/]widget[\\/]/.test(args.path) && contents.includes('css`')) contents = minifyCssTemplates(contents);
      return contents === source ? undefined : { contents, loader: 'ts' };
    });
  },
};

/** The page's script, bundled (minified unless asked otherwise: the tests read it unminified). */
export async function verifyPageScript({ minify = true }: { minify?: boolean } = {}): Promise<string> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify,
    legalComments: 'none',
    charset: 'utf8',
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: [pageSources],
    logLevel: 'warning',
  });
  return result.outputFiles[0]?.text ?? '';
}

/** Bundles the verify page and writes `outDir/verify.html`. */
export async function buildVerifyPage(outDir: string): Promise<void> {
  const script = await verifyPageScript();
  // Inside <script>, the HTML parser ends the element at "</script" and treats "<!--" specially;
  // escaping the "<" in both keeps the JavaScript meaning ("<\/" is "</" in strings and regexes).
  const safe = script.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
  const html = page(safe);
  await mkdir(outDir, { recursive: true });
  await writeFile(path.join(outDir, VERIFY_PAGE_FILE), html);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = path.resolve(process.argv[2] ?? path.join(root, 'dist'));
  await buildVerifyPage(outDir);
  const file = path.join(outDir, VERIFY_PAGE_FILE);
  const bytes = (await stat(file)).size;
  console.log(`${path.relative(process.cwd(), file)}: ${(bytes / 1024).toFixed(1)} KB, ${(gzipSync(await readFile(file)).length / 1024).toFixed(1)} KB gzip`);
}
