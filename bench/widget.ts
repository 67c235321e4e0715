/**
 * Widget figures for `npm run bench`: the loader's and all JavaScript's gzip size (from dist/,
 * rebuilt first), what one page actually downloads, and the time from navigation start to an
 * interactive table (the element's `pb-ready`: catalogs, controls, session and Pixi scene all up)
 * in headless Chromium, serving dist/ with the fake Worker API on 127.0.0.1. Figures only.
 */
import { execFileSync } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { launchChromium } from '../test/chromium.ts';
import { startDemoServer } from '../test/widget/demo-server.ts';
import { againstBudget, BUDGET_KB } from '../scripts/budget.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const LOADER = 'punto-banco-table.js';
const RUNS = 5;

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

async function gzipSize(file: string): Promise<number> {
  return gzipSync(await readFile(file), { level: 9 }).length;
}

/** The entry and every chunk it imports statically (all of it loads before the element is defined). */
async function loaderFiles(): Promise<string[]> {
  const seen = new Set<string>();
  const visit = async (file: string): Promise<void> => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = await readFile(file, 'utf8');
    // Static imports only: `from"./x.js"` or a bare `import"./x.js"`; `import("./x.js")` is lazy.
    for (const m of text.matchAll(/(?:from|import)\s*["']([^"']+\.js)["']/g)) await visit(path.resolve(path.dirname(file), m[1]!));
  };
  await visit(path.join(dist, LOADER));
  return [...seen];
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

export async function run(): Promise<void> {
  execFileSync(process.execPath, [path.join(root, 'scripts/build.ts')], { cwd: root, stdio: 'ignore' });

  const loader = await loaderFiles();
  let loaderGzip = 0;
  for (const f of loader) loaderGzip += await gzipSize(f);
  const all = [path.join(dist, LOADER), ...(await readdir(path.join(dist, 'chunks'))).map((f) => path.join(dist, 'chunks', f))].filter((f) =>
    f.endsWith('.js'),
  );
  let allGzip = 0;
  for (const f of all) allGzip += await gzipSize(f);
  console.log(`widget loader (${LOADER} + ${loader.length - 1} static chunks): ${kb(loaderGzip)} gzip (${againstBudget(loaderGzip, BUDGET_KB.loader)})`);
  console.log(`widget JavaScript in dist/ (${all.length} files, every renderer Pixi may pick): ${kb(allGzip)} gzip (${againstBudget(allGzip, BUDGET_KB.all)})`);

  const server = await startDemoServer(dist);
  const browser = await launchChromium();
  const times: number[] = [];
  const firstPaint: number[] = [];
  let downloaded = 0;
  try {
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const scripts = new Set<string>();
      page.on('response', (r) => {
        const url = new URL(r.url());
        if (url.pathname.endsWith('.js')) scripts.add(url.pathname);
      });
      await page.addInitScript(() => {
        const w = window as unknown as { pbReady?: number };
        document.addEventListener('pb-ready', () => (w.pbReady = performance.now()), { capture: true });
      });
      await page.goto(server.url);
      await page.waitForFunction(() => (window as unknown as { pbReady?: number }).pbReady !== undefined, null, { timeout: 60_000 });
      times.push(await page.evaluate(() => (window as unknown as { pbReady: number }).pbReady));
      firstPaint.push(await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN));
      if (i === 0) {
        for (const p of scripts) if (p !== '/demo.js') downloaded += await gzipSize(path.join(dist, p));
        console.log(
          `widget JavaScript one page downloads (WebGL renderer): ${kb(downloaded)} gzip in ${[...scripts].filter((p) => p !== '/demo.js').length} files`,
        );
      }
      await context.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
  console.log(`widget first contentful paint (demo page): median ${median(firstPaint).toFixed(0)} ms`);
  console.log(
    `widget page load → interactive table (pb-ready, fake API, SwiftShader WebGL), ${RUNS} runs: median ${median(times).toFixed(0)} ms (min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)})`,
  );
}
