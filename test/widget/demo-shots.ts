/**
 * Screenshots of the demo page for people to look at (not a test): serves dist/ with the fake
 * Worker, opens the page in Debian's Chromium (playwright-core), plays a little, and writes PNGs.
 *
 *   npm run build && npx node test/widget/demo-shots.ts [outDir]
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { launchChromium } from '../chromium.ts';
import { startDemoServer } from './demo-server.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const outDir = path.resolve(process.argv[2] ?? '/tmp/shots-demo');
await mkdir(outDir, { recursive: true });

const server = await startDemoServer(path.join(root, 'dist'));
// Scripted rounds so the pictures show a third card and a win.
server.worker.script = [
  ['4S', '7H', 'AD', 'KC', '9H'],
  ['QS', '9D', '3C', 'KH'],
];
const browser = await launchChromium();

async function ready(page: Page): Promise<void> {
  await page.waitForFunction(() => (document.getElementById('table') as unknown as { state: string } | null)?.state === 'ready', null, { timeout: 30_000 });
  await page.waitForTimeout(500);
}

async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => (document.getElementById('table') as unknown as { state: string }).state === 'settled', null, { timeout: 30_000 });
  await page.waitForTimeout(400);
}

const errors: string[] = [];
try {
  for (const vp of [
    { name: 'desktop', width: 1440, height: 900, scale: 1 },
    { name: 'phone', width: 390, height: 844, scale: 2 },
  ]) {
    const context = await browser.newContext({ viewport: { width: vp.width, height: vp.height }, deviceScaleFactor: vp.scale });
    const page = await context.newPage();
    page.on('console', (m) => m.type() === 'error' && errors.push(`${vp.name}: ${m.text()}`));
    page.on('pageerror', (e) => errors.push(`${vp.name}: ${e.message}`));
    await page.goto(server.url);
    await ready(page);
    const table = page.locator('punto-banco-table');
    await page.screenshot({ path: path.join(outDir, `${vp.name}-1-page.png`), fullPage: vp.name === 'desktop' });
    await table.screenshot({ path: path.join(outDir, `${vp.name}-2-table.png`) });
    // Keyboard focus on a box: Tab from the top of the page until a box has focus.
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      const onBox = await page.evaluate(() => document.querySelector('punto-banco-table')?.shadowRoot?.activeElement?.classList.contains('box'));
      if (onBox) break;
    }
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForTimeout(300);
    await table.screenshot({ path: path.join(outDir, `${vp.name}-2b-focus.png`) });
    await page.keyboard.press('Delete');
    // Bets: a 1.00 chip on Player in sector 2 twice, the minimum on Banker in sector 4, a chip on Tie in sector 1.
    await page.locator('punto-banco-table .chip[data-value="1000"]').click();
    await page.locator('punto-banco-table .box[data-sector="1"][data-box="player"]').click();
    await page.locator('punto-banco-table .box[data-sector="1"][data-box="player"]').click();
    await page.locator('punto-banco-table .chip[data-value="500"]').click();
    await page.locator('punto-banco-table .box[data-sector="3"][data-box="banker"]').click();
    await page.locator('punto-banco-table .box[data-sector="0"][data-box="tie"]').click();
    await page.waitForTimeout(300);
    await table.screenshot({ path: path.join(outDir, `${vp.name}-3-bets.png`) });
    await page.locator('punto-banco-table [data-action="deal"]').click();
    await page.waitForTimeout(900);
    await table.screenshot({ path: path.join(outDir, `${vp.name}-4-dealing.png`) });
    await settled(page);
    await table.screenshot({ path: path.join(outDir, `${vp.name}-5-settled.png`) });
    // A refused bet: a fourth sector.
    await page.locator('punto-banco-table .chip[data-value="1000"]').click();
    await page.locator('punto-banco-table .box[data-sector="1"][data-box="player"]').click();
    await page.locator('punto-banco-table .box[data-sector="2"][data-box="player"]').click();
    await page.locator('punto-banco-table .box[data-sector="3"][data-box="player"]').click();
    await page.locator('punto-banco-table .box[data-sector="4"][data-box="player"]').click();
    await page.waitForTimeout(300);
    await table.screenshot({ path: path.join(outDir, `${vp.name}-6-refused.png`) });
    // Italian.
    await page.selectOption('#lang-select', 'it');
    await page.waitForTimeout(500);
    await table.screenshot({ path: path.join(outDir, `${vp.name}-7-italian.png`) });
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
console.log(`screenshots in ${outDir}`);
if (errors.length) console.log(`page errors:\n${errors.join('\n')}`);
