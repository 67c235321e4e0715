// @ts-check
/**
 * Screenshots of the Pixi table for people to look at (not a test): bundles scene-harness.ts with
 * esbuild, serves it over HTTP with a strict Content-Security-Policy (no 'unsafe-eval'), drives it in
 * Debian's Chromium through playwright-core at desktop (960×600) and phone (390×700) sizes, and writes
 * PNGs to /tmp/shots (or the directory given as first argument). CSP violations and page errors are
 * printed; the exit code is 1 if there were any.
 *
 *   npx node test/widget/harness/scene-shots.js [outDir]
 */
import { build } from 'esbuild';
import { createServer } from 'node:http';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../../chromium.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.resolve(process.argv[2] ?? '/tmp/shots');
const only = process.argv[3];
const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'";

await mkdir(outDir, { recursive: true });
const bundle = await build({
  entryPoints: [path.join(here, 'scene-harness.ts')],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  write: false,
  logLevel: 'warning',
});
const js = bundle.outputFiles[0]?.text ?? '';
const html = await readFile(path.join(here, 'scene.html'), 'utf8');

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const headers = { 'Content-Security-Policy': CSP, 'Cache-Control': 'no-store' };
  if (url.pathname === '/scene-harness.js') res.writeHead(200, { ...headers, 'Content-Type': 'text/javascript' }).end(js);
  else if (url.pathname === '/' || url.pathname === '/scene.html') res.writeHead(200, { ...headers, 'Content-Type': 'text/html' }).end(html);
  else if (url.pathname === '/favicon.ico') res.writeHead(204).end();
  else res.writeHead(404).end();
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
const address = server.address();
const port = typeof address === 'object' && address ? address.port : 0;

const VIEWPORTS = [
  { name: 'desktop', width: 960, height: 600, deviceScaleFactor: 1 },
  { name: 'phone', width: 390, height: 700, deviceScaleFactor: 2 },
  // A wide, short embed: the arc is bounded by the height, not the width.
  { name: 'wide', width: 1280, height: 560, deviceScaleFactor: 1 },
];

let problems = 0;
const browser = await launchChromium();
try {
  for (const vp of VIEWPORTS) {
    if (only && only !== vp.name) continue;
    const context = await browser.newContext({ viewport: { width: vp.width, height: vp.height }, deviceScaleFactor: vp.deviceScaleFactor });
    const page = await context.newPage();
    page.on('console', (msg) => {
      if (msg.type() === 'error' || msg.type() === 'warning') {
        console.log(`[${vp.name}] ${msg.type()}: ${msg.text()}`);
        problems++;
      }
    });
    page.on('pageerror', (err) => {
      console.log(`[${vp.name}] pageerror: ${err.message}`);
      problems++;
    });
    await page.goto(`http://127.0.0.1:${port}/scene.html`);
    await page.evaluate(() =>
      document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`)),
    );
    await page.waitForFunction(() => 'pb' in window);
    const shot = async (/** @type {string} */ name) => {
      await page.waitForTimeout(120);
      const file = path.join(outDir, `${name}-${vp.name}.png`);
      await page.locator('#table').screenshot({ path: file });
      console.log(file);
    };
    await page.evaluate(
      async ([w, h]) => {
        const pb = /** @type {any} */ (window).pb;
        /** @type {any} */ (window).scene = await pb.mount(w, h);
        /** @type {any} */ (window).scene.setHighlight({ sector: 2, box: 'banker' });
      },
      [vp.width, vp.height],
    );
    await shot('1-bets');
    await page.evaluate(() => {
      const w = /** @type {any} */ (window);
      w.scene.setHighlight(null);
      w.done = w.scene.playRound(w.pb.receiptFrom(w.pb.rounds.THIRD_CARDS, w.pb.SAMPLE_BETS));
    });
    await page.waitForTimeout(900);
    await shot('2-mid-deal');
    await page.evaluate(() => /** @type {any} */ (window).done);
    await shot('3-settled-third-card');
    await page.evaluate(async () => {
      const w = /** @type {any} */ (window);
      await w.scene.clearRound();
      w.scene.setShoe({ cardsLeft: 281, total: 312, discarded: 30 });
      w.scene.setBets(
        [
          { sector: 2, box: 'player', amount: 5_000 },
          { sector: 4, box: 'tie', amount: 1_000 },
        ],
        w.pb.HALL_1_CHIPS,
      );
      await w.scene.playRound(
        w.pb.receiptFrom(w.pb.rounds.NATURAL, [
          { sector: 2, box: 'player', amount: 5_000 },
          { sector: 4, box: 'tie', amount: 1_000 },
        ]),
      );
    });
    await shot('4-natural');
    await page.evaluate(async () => {
      const w = /** @type {any} */ (window);
      await w.scene.clearRound();
      w.scene.setBets(w.pb.SAMPLE_BETS, w.pb.HALL_1_CHIPS);
    });
    await shot('5-cleared');
    // Russian: the longest banner; a tie hands the Punto and Banco stakes back.
    await page.evaluate(
      async ([w, h]) => {
        const pb = /** @type {any} */ (window).pb;
        /** @type {any} */ (window).scene.destroy();
        const scene = await pb.mount(w, h, false, 'ru');
        /** @type {any} */ (window).scene = scene;
        await scene.playRound(pb.receiptFrom(pb.rounds.NATURAL, pb.SAMPLE_BETS));
      },
      [vp.width, vp.height],
    );
    await shot('6-ru-natural');
    await page.evaluate(async () => {
      const w = /** @type {any} */ (window);
      await w.scene.clearRound();
      w.scene.setBets(w.pb.SAMPLE_BETS, w.pb.HALL_1_CHIPS);
      await w.scene.playRound(w.pb.receiptFrom(w.pb.rounds.TIE, w.pb.SAMPLE_BETS));
    });
    await shot('7-ru-tie');
    await page.evaluate(() => /** @type {any} */ (window).scene.setOptions({ .../** @type {any} */ (window).pb.languages.el }));
    await shot('8-el-relabelled');
    // A new shoe: the shuffle, and the player's cut splitting the stack.
    await page.evaluate(() => {
      const w = /** @type {any} */ (window);
      w.scene.setShoe({ cardsLeft: 312, total: 312, discarded: 0, cutAt: 156 });
      w.done = w.scene.shuffleAndCut(0.37);
    });
    await page.waitForTimeout(1150);
    await shot('9-shuffle-cut');
    await page.evaluate(() => /** @type {any} */ (window).done);
    await shot('10-new-shoe');
    await page.evaluate(async () => {
      const w = /** @type {any} */ (window);
      w.scene.setShoe({ cardsLeft: 150, total: 312, discarded: 162, cutAt: 156 });
      await w.scene.cutCardOut();
    });
    await shot('11-cut-card-out');
    // Teardown: Pixi must not warn (e.g. "BindGroup … destroyed while still bound") nor keep the context.
    const lost = await page.evaluate(() => {
      const w = /** @type {any} */ (window);
      const gl = w.scene.canvas.getContext('webgl2') ?? w.scene.canvas.getContext('webgl');
      w.scene.destroy();
      return gl ? gl.isContextLost() : null;
    });
    console.log(`[${vp.name}] destroyed; WebGL context lost: ${lost}`);
    await context.close();
  }
} finally {
  await browser.close();
  server.close();
}
process.exit(problems > 0 ? 1 : 0);
