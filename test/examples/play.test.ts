/**
 * Each example app, built by test/examples/run.ts, served by its own server (vite preview, the plain
 * page's static server, Astro's Node server) on a free loopback port, against the Worker at
 * PB_ENDPOINT, in Debian's Chromium: a chip, a box and Deal by real clicks inside the table's shadow
 * root, one round, and the app's own typed `pb-round-settled` listener shows the signed receipt the
 * event carried. Screenshots go to test-results/examples/ (look at them).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../chromium.ts';
import { freePort, stopGroup } from '../e2e/server.ts';
import type { Receipt, Signed } from '../../shared/index.ts';
import { chosenExamples, EXAMPLES_DIR, type Example } from './examples.ts';

const ENDPOINT = process.env.PB_ENDPOINT;
if (!ENDPOINT) throw new Error('PB_ENDPOINT is not set: run these through `npm run test:examples` (test/examples/run.ts)');
const SHOTS = 'test-results/examples';
mkdirSync(SHOTS, { recursive: true });
/** One chip of Hall 1 (minor units: €1.00), put on Player of sector 1. */
const STAKE = 1_000;

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
});

/** Serves the built example on a free loopback port until `stop`. */
async function serve(ex: Example): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const { args, env } = ex.serve(port);
  const child = spawn('npm', args, {
    cwd: path.join(EXAMPLES_DIR, ex.name),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  const url = `http://127.0.0.1:${port}`;
  const stop = () => stopGroup(child);
  for (let waited = 0; waited < 30_000; waited += 200) {
    if (child.exitCode !== null) throw new Error(`${ex.name}: its server exited (${child.exitCode}):\n${log}`);
    try {
      if ((await fetch(`${url}/`)).ok) return { url, stop };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await stop();
  throw new Error(`${ex.name}: its server did not answer on ${url}:\n${log}`);
}

/** What every example's listener writes from the event's detail: the receipt's own figures. */
const lastRound = (r: Receipt) => `Round ${r.round}: ${r.outcome} (Player ${r.playerTotal}, Banker ${r.bankerTotal}), balance ${r.balanceAfter}`;

/** A bet on Player: won on Player (paid 1:1), pushed on a tie (the stake back), lost on Banker. */
const EXPECTED = { player: { result: 'win', returned: 2 * STAKE }, tie: { result: 'push', returned: STAKE }, banker: { result: 'lose', returned: 0 } } as const;

/** Plays one round; `note` hears how long the table took to be ready and the round to settle (no assertion: a figure). */
async function play(ex: Example, page: Page, url: string, note: (text: string) => void): Promise<Signed<Receipt>> {
  const opened = performance.now();
  // The test's own record of the events, beside the app's listener: what the event carried.
  await page.addInitScript(() => {
    const w = window as unknown as { settled: unknown[] };
    w.settled = [];
    document.addEventListener('pb-round-settled', (e) => w.settled.push((e as CustomEvent).detail));
  });
  await page.goto(`${url}/?endpoint=${encodeURIComponent(ENDPOINT!)}`);
  const player = page.getByRole('button', { name: /^Player, sector 1/ });
  try {
    // The first session of a fresh Worker creates its signing key: allow a slow, loaded machine.
    await player.waitFor({ timeout: 120_000 });
    await page.waitForFunction(() => !document.querySelector('punto-banco-table')?.shadowRoot?.querySelector('[part~="loader"]'), null, { timeout: 60_000 });
  } catch (err) {
    await page.screenshot({ path: `${SHOTS}/${ex.name}-never-ready.png` });
    throw err;
  }
  const ready = performance.now();
  await page.getByRole('button', { name: 'Chip €1.00', exact: true }).click();
  await player.click();
  await page.getByRole('button', { name: /^Player, sector 1, bet/ }).waitFor({ timeout: 10_000 });
  await page.getByRole('button', { name: 'Deal', exact: true }).click();
  await page.waitForFunction(() => (window as unknown as { settled: unknown[] }).settled.length > 0, null, { timeout: 60_000 });
  note(`table ready ${((ready - opened) / 1000).toFixed(1)} s after the page was opened; bet and round ${((performance.now() - ready) / 1000).toFixed(1)} s`);
  return page.evaluate(() => (window as unknown as { settled: Signed<Receipt>[] }).settled[0]!);
}

for (const ex of chosenExamples((process.env.PB_EXAMPLES ?? '').split(',').filter(Boolean))) {
  test(`examples/${ex.name}: built, served, one round on Player by clicks, and its typed pb-round-settled listener shows the receipt`, async (t) => {
    const server = await serve(ex);
    // A player who asks the OS for less motion: the table follows it (instant deals), the round the same.
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1, reducedMotion: 'reduce' });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    try {
      if (ex.ssr) {
        // Rendered on the server, per request: the tag with this request's endpoint, and the
        // limits the package's engine gave in Node, in the HTML before any script runs.
        const html = await (await fetch(`${server.url}/?endpoint=${encodeURIComponent(ENDPOINT)}`)).text();
        assert.match(html, new RegExp(`<punto-banco-table endpoint="${ENDPOINT.replace(/[.]/g, '\\.')}" room="hall-1"`));
        assert.match(html, /Hall 1: bets from €0\.10 to €10\.00\./);
      }
      const receipt = await play(ex, page, server.url, (text) => t.diagnostic(text));
      const body = receipt.body;
      // The detail is the signed pb-fair-2 receipt of this round.
      assert.equal(body.type, 'receipt');
      assert.equal(typeof receipt.signature, 'string');
      assert.ok(Number.isInteger(body.round) && body.round >= 1);
      assert.ok(['player', 'banker', 'tie'].includes(body.outcome), `outcome ${body.outcome}`);
      const { result, returned } = EXPECTED[body.outcome];
      assert.deepEqual(body.payouts, [{ sector: 0, box: 'player', amount: STAKE, result, returned, net: returned - STAKE }]);
      assert.equal(body.balanceAfter, body.balanceBefore - STAKE + returned);
      // The app's own listener got the same event and shows it.
      const shown = page.getByTestId('last-round');
      await page.waitForFunction((text) => document.querySelector('[data-testid="last-round"]')?.textContent?.trim() === text, lastRound(body), {
        timeout: 10_000,
      });
      assert.equal((await shown.textContent())?.trim(), lastRound(body));
      await page.screenshot({ path: `${SHOTS}/${ex.name}.png` });
      assert.deepEqual(errors, []);
    } catch (err) {
      await page.screenshot({ path: `${SHOTS}/${ex.name}-failed.png` }).catch(() => {});
      throw err;
    } finally {
      await page.close();
      await server.stop();
    }
  });
}
