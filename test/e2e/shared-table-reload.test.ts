/**
 * A reload mid-round at a shared table, end to end: the real Worker (`wrangler dev`, started here
 * with a short betting window) and Chromium on `/embed?table=…`. The player bets, then reloads the
 * page while the round waits for its beacon, and again during the next betting window. Each time
 * the reloaded table must show the open window — the ring's seconds and the chips enabled — soon
 * after its socket says the window is open: within a few animation frames and before the table
 * moves on (its close, a deal, another window), never sitting on "Dealing…" while the seconds
 * run out. Counted in frames and messages, not in wall-clock time. A deal broadcast while the page
 * was loading reaches it in the state's last deal; one broadcast after its socket opened comes as a
 * message and is drawn first (which of the two happens depends on how fast the page loads).
 *
 * This file starts its own server (it sets SHARED_WINDOW_MS), whatever PB_ENDPOINT says.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, SHOTS } from './browser.ts';
import { type RunningServer, startServer } from './server.ts';
import { mkdirSync } from 'node:fs';

let server: RunningServer;
let browser: Browser;

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await startServer({ vars: { SHARED_WINDOW_MS: '15000' } });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

/** The table's messages this page received, in order (the socket's frames, by `type`), across reloads. */
interface Watched {
  page: Page;
  messages: { type: string; round?: number; phase?: string }[];
  errors: string[];
}

