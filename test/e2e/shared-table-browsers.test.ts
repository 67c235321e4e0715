/**
 * Two players at one shared table, end to end: the real Worker (`wrangler dev`, started
 * here with a short betting window), two Chromium pages each showing `/embed?table=…` (each its
 * own tab, so its own session and key), real clicks. Both bet different stakes in the same window;
 * both see the same round dealt (the same cards, from the same signed deal), and each its own
 * result and balance, as its signed settlement says. The table's transcript verifies. Screenshots
 * of both pages go to test-results/e2e/ (look at them).
 *
 * This file starts its own server (it sets SHARED_WINDOW_MS), whatever PB_ENDPOINT says.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import type { Jwks } from '../../shared/index.ts';
import { verifySharedTableText } from '../../shared/fairness/pb-shared-2/verify.ts';
import { euros, launchChromium, SHOTS } from './browser.ts';
import { type RunningServer, startServer } from './server.ts';
import { mkdirSync } from 'node:fs';

let server: RunningServer;
let browser: Browser;

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await startServer({ vars: { SHARED_WINDOW_MS: '20000' } });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

/** Text inside the table's shadow root. */
function inTable(page: Page, selector: string): Promise<string> {
  return page.evaluate((s) => document.querySelector('punto-banco-table')?.shadowRoot?.querySelector(s)?.textContent?.trim() ?? '', selector);
}

async function open(tableId: string, name: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1180, height: 980 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  (page as unknown as { errors: string[] }).errors = errors;
  await page.goto(`${server.url}/embed?table=${tableId}&lang=en`);
  await page.evaluate(() => {
    const w = window as unknown as { settled: unknown[] };
    w.settled = [];
    document.querySelector('punto-banco-table')!.addEventListener('pb-round-settled', (e) => w.settled.push((e as CustomEvent).detail));
  });
  try {
    await page.waitForFunction(() => document.querySelector('punto-banco-table')?.shadowRoot?.querySelector('.shared-clock.open'), null, { timeout: 120_000 });
  } catch (err) {
    await page.screenshot({ path: `${SHOTS}/shared-${name}-never-open.png`, fullPage: true });
    throw new Error(`${name}: the betting window never showed (${errors.join(' | ')}): ${String(err)}`);
  }
  return page;
}

/** Puts `times` chips of `chip` on a box, then presses Place bet. */
async function bet(page: Page, chip: string, box: RegExp, times: number): Promise<void> {
  await page.getByRole('button', { name: chip, exact: true }).click();
  for (let i = 0; i < times; i++) await page.getByRole('button', { name: box }).first().click();
  await page.getByRole('button', { name: 'Place bet', exact: true }).click();
}

