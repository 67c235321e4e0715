/**
 * A newcomer's first rounds, end to end: the demo page served by `npm start` (wrangler dev), the real
 * Worker, Debian's Chromium driven by Playwright. Bet on Player, Deal, hear the result, see the balance
 * the signed receipt says. Screenshots go to test-results/e2e/ (look at them).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { browserForFile, ENDPOINT, euros, SHOTS } from './browser.ts';
import type { Receipt, Signed } from '../../shared/index.ts';

const browser = browserForFile();

/** Collects every receipt the element announces, in order. */
async function watchReceipts(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { receipts: unknown[] };
    w.receipts = [];
    document.querySelector('punto-banco-table')!.addEventListener('pb-round-settled', (e) => w.receipts.push((e as CustomEvent).detail));
  });
}

async function receipts(page: Page): Promise<Signed<Receipt>[]> {
  return page.evaluate(() => (window as unknown as { receipts: Signed<Receipt>[] }).receipts);
}

for (const viewport of [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test(`a newcomer plays three rounds on Player (${viewport.name})`, async () => {
    const page = await browser().newPage({ viewport, deviceScaleFactor: 1 });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${ENDPOINT}/`);
    const table = page.locator('punto-banco-table');
    await table.waitFor();
    await watchReceipts(page);
    const player1 = page.getByRole('button', { name: /^Player, sector 1/ });
    try {
      // The first session of a fresh Worker creates its signing key: allow a slow, loaded machine.
      await player1.waitFor({ timeout: 120_000 });
    } catch (err) {
      await page.screenshot({ path: `${SHOTS}/${viewport.name}-0-never-ready.png` });
      throw err;
    }
    await page.waitForFunction(() => !document.querySelector('punto-banco-table')?.shadowRoot?.querySelector('[part~="loader"]'), null, { timeout: 60_000 });
    await page.screenshot({ path: `${SHOTS}/${viewport.name}-1-ready.png` });

    for (let round = 1; round <= 3; round++) {
      // No chip selected: clicking an empty box puts the table minimum there (RULES.md).
      if (round === 1) await player1.click();
      else await page.getByRole('button', { name: 'Repeat', exact: true }).click();
      await assert.doesNotReject(page.getByRole('button', { name: /^Player, sector 1, bet/ }).waitFor({ timeout: 10_000 }));
      if (round === 1) await page.screenshot({ path: `${SHOTS}/${viewport.name}-2-bet.png` });
      await page.getByRole('button', { name: 'Deal', exact: true }).click();
      await page.waitForFunction((n) => (window as unknown as { receipts: unknown[] }).receipts.length >= n, round, { timeout: 60_000 });
      const receipt = (await receipts(page))[round - 1]!;
      const body = receipt.body;
      assert.equal(body.round >= 1, true);
      assert.deepEqual(
        body.payouts.map((b) => [b.sector, b.box]),
        [[0, 'player']],
      );
      // The live region announces the result with both totals.
      const status = page.locator('punto-banco-table [role="status"][aria-live]');
      const word = body.outcome === 'tie' ? 'Tie' : body.outcome === 'player' ? 'Player wins' : 'Banker wins';
      await assert.doesNotReject(
        page.waitForFunction(
          (w) => (document.querySelector('punto-banco-table')?.shadowRoot?.querySelector('[role="status"][aria-live]')?.textContent ?? '').includes(w),
          word,
          { timeout: 30_000 },
        ),
      );
      const announced = (await status.textContent()) ?? '';
      assert.match(announced, new RegExp(`${body.playerTotal}.*${body.bankerTotal}|${body.bankerTotal}.*${body.playerTotal}`));
      // The balance shown is the receipt's balance after.
      await assert.doesNotReject(
        page.waitForFunction(
          (text) => (document.querySelector('punto-banco-table')?.shadowRoot?.querySelector('[part~="balance"]')?.textContent ?? '').includes(text),
          euros(body.balanceAfter),
          { timeout: 30_000 },
        ),
        `balance should show ${euros(body.balanceAfter)}`,
      );
      assert.equal(body.balanceAfter, body.balanceBefore - body.staked + body.returned);
      await page.screenshot({ path: `${SHOTS}/${viewport.name}-3-round-${round}.png` });
    }
    const all = await receipts(page);
    for (let i = 1; i < all.length; i++) {
      // Each round follows the last: numbered in order, starting from the balance the last one left.
      assert.equal(all[i]!.body.round, all[i - 1]!.body.round + 1);
      assert.equal(all[i]!.body.balanceBefore, all[i - 1]!.body.balanceAfter);
    }
    assert.deepEqual(errors, []);
    await page.close();
  });
}
