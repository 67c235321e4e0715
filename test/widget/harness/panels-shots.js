// @ts-check
/**
 * Screenshots of the panels for people to look at (not a test): bundles the harness with esbuild,
 * opens it in Debian's Chromium through playwright-core on a phone (390×844) and a desktop
 * (1280×800) viewport, and writes PNGs to /tmp/shots-panels (or the directory given as argument).
 *
 *   npx node test/widget/harness/panels-shots.js [outDir] [view …]
 */
import { build } from 'esbuild';
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { launchChromium } from '../../chromium.ts';
import { buildVerifyPage } from '../../../scripts/verify-page.ts';
import { playShoe, tamperedCopy } from '../panels-fixture.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const [outArg, ...viewArgs] = process.argv.slice(2);
const outDir = path.resolve(outArg ?? '/tmp/shots-panels');
const harnessDir = path.join(outDir, 'harness');
const VIEWS =
  viewArgs.length > 0
    ? viewArgs
    : [
        'scoreboard',
        'scoreboard-partial',
        'scoreboard-dragon',
        'scoreboard-empty',
        'history',
        'fairness-before',
        'fairness-during',
        'fairness-after',
        'help',
        'verify-page',
        'verify-page-failed',
      ];
const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844, deviceScaleFactor: 2 },
  { name: 'desktop', width: 1280, height: 800, deviceScaleFactor: 1 },
];

await mkdir(harnessDir, { recursive: true });
await build({
  entryPoints: [path.join(here, 'panels.ts')],
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2022',
  outfile: path.join(harnessDir, 'panels.js'),
  logLevel: 'warning',
});
await copyFile(path.join(here, 'panels.html'), path.join(harnessDir, 'panels.html'));

const browser = await launchChromium();
try {
  for (const viewport of VIEWPORTS) {
    const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height }, deviceScaleFactor: viewport.deviceScaleFactor });
    for (const view of VIEWS) {
      const page = await context.newPage();
      page.on('console', (msg) => {
        if (msg.type() === 'error' || msg.type() === 'warning') console.log(`[${view}/${viewport.name}] ${msg.type()}: ${msg.text()}`);
      });
      page.on('pageerror', (err) => console.log(`[${view}/${viewport.name}] pageerror: ${err.message}`));
      const url = `${pathToFileURL(path.join(harnessDir, 'panels.html')).href}?view=${view}`;
      await page.goto(url);
      await page.waitForFunction(() => document.body.dataset.ready, null, { timeout: 30_000 });
      const state = await page.evaluate(() => document.body.dataset.ready);
      if (state !== '1') console.log(`[${view}/${viewport.name}] harness failed: ${await page.evaluate(() => document.body.textContent)}`);
      const file = path.join(outDir, `${view}-${viewport.name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      console.log(file);
      await page.close();
    }
    await context.close();
  }
  await offlineVerifyPage();
} finally {
  await browser.close();
}

/**
 * The built verify.html opened from disk (file://, no server, no network): an honest shoe and a
 * tampered one pasted in, verified in the page. Prints both verdicts and screenshots the failure.
 */
async function offlineVerifyPage() {
  await buildVerifyPage(outDir);
  const played = await playShoe({ rounds: 20 });
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, offline: true });
  const page = await context.newPage();
  page.on('pageerror', (err) => console.log(`[verify.html] pageerror: ${err.message}`));
  await page.goto(pathToFileURL(path.join(outDir, 'verify.html')).href);
  for (const [name, transcript] of [
    ['honest', played.transcript],
    ['tampered', tamperedCopy(played.transcript, 9)],
  ]) {
    await page.locator('#transcript').fill(JSON.stringify({ transcripts: [transcript] }));
    await page.locator('#jwks').fill(JSON.stringify(played.jwks));
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    const summary = page.locator('.summary');
    await summary.waitFor();
    console.log(`verify.html offline, ${name}: ${(await summary.innerText()).replace(/\s+/g, ' ')}`);
    if (name === 'tampered') await page.screenshot({ path: path.join(outDir, 'verify-html-offline-phone.png'), fullPage: true });
  }
  await context.close();
}