test('two browsers at one shared table: the same round for both, each its own bet, result and balance', { timeout: 300_000 }, async () => {
  const tableId = `hall-1/e2e-${Date.now().toString(36)}`;
  const a = await open(tableId, 'a');
  const b = await open(tableId, 'b');
  const startA = await a.evaluate(() => (document.querySelector('punto-banco-table') as unknown as { balance: number }).balance);
  const startB = await b.evaluate(() => (document.querySelector('punto-banco-table') as unknown as { balance: number }).balance);

  // A bets €2 on Banker in sector 1; B €3 on Player in sector 2, early in one window (a fresh one: the
  // first opened when A came, and B's page may have taken a while), so both bets are in the same round.
  await a.waitForFunction(
    () => Number(document.querySelector('punto-banco-table')?.shadowRoot?.querySelector<HTMLElement>('.shared-clock.open')?.dataset.left ?? 0) >= 16,
    null,
    { timeout: 60_000, polling: 100 },
  );
  await bet(a, 'Chip €1.00', /^Banker, sector 1/, 2);
  await bet(b, 'Chip €1.00', /^Player, sector 2/, 3);
  for (const p of [a, b])
    await p.waitForFunction(
      () => /is in/.test(document.querySelector('punto-banco-table')?.shadowRoot?.querySelector('[part="status"]')?.textContent ?? ''),
      null,
      { timeout: 30_000 },
    );
  // Both see both bets on the boxes before the close.
  for (const p of [a, b]) {
    await p.waitForFunction(
      () => {
        const root = document.querySelector('punto-banco-table')?.shadowRoot;
        return root?.querySelector('.box-total[data-sector="0"][data-box="banker"]') && root.querySelector('.box-total[data-sector="1"][data-box="player"]');
      },
      null,
      { timeout: 30_000 },
    );
  }
  assert.equal(await inTable(a, '.box-total[data-sector="1"][data-box="player"]'), `All ${euros(3000)}`);
  assert.equal(await inTable(b, '.box-total[data-sector="0"][data-box="banker"]'), `All ${euros(2000)}`);
  await a.screenshot({ path: `${SHOTS}/shared-a-1-betting.png`, fullPage: true });
  await b.screenshot({ path: `${SHOTS}/shared-b-1-betting.png`, fullPage: true });

  // The close, the beacon, the deal: each page gets its own signed settlement of the same deal.
  const settled = (p: Page) =>
    p
      .waitForFunction(() => (window as unknown as { settled: unknown[] }).settled.length > 0, null, { timeout: 90_000 })
      .then(() => p.evaluate(() => (window as unknown as { settled: any[] }).settled[0]));
  const [sa, sb] = await Promise.all([settled(a), settled(b)]);
  assert.equal(sa.body.type, 'settlement');
  assert.equal(sa.body.deal, sb.body.deal, 'one deal for both');
  assert.equal(sa.body.round, sb.body.round);
  assert.notEqual(sa.body.player, sb.body.player, 'each its own key');
  assert.equal(sa.body.staked, 2000);
  assert.equal(sb.body.staked, 3000);
  assert.equal(sa.body.balanceBefore, startA);
  assert.equal(sb.body.balanceBefore, startB);

  // The same cards on both felts (the table's drawn round, which the plain felt also writes out).
  await Promise.all(
    [a, b].map((p) =>
      p.waitForFunction(() => (document.querySelector('punto-banco-table') as unknown as { state?: string } | null)?.state === 'settled', null, {
        timeout: 60_000,
      }),
    ),
  );
  const cardsA = await inTable(a, '.plain-round');
  const cardsB = await inTable(b, '.plain-round');
  assert.ok(cardsA.length > 0, 'the round is on the felt');
  assert.equal(cardsA, cardsB);

  // Each its own balance, as its settlement says, shown in the bar.
  for (const [p, s] of [
    [a, sa],
    [b, sb],
  ] as const) {
    assert.equal(await p.evaluate(() => (document.querySelector('punto-banco-table') as unknown as { balance: number }).balance), s.body.balanceAfter);
    assert.equal(await inTable(p, '[part="balance"] output'), euros(s.body.balanceAfter));
    const net = s.body.returned - s.body.staked;
    const status = await inTable(p, '[part="status"]');
    if (net > 0) assert.match(status, new RegExp(`You win ${euros(net).replace(/[.$]/g, '\\$&')}`));
    else if (net < 0) assert.match(status, new RegExp(`You lose ${euros(-net).replace(/[.$]/g, '\\$&')}`));
  }
  // Banker for one, Player for the other: a tie pushes both (each gets its stake back), any other
  // result makes one win and the other lose.
  const pushed = (s: typeof sa) => (s.body.payouts as { result: string }[]).every((p) => p.result === 'push');
  if (pushed(sa) || pushed(sb)) {
    assert.ok(pushed(sa) && pushed(sb), 'a tie pushes both bets');
    assert.deepEqual([sa.body.balanceAfter, sb.body.balanceAfter], [startA, startB]);
  } else assert.ok((sa.body.balanceAfter - startA) * (sb.body.balanceAfter - startB) < 0, 'one wins what the other loses');

  // Both were counted at the table (the players come with each window and close).
  for (const p of [a, b]) assert.equal(await inTable(p, '.shared-players'), '2 at the table');
  // The scoreboard counts the round; the transcript has the deal both drew, and verifies.
  for (const p of [a, b]) assert.match(await inTable(p, '.shared-board h3'), /rounds: 1/);
  await a.screenshot({ path: `${SHOTS}/shared-a-2-settled.png`, fullPage: true });
  await b.screenshot({ path: `${SHOTS}/shared-b-2-settled.png`, fullPage: true });
  // The same table on a phone.
  await b.setViewportSize({ width: 390, height: 844 });
  await b.waitForTimeout(500);
  await b.screenshot({ path: `${SHOTS}/shared-b-3-phone.png`, fullPage: true });
  const transcript = await (await fetch(`${server.url}/api/tables/${tableId}/transcript`)).text();
  const jwks = (await (await fetch(`${server.url}/.well-known/jwks.json`)).json()) as Jwks;
  const deal = JSON.parse(transcript).records.find((r: any) => r.hash === sa.body.deal);
  assert.ok(deal, 'the deal is in the transcript');
  const report = await verifySharedTableText(transcript, jwks);
  assert.equal(report.code, 'ok', JSON.stringify(report));
  // The same transcript on the standalone /verify page (where the table's Verify page link goes).
  const verify = await browser.newPage({ viewport: { width: 1180, height: 800 } });
  await verify.goto(`${server.url}/verify`);
  await verify.locator('pb-verify-page textarea#transcript').fill(transcript);
  await verify.waitForFunction(
    () => (document.querySelector('pb-verify-page')?.shadowRoot?.querySelector<HTMLTextAreaElement>('#jwks')?.value ?? '').includes('"keys"'),
    null,
    {
      timeout: 30_000,
    },
  );
  await verify.getByRole('button', { name: 'Verify', exact: true }).click();
  const verdict = verify.locator('pb-verify-page [data-verdict]');
  await verdict.waitFor({ timeout: 60_000 });
  assert.equal(await verdict.getAttribute('data-code'), 'ok');
  await verify.screenshot({ path: `${SHOTS}/shared-3-verify-page.png` });
  await verify.close();
  for (const p of [a, b]) assert.deepEqual((p as unknown as { errors: string[] }).errors, []);
});
