/**
 * Screenshots of the table alone in a viewport, for people to judge (not a test): serves dist/
 * with the fake Worker and, at 1280×720, 390×844 and 844×390, writes PNGs of the table ready, bets
 * placed, a settled round, the shuffle and cut of a new shoe, and a round of each mode (shoe,
 * reshuffle). The page puts the table full width with nothing else, as the /embed frame does.
 *
 *   npm run build && npx node test/widget/table-shots.ts [outDir]     (default /tmp/shots-table)
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { launchChromium } from '../chromium.ts';
import { defaultShoeRules } from '../../shared/shoe.ts';
import { FAKE_PARAMS } from './fake-worker.ts';
import { startDemoServer } from './demo-server.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const outDir = path.resolve(process.argv[2] ?? '/tmp/shots-table');
await mkdir(outDir, { recursive: true });

const server = await startDemoServer(path.join(root, 'dist'));
const browser = await launchChromium();

interface TablePage extends HTMLElement {
  state: string;
  bets: unknown[];
  placeBet(sector: number, box: string): boolean;
  deal(): Promise<void>;
}

/** The demo page emptied down to one table filling the viewport's width. */
async function tableOnly(page: Page, attrs: string): Promise<void> {
  await page.goto(server.url);
  await page.evaluate((a) => {
    document.head.querySelectorAll('link[rel=stylesheet], style').forEach((n) => n.remove());
    document.body.style.cssText = 'margin:0;background:#151312';
    document.body.innerHTML = `<punto-banco-table id="table" endpoint="/" ${a}></punto-banco-table>`;
  }, attrs);
  await page.waitForFunction(() => (document.getElementById('table') as TablePage | null)?.state === 'ready', null, { timeout: 30_000 });
  await page.waitForTimeout(500);
}

async function bet(page: Page): Promise<void> {
  await page.evaluate(() => {
    const table = document.getElementById('table') as TablePage;
    table.placeBet(0, 'banker');
    table.placeBet(1, 'player');
    table.placeBet(1, 'player');
    table.placeBet(3, 'tie');
  });
}

const errors: string[] = [];
try {
  for (const vp of [
    { name: '1280x720', width: 1280, height: 720, scale: 1 },
    { name: '390x844', width: 390, height: 844, scale: 2 },
    { name: '844x390', width: 844, height: 390, scale: 2 },
  ]) {
    for (const mode of ['shoe', 'reshuffle'] as const) {
      server.worker.params =
        mode === 'shoe'
          ? { ...FAKE_PARAMS, mode, burn: true, cutCardFromEnd: defaultShoeRules(mode).cutCardFromEnd }
          : { algorithm: 'pb-fair-2', mode, decks: FAKE_PARAMS.decks, roundLimit: 100, voidAfterSeconds: FAKE_PARAMS.voidAfterSeconds };
      const context = await browser.newContext({ viewport: { width: vp.width, height: vp.height }, deviceScaleFactor: vp.scale });
      const page = await context.newPage();
      page.on('console', (m) => m.type() === 'error' && errors.push(`${vp.name}: ${m.text()}`));
      page.on('pageerror', (e) => errors.push(`${vp.name}: ${e.message}`));
      const shot = async (name: string) => {
        await page.waitForTimeout(300);
        await page.screenshot({ path: path.join(outDir, `${vp.name}-${mode}-${name}.png`) });
      };
      await tableOnly(page, `room="hall-1" lang="${mode === 'shoe' ? 'en' : 'ru'}" mode="${mode}" speed="fast"`);
      if (mode === 'shoe') await shot('1-ready');
      await bet(page);
      if (mode === 'shoe') await shot('2-bets');
      // The first deal starts the shoe: shuffle and cut on the felt, then the round.
      void page.evaluate(() => (document.getElementById('table') as TablePage).deal());
      await page.waitForTimeout(450);
      await shot('3-shuffle-cut');
      await page.waitForFunction(() => (document.getElementById('table') as TablePage).state === 'settled', null, { timeout: 30_000 });
      await page.waitForTimeout(400);
      await shot('4-settled');
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.close();
}
console.log(`screenshots in ${outDir}`);
if (errors.length) console.log(`page errors:\n${errors.join('\n')}`);
