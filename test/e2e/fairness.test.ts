/**
 * pb-fair-2 through the widget against the real Worker: one Deal click locks the bet and deals,
 * the fairness panel verifies the table's transcript and finds the player's copy in it, and the
 * copy the player downloads verifies on the standalone /verify page.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { browserForFile, ENDPOINT, SHOTS } from './browser.ts';

const browser = browserForFile();

async function settledRounds(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { settled: number }).settled);
}

test('three rounds through the widget, verified in the fairness panel and, from the downloaded copy, on /verify', async () => {
  const page = await browser().newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const requests: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST') requests.push(new URL(r.url()).pathname.replace(/\/sessions\/[^/]+/, '/sessions/:id'));
  });
  await page.goto(`${ENDPOINT}/`);
  const table = page.locator('punto-banco-table');
  await table.waitFor();
  await page.evaluate(() => {
    (window as unknown as { settled: number }).settled = 0;
    document.querySelector('punto-banco-table')!.addEventListener('pb-round-settled', () => (window as unknown as { settled: number }).settled++);
  });
  const player1 = page.getByRole('button', { name: /^Player, sector 1/ });
  await player1.waitFor({ timeout: 120_000 });
  await player1.click();
  for (let round = 1; round <= 3; round++) {
    if (round > 1) await page.getByRole('button', { name: 'Repeat', exact: true }).click();
    await page.getByRole('button', { name: 'Deal', exact: true }).click();
    await page.waitForFunction((n) => (window as unknown as { settled: number }).settled >= n, round, { timeout: 60_000 });
  }
  assert.equal(await settledRounds(page), 3);
  // One click, two phases: each round is a bet (the lock) and then its secret, nothing else.
  const rounds = requests.filter((p) => /\/rounds/.test(p));
  assert.deepEqual(rounds, [
    '/api/sessions/:id/rounds',
    '/api/sessions/:id/rounds/1/secret',
    '/api/sessions/:id/rounds',
    '/api/sessions/:id/rounds/2/secret',
    '/api/sessions/:id/rounds',
    '/api/sessions/:id/rounds/3/secret',
  ]);

  // The fairness panel: the table's transcript verifies (signatures, chain, both sides' keys), and
  // every record the player received is in it, unchanged.
  // A table with room beside the felt opens the fairness pane by itself at the start of a shoe: open it only if it is closed.
  const launcher = page.locator('punto-banco-table .launchers:not(.sheet-tabs) .launcher', { hasText: 'Fairness' });
  if ((await launcher.getAttribute('aria-pressed')) !== 'true') await launcher.click();
  let report = page.locator('punto-banco-table pb-fairness pb-verify-report-v2');
  await page.getByRole('button', { name: 'Verify the table’s transcript' }).click();
  await report.locator('.chip[data-round="3"]').waitFor({ timeout: 60_000 });
  // The shoe is still in play: every record and signature checks out, the cards wait for the reveal.
  assert.equal(await report.locator('section.shoe').first().getAttribute('data-code'), 'ok');
  assert.deepEqual(await report.locator('.chip').evaluateAll((chips) => chips.map((c) => (c as HTMLElement).dataset.status)), [
    'pending',
    'pending',
    'pending',
  ]);
  // The player ends the shoe (a signed request): the seed is revealed and every card checks out.
  await page.getByRole('button', { name: 'End the shoe and reveal' }).click();
  await page.locator('punto-banco-table .shoe-picker .shoe-chip[data-shoe="1"]').click({ timeout: 60_000 });
  report = page.locator('punto-banco-table pb-fairness[data-shoe="1"]:not([hidden]) pb-verify-report-v2');
  await page.locator('punto-banco-table pb-fairness[data-shoe="1"]:not([hidden])').getByRole('button', { name: 'Verify the table’s transcript' }).click();
  await report.locator('.chip[data-round="3"][data-status="verified"]').waitFor({ timeout: 60_000 });
  assert.deepEqual(await report.locator('.chip[data-shoe="1"]').evaluateAll((chips) => chips.map((c) => (c as HTMLElement).dataset.status)), [
    'verified',
    'verified',
    'verified',
  ]);
  await page
    .locator('punto-banco-table pb-fairness[data-shoe="1"]:not([hidden])')
    .getByRole('button', { name: 'Compare with the operator’s transcript' })
    .click();
  await report.locator('.copy.ok[data-findings="0"]').waitFor({ timeout: 30_000 });
  await page.screenshot({ path: `${SHOTS}/fairness-1-panel.png` });

  // The player's copy, downloaded, is a pb-fair-2 file that /verify checks on its own and against itself.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.locator('punto-banco-table pb-fairness[data-shoe="1"]:not([hidden])').getByRole('button', { name: 'Download my copy' }).click(),
  ]);
  const copy = await readFile(await download.path(), 'utf8');
  const parsed = JSON.parse(copy) as { version: string; records: { body: { type: string } }[] };
  assert.equal(parsed.version, 'pb-fair-2');
  assert.equal(parsed.records.filter((r) => r.body.type === 'receipt').length, 3);
  assert.equal(parsed.records.filter((r) => r.body.type === 'acceptance').length, 3);

  const verify = await browser().newPage({ viewport: { width: 1280, height: 900 } });
  await verify.goto(`${ENDPOINT}/verify`);
  await verify.locator('pb-verify-page textarea#transcript').fill(copy);
  await verify.locator('pb-verify-page textarea#mine').fill(copy);
  await verify.waitForFunction(
    () => {
      const page = document.querySelector('pb-verify-page');
      const jwks = page?.shadowRoot?.querySelector<HTMLTextAreaElement>('#jwks');
      return (jwks?.value ?? '').includes('"keys"');
    },
    null,
    { timeout: 30_000 },
  );
  await verify.getByRole('button', { name: 'Verify', exact: true }).click();
  const summary = verify.locator('pb-verify-page .summary');
  await summary.waitFor({ timeout: 30_000 });
  // Shoe 1 is revealed: its cards verify; shoe 2 is committed, its records verify.
  assert.equal(await summary.getAttribute('data-code'), 'ok');
  assert.equal(await summary.getAttribute('data-findings'), '0');
  await verify.screenshot({ path: `${SHOTS}/fairness-2-verify-page.png` });
  assert.deepEqual(errors, []);
  await verify.close();
  await page.close();
});
