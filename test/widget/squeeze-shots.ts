/**
 * Screenshots of the squeeze mid-peel, for people to judge (not a test): serves dist/ with the fake
 * Worker, deals a Player bet at a table with `squeeze`, and holds the real mouse down nearly half
 * the way across the second Player card, at 1280×720 and 390×844 (or PB_SHOTS_ONLY=WxH,…).
 *
 *   npm run build && npx node test/widget/squeeze-shots.ts [outDir]     (default test-results/shots)
 *
 * Files: `squeeze-<width>x<height>-peel.png` (held mid-peel) and `…-peel-close.png` (the card's place, close).
 */
import path from 'node:path';
import { startShots } from './shots-setup.ts';

const { outDir, server, browser } = await startShots();

interface TablePage extends HTMLElement {
  state: string;
  scene: { inspect(): { squeeze: { waiting: number[]; peeling: number } } } | null;
  placeBet(sector: number, box: string): boolean;
  deal(): Promise<void>;
}

const written: string[] = [];
try {
  const only = process.env['PB_SHOTS_ONLY']?.split(',');
  for (const [width, height] of (
    [
      [1280, 720],
      [390, 844],
    ] as const
  ).filter(([w, h]) => !only || only.includes(`${w}x${h}`))) {
    const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 2 });
    const page = await context.newPage();
    await page.goto(server.url);
    await page.evaluate(() => {
      document.body.innerHTML = '<punto-banco-table id="table" endpoint="/" room="hall-1" lang="en" squeeze reduced-motion="false"></punto-banco-table>';
    });
    const table = { timeout: 30_000, polling: 'raf' } as const;
    await page.waitForFunction(
      () => {
        const t = document.getElementById('table') as TablePage;
        return t.state === 'ready' && t.scene !== null;
      },
      null,
      table,
    );
    await page.evaluate(() => {
      const t = document.getElementById('table') as TablePage;
      t.placeBet(0, 'player');
      void t.deal();
    });
    await page.waitForFunction(() => (document.getElementById('table') as TablePage).scene?.inspect().squeeze.waiting.length === 2, null, table);
    // Quick: a card not peeled within 6 s turns by itself.
    const card = page.locator('punto-banco-table .squeeze-card').nth(1);
    const box = (await card.boundingBox())!;
    await card.scrollIntoViewIfNeeded();
    const shot = async (state: string): Promise<void> => {
      const file = path.join(outDir, `squeeze-${width}x${height}-${state}.png`);
      await page.screenshot({ path: file });
      written.push(file);
    };
    // From the bottom-right corner, nearly half the way across the card (short of the turn).
    const b = (await card.boundingBox()) ?? box;
    const corner = { x: b.x + b.width - 4, y: b.y + b.height - 4 };
    await page.mouse.move(corner.x, corner.y);
    await page.mouse.down();
    for (const share of [0.15, 0.3, 0.45]) await page.mouse.move(corner.x - b.width * share, corner.y - b.height * share);
    await page.waitForFunction(() => (document.getElementById('table') as TablePage).scene?.inspect().squeeze.peeling === 1, null, table);
    await page.waitForTimeout(100);
    // A close-up of the card's place first (quick), then the whole table.
    const close = { x: Math.max(0, b.x - b.width * 1.5), y: Math.max(0, b.y - b.height * 0.5), width: b.width * 4, height: b.height * 2 };
    const file = path.join(outDir, `squeeze-${width}x${height}-peel-close.png`);
    await page.screenshot({ path: file, clip: close });
    written.push(file);
    await shot('peel');
    await page.mouse.up();
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
console.log(`${written.length} screenshots:\n${written.join('\n')}`);