async function open(tableId: string): Promise<Watched> {
  const context = await browser.newContext({ viewport: { width: 1180, height: 900 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const w: Watched = { page, messages: [], errors: [] };
  page.on('pageerror', (e) => w.errors.push(String(e)));
  page.on('websocket', (ws) =>
    ws.on('framereceived', (f) => {
      try {
        const m = JSON.parse(String(f.payload)) as { type: string; round?: number; phase?: string };
        w.messages.push({
          type: m.type,
          ...(typeof m.round === 'number' ? { round: m.round } : {}),
          ...(typeof m.phase === 'string' ? { phase: m.phase } : {}),
        });
      } catch {
        // not a message of the table
      }
    }),
  );
  // Every animation frame the page draws, counted from its start (reset by each load).
  await page.addInitScript(() => {
    const w = window as unknown as { frames: number };
    w.frames = 0;
    const tick = (): void => {
      w.frames++;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await page.goto(`${server.url}/embed?table=${tableId}&lang=en`);
  return w;
}

/** The ring says the window is open (with its seconds), and the chips may be played. */
function openAndBettable(page: Page): Promise<{ left: number; chips: boolean; status: string } | null> {
  return page.evaluate(() => {
    const root = document.querySelector('punto-banco-table')?.shadowRoot;
    const clock = root?.querySelector<HTMLElement>('.shared-clock.open');
    if (!root || !clock) return null;
    const chips = [...root.querySelectorAll('.chip')];
    return {
      left: Number(clock.dataset['left'] ?? 0),
      chips: chips.length > 0 && chips.every((c) => c.getAttribute('aria-disabled') === 'false'),
      status: root.querySelector('[part="status"]')?.textContent?.trim() ?? '',
    };
  });
}

const frames = (page: Page): Promise<number> => page.evaluate(() => (window as unknown as { frames: number }).frames);

/** Waits for the table's message that `is` (after the first `from` messages) and returns its index. */
async function message(w: Watched, is: string | ((m: Watched['messages'][number]) => boolean), from: number, what: string): Promise<number> {
  const test = typeof is === 'string' ? (m: Watched['messages'][number]) => m.type === is : is;
  for (let i = 0; i < 2400; i++) {
    const at = w.messages.findIndex((m, n) => n >= from && test(m));
    if (at >= 0) return at;
    await w.page.waitForTimeout(50);
  }
  throw new Error(`no '${String(is)}' message: ${what} (${w.messages.map((m) => m.type).join(' ')})`);
}

/**
 * After the socket (re)opened at message `from`: the table's word that a window is open (an
 * `open`, or a `state` in the betting phase the page asked for) and then the page showing it. The
 * page must show it before the table moves on and within FRAMES animation frames of the word, with
 * at least half of the window's seconds left. When the round's `deal` reached the reloaded page as a
 * message (its socket was open before the beacon came), the page draws that deal first, as every
 * player sees it: then the bound is DEAL_FRAMES, and the half window is what guards against the
 * table sitting on "Dealing…" while the seconds run out.
 */
const FRAMES = 30;
const DEAL_FRAMES = 600;
const WINDOW_SECONDS = 15;
async function showsOpenWindow(w: Watched, from: number, what: string): Promise<void> {
  const { page } = w;
  // The table's word: the first open of a window after `from`, or a state in the betting phase.
  const word = await message(w, (m) => m.type === 'open' || (m.type === 'state' && m.phase === 'betting'), from, what);
  const dealtLive = w.messages.slice(from, word + 1).some((m) => m.type === 'deal');
  const bound = dealtLive ? DEAL_FRAMES : FRAMES;
  const frame0 = await frames(page);
  for (;;) {
    const seen = await openAndBettable(page);
    if (seen && seen.left > 0 && seen.chips) {
      assert.ok(seen.left >= WINDOW_SECONDS / 2, `${what}: the window showed with ${seen.left} s left of ${WINDOW_SECONDS}`);
      // Before the table moved on (its close or a deal): a reply to the page's own ask for the state may come first.
      const later = w.messages.slice(word + 1).filter((m) => m.type === 'close' || m.type === 'deal' || m.type === 'open');
      assert.deepEqual(
        later,
        [],
        `${what}: the table moved on before the page showed the window (since the reload: ${JSON.stringify(w.messages.slice(from))})`,
      );
      assert.ok((await frames(page)) - frame0 <= bound, `${what}: more than ${bound} frames before the window showed`);
      assert.doesNotMatch(seen.status, /Dealing/, what);
      return;
    }
    const next = w.messages.slice(word + 1).find((m) => m.type === 'close' || m.type === 'deal');
    if (next || (await frames(page)) - frame0 > bound) {
      await page.screenshot({ path: `${SHOTS}/shared-reload-stuck.png`, fullPage: true });
      assert.fail(
        `${what}: the window open since message ${word} never showed (status "${seen?.status ?? (await statusText(page))}", ${(await frames(page)) - frame0} frames, then ${JSON.stringify(next)})`,
      );
    }
    await page.waitForTimeout(16);
  }
}

const statusText = (page: Page): Promise<string> =>
  page.evaluate(() => document.querySelector('punto-banco-table')?.shadowRoot?.querySelector('[part="status"]')?.textContent?.trim() ?? '');

test(
  'a shared table reloaded while its round waits for the beacon, and again in the next window, shows the open window and plays',
  { timeout: 300_000 },
  async () => {
    const tableId = `hall-1/reload-${Date.now().toString(36)}`;
    const w = await open(tableId);
    const { page } = w;
    await page.waitForFunction(() => document.querySelector('punto-banco-table')?.shadowRoot?.querySelector('.shared-clock.open'), null, { timeout: 120_000 });
    // A fresh window (time to bet in it), a bet of €2 on Banker, placed.
    await page.waitForFunction(
      () => Number(document.querySelector('punto-banco-table')?.shadowRoot?.querySelector<HTMLElement>('.shared-clock.open')?.dataset['left'] ?? 0) >= 10,
      null,
      { timeout: 60_000, polling: 100 },
    );
    await page.getByRole('button', { name: 'Chip €1.00', exact: true }).click();
    for (let i = 0; i < 2; i++)
      await page
        .getByRole('button', { name: /^Banker, sector 1/ })
        .first()
        .click();
    await page.getByRole('button', { name: 'Place bet', exact: true }).click();
    await page.waitForFunction(
      () => /is in/.test(document.querySelector('punto-banco-table')?.shadowRoot?.querySelector('[part="status"]')?.textContent ?? ''),
      null,
      {
        timeout: 30_000,
      },
    );

    // The close: the round waits for its beacon. Reload now, before the deal.
    const closed = await message(w, 'close', 0, 'the close');
    assert.equal(
      w.messages.slice(closed).some((m) => m.type === 'deal'),
      false,
      'still waiting for the beacon when the page reloads',
    );
    const before1 = w.messages.length;
    await page.reload();
    // The reloaded page draws the round dealt with its own bet (the deal, or the state's last deal
    // when it came while the page was loading), then shows the next window.
    await showsOpenWindow(w, before1, 'reloaded while waiting for the beacon');
    await page.screenshot({ path: `${SHOTS}/shared-reload-1-after-beacon-wait.png`, fullPage: true });

    // Reload again in that window: it shows at once, with its seconds.
    const before2 = w.messages.length;
    await page.reload();
    await showsOpenWindow(w, before2, 'reloaded during a betting window');
    await page.screenshot({ path: `${SHOTS}/shared-reload-2-in-window.png`, fullPage: true });
    assert.deepEqual(w.errors, []);
  },
);
