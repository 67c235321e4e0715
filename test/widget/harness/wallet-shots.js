// @ts-check
/**
 * Screenshots of a wallet-mode table for people to look at (not a test): a launched JPY table with
 * a payout pending, and its reality check, in Russian and Greek, on a phone (390×844) and a
 * desktop (1280×720); PNGs in /tmp/shots-wallet (or the directory given as argument).
 *
 *   npx node test/widget/harness/wallet-shots.js [outDir]
 */
import { build } from 'esbuild';
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { launchChromium } from '../../chromium.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.resolve(process.argv[2] ?? '/tmp/shots-wallet');
const harnessDir = path.join(outDir, 'harness');
const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844, deviceScaleFactor: 2 },
  { name: 'desktop', width: 1280, height: 720, deviceScaleFactor: 1 },
];

await mkdir(harnessDir, { recursive: true });
await build({
  entryPoints: [path.join(here, 'wallet.ts')],
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2022',
  outfile: path.join(harnessDir, 'wallet.js'),
  logLevel: 'warning',
});
await copyFile(path.join(here, 'wallet.html'), path.join(harnessDir, 'wallet.html'));

const browser = await launchChromium();
try {
  for (const viewport of VIEWPORTS) {
    const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height }, deviceScaleFactor: viewport.deviceScaleFactor });
    for (const lang of ['ru', 'el']) {
      for (const view of ['table', 'reality']) {
        const page = await context.newPage();
        page.on('pageerror', (err) => console.log(`[${lang}/${view}/${viewport.name}] pageerror: ${err.message}`));
        await page.goto(`${pathToFileURL(path.join(harnessDir, 'wallet.html')).href}?lang=${lang}&view=${view}`);
        await page.waitForFunction(() => document.body.dataset.ready, null, { timeout: 60_000 });
        if ((await page.evaluate(() => document.body.dataset.ready)) !== '1')
          console.log(`[${lang}/${view}] harness failed: ${await page.evaluate(() => document.body.textContent)}`);
        const file = path.join(outDir, `wallet-${view}-jpy-${lang}-${viewport.name}.png`);
        await page.screenshot({ path: file });
        console.log(file);
        await page.close();
      }
    }
    await context.close();
  }
} finally {
  await browser.close();
}
