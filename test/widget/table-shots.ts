/**
 * Screenshots of the table alone in a viewport, for people to judge (not a test): serves dist/
 * with the fake Worker and, at every screen of the layout matrix (1280×720, 1366×768, 1440×900,
 * 390×844, 844×390, 360×640, 640×360) in every language (en, ru, it, el), writes PNGs of the table
 * ready, with bets placed, the shuffle and cut of a new shoe (the first deal starts it), a round
 * being dealt and the settled round. The page is the /embed frame's: its one style
 * (worker/embed/frame.ts) and the table alone in it.
 *
 *   npm run build && npx node test/widget/table-shots.ts [outDir]     (default test-results/shots)
 *   PB_SHOTS_ONLY=844x390,360x640 …                                   (only those screens)
 *   PB_SHOTS_LANGS=en,ru …                                            (only those languages)
 *
 * Files: `<width>x<height>-<lang>-<n>-<state>.png`, n = 1 ready, 2 bets, 3 cut, 4 dealing, 5 settled.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { defaultShoeRules } from '../../shared/shoe.ts';
import { FRAME_STYLE } from '../../worker/embed/frame-style.ts';
import { FAKE_PARAMS } from './fake-worker.ts';
import { LANGUAGES, VIEWPORTS } from './layout-checks.ts';
import { startShots } from './shots-setup.ts';

const { outDir, server, browser } = await startShots();

interface TablePage extends HTMLElement {
  state: string;
  bets: unknown[];
  scene: { inspect(): { shuffling: boolean; cards: unknown[] } } | null;
  placeBet(sector: number, box: string): boolean;
  deal(): Promise<void>;
}

/** The demo page emptied down to the /embed frame: its style and one table. */
async function frameOnly(page: Page, attrs: string): Promise<void> {
  await page.goto(server.url);
  await page.evaluate(
    ([a, style]) => {
      document.head.querySelectorAll('link[rel=stylesheet], style').forEach((n) => n.remove());
      const s = document.createElement('style');
      s.textContent = style!;
      document.head.append(s);
      document.body.removeAttribute('style');
      document.body.innerHTML = `<punto-banco-table id="table" endpoint="/" ${a}></punto-banco-table>`;
    },
    [attrs, FRAME_STYLE],
  );
  await page.waitForFunction(() => (document.getElementById('table') as TablePage | null)?.state === 'ready', null, { timeout: 30_000 });
  await page.waitForFunction(() => (document.getElementById('table') as TablePage).scene !== null, null, { timeout: 30_000 });
  await page.waitForTimeout(400);
}

async function bet(page: Page): Promise<void> {
  await page.evaluate(() => {
    const table = document.getElementById('table') as TablePage;
    table.placeBet(0, 'banker');
    table.placeBet(1, 'player');
    table.placeBet(1, 'player');
    table.placeBet(3, 'tie');
    table.placeBet(4, 'player');
  });
}

const errors: string[] = [];
const written: string[] = [];
try {
  server.worker.params = { ...FAKE_PARAMS, mode: 'shoe', burn: true, cutCardFromEnd: defaultShoeRules('shoe').cutCardFromEnd };
  // PB_SHOTS_ONLY=844x390,360x640: only those screens.
  const only = process.env['PB_SHOTS_ONLY']?.split(',');
  // PB_SHOTS_LANGS=en,ru: only those languages.
  const langs = process.env['PB_SHOTS_LANGS']?.split(',');
  for (const [width, height] of VIEWPORTS.filter(([w, h]) => !only || only.includes(`${w}x${h}`))) {
    const scale = width < 900 ? 2 : 1;
    for (const lang of LANGUAGES.filter((l) => !langs || langs.includes(l))) {
      const name = `${width}x${height}-${lang}`;
      // A context of its own: a new session, whose first deal starts a shoe (shuffle and cut).
      // bypassCSP: the demo page allows no inline style, and the frame's style is put in as one.
      const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: scale, bypassCSP: true });
      const page = await context.newPage();
      page.on('console', (m) => m.type() === 'error' && errors.push(`${name}: ${m.text()}`));
      page.on('pageerror', (e) => errors.push(`${name}: ${e.message}`));
      const shot = async (state: string): Promise<void> => {
        const file = path.join(outDir, `${name}-${state}.png`);
        await page.screenshot({ path: file });
        written.push(file);
      };
      const scene = (check: string) =>
        page.waitForFunction(
          (c) => {
            const s = (document.getElementById('table') as TablePage).scene?.inspect();
            return s ? (c === 'shuffling' ? s.shuffling : s.cards.length >= 3) : false;
          },
          check,
          { timeout: 30_000, polling: 'raf' },
        );
      await frameOnly(page, `room="hall-1" lang="${lang}" mode="shoe"`);
      await shot('1-ready');
      await bet(page);
      await page.waitForTimeout(250);
      await shot('2-bets');
      void page.evaluate(() => (document.getElementById('table') as TablePage).deal());
      await scene('shuffling').catch(() => errors.push(`${name}: no shuffle seen`));
      await page.waitForTimeout(350);
      await shot('3-cut');
      await scene('dealing').catch(() => errors.push(`${name}: no deal seen`));
      await shot('4-dealing');
      await page.waitForFunction(() => (document.getElementById('table') as TablePage).state === 'settled', null, { timeout: 30_000 });
      await page.waitForTimeout(500);
      await shot('5-settled');
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.close();
}
console.log(`${written.length} screenshots in ${outDir}`);
if (errors.length) console.log(`page errors:\n${errors.join('\n')}`);
