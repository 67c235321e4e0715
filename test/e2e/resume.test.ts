/**
 * A reload keeps the table: the demo page served by `npm start` (wrangler dev), the real Worker,
 * Debian's Chromium driven by Playwright. Play one round, reload the page: the table resumes its
 * session (kept in the tab's sessionStorage) with the receipt's balance, and the History panel
 * still lists round 1. Screenshots go to test-results/e2e/.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { browserForFile, ENDPOINT, euros, SHOTS } from './browser.ts';
import type { Receipt, Signed } from '../../shared/index.ts';

const browser = browserForFile();

/** Waits for the table to take bets (the loader gone, the boxes there). */
async function ready(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^Player, sector 1/ }).waitFor({ timeout: 120_000 });
  await page.waitForFunction(() => !document.querySelector('punto-banco-table')?.shadowRoot?.querySelector('[part~="loader"]'), null, { timeout: 60_000 });
}

/** The element's public properties the test reads. */
type Table = Element & { sessionId: string | null; balance: number };
const sessionId = (page: Page) => page.evaluate(() => document.querySelector<Table>('punto-banco-table')!.sessionId);

test('a reload resumes the session: the same balance, and round 1 in the history', async () => {
  const page = await browser().newPage({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const created: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/sessions') created.push(r.url());
  });
  await page.goto(`${ENDPOINT}/`);
  await ready(page);
  const id = await sessionId(page);
  assert.ok(id);

  // One round on Player (no chip selected: a click puts the table minimum there).
  const settled = page.evaluate(
    () =>
      new Promise<Signed<Receipt>>((resolve) =>
        document.querySelector('punto-banco-table')!.addEventListener('pb-round-settled', (e) => resolve((e as CustomEvent).detail), { once: true }),
      ),
  );
  await page.getByRole('button', { name: /^Player, sector 1/ }).click();
  await page.getByRole('button', { name: /^Player, sector 1, bet/ }).waitFor({ timeout: 10_000 });
  await page.getByRole('button', { name: 'Deal', exact: true }).click();
  const receipt = await settled;
  assert.equal(receipt.body.round, 1);
  const balance = euros(receipt.body.balanceAfter);
  await page.waitForFunction(
    (text) => (document.querySelector('punto-banco-table')?.shadowRoot?.querySelector('[part~="balance"]')?.textContent ?? '').includes(text),
    balance,
    { timeout: 30_000 },
  );

  await page.reload();
  await ready(page);
  assert.equal(await sessionId(page), id, 'the same session after the reload');
  assert.equal(created.length, 1, 'no new session was created');
  await assert.doesNotReject(
    page.waitForFunction(
      (text) => (document.querySelector('punto-banco-table')?.shadowRoot?.querySelector('[part~="balance"]')?.textContent ?? '').includes(text),
      balance,
      { timeout: 30_000 },
    ),
    `balance should show ${balance} after the reload`,
  );
  assert.equal(await page.evaluate(() => document.querySelector<Table>('punto-banco-table')!.balance), receipt.body.balanceAfter);

  // The History panel still lists the round played before the reload.
  await page.locator('punto-banco-table .drawer-bar .launcher[data-panel="history"]').click();
  const row = page.locator('punto-banco-table pb-history li.round');
  await row.first().waitFor({ timeout: 30_000 });
  assert.equal(await row.count(), 1);
  assert.match((await row.first().textContent()) ?? '', /Round 1\b/);
  await page.screenshot({ path: `${SHOTS}/resume-after-reload.png` });
  assert.deepEqual(errors, []);
  await page.close();
});
