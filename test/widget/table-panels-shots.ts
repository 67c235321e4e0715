/**
 * Screenshots of the table with its panels, for people to look at (not a test): serves dist/ with
 * the fake Worker, opens the demo page in Debian's Chromium (playwright-core) on a phone and a
 * desktop viewport, plays rounds, and writes PNGs: the scoreboard and history open, the fairness
 * panel before the shoe (the cut) and after its reveal (verified).
 *
 *   npm run build && npx node test/widget/table-panels-shots.ts [outDir]     (default /tmp/shots-integrated)
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import { launchChromium } from '../chromium.ts';
import { startDemoServer } from './demo-server.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const outDir = path.resolve(process.argv[2] ?? '/tmp/shots-integrated');
await mkdir(outDir, { recursive: true });

const server = await startDemoServer(path.join(root, 'dist'));
const browser = await launchChromium();

interface TablePage {
  state: string;
  bets: unknown[];
  placeBet(sector: number, box: string): boolean;
  deal(): Promise<void>;
}

async function ready(page: Page): Promise<void> {
  await page.waitForFunction(() => (document.getElementById('table') as unknown as TablePage | null)?.state === 'ready', null, { timeout: 30_000 });
  await page.waitForTimeout(600);
}

/** Plays `rounds` rounds through the element's API (instant animations), varying the bets. */
async function play(page: Page, rounds: number): Promise<void> {
  await page.evaluate(async (n) => {
    const table = document.getElementById('table') as unknown as TablePage;
    const boxes = ['banker', 'player', 'banker', 'tie', 'player'];
    for (let i = 0; i < n; i++) {
      if (table.bets.length === 0) {
        table.placeBet(i % 3, boxes[i % boxes.length]!);
        if (i % 2 === 0) table.placeBet(3, 'banker');
      }
      await table.deal();
    }
  }, rounds);
  await page.waitForTimeout(400);
}

function inTable(page: Page, selector: string): Locator {
  return page.locator(`punto-banco-table ${selector}`).first();
}

const errors: string[] = [];
try {
  for (const vp of [
    { name: 'desktop', width: 1280, height: 900, scale: 1 },
    { name: 'phone', width: 390, height: 844, scale: 2 },
  ]) {
    const context = await browser.newContext({ viewport: { width: vp.width, height: vp.height }, deviceScaleFactor: vp.scale });
    const page = await context.newPage();
    page.on('console', (m) => m.type() === 'error' && errors.push(`${vp.name}: ${m.text()}`));
    page.on('pageerror', (e) => errors.push(`${vp.name}: ${e.message}`));
    await page.goto(server.url);
    await page.evaluate(() => document.getElementById('table')!.setAttribute('reduced-motion', ''));
    await ready(page);
    const table = page.locator('punto-banco-table');
    const shot = async (name: string, what: 'table' | 'page' = vp.name === 'phone' ? 'page' : 'table') => {
      await page.waitForTimeout(350);
      const file = path.join(outDir, `${vp.name}-${name}.png`);
      if (what === 'table') await table.screenshot({ path: file });
      else await page.screenshot({ path: file });
    };

    // 1. Before the shoe: the invitation to cut, a line above the launchers (on a table with room
    // for the pane beside the felt, 1100 px and wider, the fairness panel is already open instead).
    if (await inTable(page, '.invite button').isVisible()) {
      await table.scrollIntoViewIfNeeded();
      await shot('1-invite');
      await inTable(page, '.invite button').click();
    }
    await inTable(page, 'pb-fairness[data-current] .start-button').waitFor();
    await inTable(page, 'pb-fairness[data-current] #seed').fill('my lucky seed');
    await inTable(page, 'pb-fairness[data-current] input[type=range]').fill('120');
    await shot('2-fairness-before');
    await inTable(page, 'pb-fairness[data-current] .start-button').click();
    await page.waitForTimeout(400);
    await shot('3-fairness-started');
    if (vp.name === 'phone') await inTable(page, '.pane-close').click();

    // 2. A few dozen rounds, then the scoreboard and the history.
    await play(page, 28);
    await inTable(page, '.drawer-bar .launcher[data-panel="scoreboard"]').click();
    await inTable(page, 'pb-scoreboard').waitFor();
    await shot('4-scoreboard');
    if (vp.name === 'desktop') await shot('4-scoreboard-page', 'page');
    await (
      vp.name === 'phone' ? inTable(page, '.sheet-tabs .launcher[data-panel="history"]') : inTable(page, '.drawer-bar .launcher[data-panel="history"]')
    ).click();
    await inTable(page, 'pb-history li.round').waitFor();
    await inTable(page, 'pb-history li.round summary').click();
    await shot('5-history');

    // 3. End the shoe, verify it.
    await (
      vp.name === 'phone' ? inTable(page, '.sheet-tabs .launcher[data-panel="fairness"]') : inTable(page, '.drawer-bar .launcher[data-panel="fairness"]')
    ).click();
    await inTable(page, 'pb-fairness[data-current] .end-button').click();
    await inTable(page, 'pb-fairness[data-shoe="1"] .verify-table-button').waitFor();
    await inTable(page, 'pb-fairness[data-shoe="1"] .verify-table-button').click();
    await inTable(page, 'pb-fairness[data-shoe="1"] pb-verify-report-v2').waitFor();
    await shot('6-fairness-verified');
    await inTable(page, 'pb-fairness[data-shoe="1"] pb-verify-report-v2').scrollIntoViewIfNeeded();
    await shot('7-fairness-verified-rounds');

    // 4. The help panel, in Italian.
    await page.evaluate(() => ((document.getElementById('table') as HTMLElement).lang = 'it'));
    await (vp.name === 'phone' ? inTable(page, '.sheet-tabs .launcher[data-panel="help"]') : inTable(page, '.drawer-bar .launcher[data-panel="help"]')).click();
    await inTable(page, 'pb-help .odds-table').waitFor();
    await shot('8-help-italian');
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
console.log(`screenshots in ${outDir}`);
if (errors.length) console.log(`page errors:\n${errors.join('\n')}`);
