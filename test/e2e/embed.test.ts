/**
 * Embedding on other sites, end to end: the built widget and the real Worker (`wrangler dev`, its
 * own instance with an EMBED_ORIGINS that names the host port), host pages from a node:http server,
 * Debian's Chromium driven by Playwright. Chromium resolves every *.test name to 127.0.0.1, so
 * http://acme.test:PORT and http://rogue.test:PORT are two distinct origins that DEV's loopback rule
 * does not cover. Only acme.test is allowed, for affiliate "acme".
 *
 * - rogue.test, script tag: the table shows the Worker's refusal, and no session is made;
 * - acme.test, script tag, under a strict host CSP: one round on Player, the receipt names acme,
 *   no CSP violation, and a report-only `default-src 'none'` shows the widget reaches nothing but
 *   the Worker's scripts and API;
 * - the iframe (`/embed`): acme.test shows the table and plays; rogue.test is refused by frame-ancestors;
 * - the iframe with the helper (`/embed.js`): the host page hears the framed table's events and the
 *   iframe takes the table's height.
 * Screenshots go to test-results/e2e/embed-*.png (look at them).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { Browser, Frame, Page } from 'playwright-core';
import { launchChromium } from './browser.ts';
import type { Receipt, Signed } from '../../shared/index.ts';
import { freePort, type RunningServer, startServer } from './server.ts';

const SHOTS = 'test-results/e2e';
mkdirSync(SHOTS, { recursive: true });
const ADMIN_TOKEN = 'e2e-admin-token-not-secret';

let browser: Browser;
let hostServer: Server;
let worker: RunningServer;
let HOST_PORT: number;
let WORKER: string;
const acme = () => `http://acme.test:${HOST_PORT}`;
const rogue = () => `http://rogue.test:${HOST_PORT}`;

/**
 * What a strict host page sets for the script tag: the Worker's scripts (the loader and its lazy
 * chunks) and API, the host's own styles and images; no 'unsafe-inline', no 'unsafe-eval'.
 */
const widgetCsp = () => `default-src 'self'; script-src 'self' ${WORKER}; connect-src ${WORKER}; style-src 'self'; img-src 'self' data: blob:`;
/** The least the widget could live with, report-only: every report is something beyond script and connect. */
const probeCsp = () => `default-src 'none'; script-src ${WORKER}; connect-src ${WORKER}`;
/** What a strict host page sets for the iframe: the frame from the Worker, nothing else from it. */
const frameCsp = () => `default-src 'self'; frame-src ${WORKER}; style-src 'self'; img-src 'self' data: blob:`;

const HOST_CSS = `body { margin: 0; padding: 16px 24px; font: 15px system-ui, sans-serif; background: #f3efe6; color: #222; }
h1 { margin: 0 0 12px; font-size: 20px; }
punto-banco-table { display: block; max-width: 900px; }
iframe { display: block; width: 900px; height: 700px; border: 1px solid #bbb; }
iframe.sized { width: 800px; height: 150px; border: 0; }
`;

function page(title: string, head: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${title}</title>
<link rel="stylesheet" href="/host.css">
${head}
</head>
<body>
<h1>${title}</h1>
${body}
</body>
</html>
`;
}

/** A partner site: `/widget.html` (the script tag), `/frame.html` (the iframe), `/host.css`; the same on every host name. */
function startHost(port: number): Promise<Server> {
  const server = createServer((req, res) => {
    const host = req.headers.host ?? '';
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/host.css') {
      res.writeHead(200, { 'Content-Type': 'text/css' }).end(HOST_CSS);
    } else if (path === '/widget.html') {
      res.writeHead(200, {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': widgetCsp(),
        'Content-Security-Policy-Report-Only': probeCsp(),
      });
      // No endpoint: the table talks to the Worker that served the script.
      res.end(
        page(
          `${host}: a partner site`,
          `<script type="module" src="${WORKER}/punto-banco-table.js"></script>`,
          '<punto-banco-table affiliate="acme"></punto-banco-table>',
        ),
      );
    } else if (path === '/frame.html') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': frameCsp() });
      res.end(
        page(`${host}: a partner site with the iframe`, '', `<iframe src="${WORKER}/embed?affiliate=acme&amp;room=hall-1" title="Punto Banco"></iframe>`),
      );
    } else if (path === '/frame-helper.html') {
      // The helper from the Worker: the only script the host page needs for a talking iframe.
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': `${frameCsp()}; script-src 'self' ${WORKER}` });
      res.end(
        page(
          `${host}: a partner site with the iframe and its helper`,
          `<script src="${WORKER}/embed.js" async></script>`,
          `<iframe class="sized" src="${WORKER}/embed?affiliate=acme&amp;room=hall-1" title="Punto Banco"></iframe>`,
        ),
      );
    } else {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
    }
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

before(async () => {
  // The host port first: the Worker's EMBED_ORIGINS must name it.
  HOST_PORT = await freePort();
  hostServer = await startHost(HOST_PORT);
  // A short ledger delay (default 30 s): the report is checked within seconds of each round.
  worker = await startServer({ vars: { EMBED_ORIGINS: JSON.stringify({ '*': [], acme: [acme()] }), ADMIN_TOKEN, LEDGER_DELAY_MS: '200' } });
  WORKER = worker.url;
  browser = await launchChromium(['--host-resolver-rules=MAP *.test 127.0.0.1']);
});
after(async () => {
  await browser?.close();
  await worker?.stop();
  await new Promise((r) => (hostServer ? hostServer.close(r) : r(null)));
});

interface Violation {
  disposition: string;
  directive: string;
  blocked: string;
  where: string;
}
interface Watched {
  violations: Violation[];
  events: Array<{ type: string; detail: any }>;
}

/**
 * A page whose every frame records CSP violations (enforced and report-only) and the table's
 * events from the start. An init script is the browser's, not the page's: the CSP does not apply.
 */
async function watchedPage(): Promise<{ page: Page; messages: string[]; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
  await page.addInitScript(() => {
    const w = window as unknown as Watched;
    w.violations = [];
    w.events = [];
    document.addEventListener(
      'securitypolicyviolation',
      (e) =>
        w.violations.push({ disposition: e.disposition, directive: e.effectiveDirective, blocked: e.blockedURI, where: `${e.sourceFile}:${e.lineNumber}` }),
      true,
    );
    for (const type of ['pb-ready', 'pb-error', 'pb-round-settled'])
      document.addEventListener(type, (e) => w.events.push({ type, detail: (e as CustomEvent).detail }));
  });
  const messages: string[] = [];
  const errors: string[] = [];
  page.on('console', (m) => messages.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => errors.push(String(e)));
  return { page, messages, errors };
}

async function watched(where: Page | Frame): Promise<Watched> {
  return where.evaluate(() => {
    const w = window as unknown as Watched;
    return { violations: w.violations, events: w.events };
  });
}

/** The operator report's session count, of every affiliate. */
async function ledgerSessions(): Promise<number> {
  const res = await fetch(`${WORKER}/api/admin/affiliates`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
  assert.equal(res.status, 200);
  return ((await res.json()) as { total: { sessions: number } }).total.sessions;
}

/** The operator report's figures for affiliate "acme" attributed `by` (rounds reach it within a second or so). */
async function acmeRounds(by: 'signed' | 'origin' | 'claimed'): Promise<number> {
  const res = await fetch(`${WORKER}/api/admin/affiliates`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
  assert.equal(res.status, 200);
  const report = (await res.json()) as { affiliates: { affiliate: string | null; attribution: Record<string, { rounds: number }> }[] };
  return report.affiliates.find((a) => a.affiliate === 'acme')?.attribution[by]?.rounds ?? 0;
}

/** Waits until the report shows `rounds` of acme's rounds attributed `by`. */
async function reportShows(by: 'signed' | 'origin' | 'claimed', rounds: number): Promise<void> {
  for (let i = 0; i < 100 && (await acmeRounds(by)) < rounds; i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal(await acmeRounds(by), rounds, `the report counts ${rounds} of acme's rounds as attributed by ${by}`);
}

/** Waits for the table in `where` to be ready (Player box up, loader gone). */
async function tableReady(where: Page | Frame, shot: Page, name: string): Promise<void> {
  try {
    // The first session of a fresh Worker creates its signing key: allow a slow, loaded machine.
    await where.getByRole('button', { name: /^Player, sector 1/ }).waitFor({ timeout: 120_000 });
    await where.waitForFunction(() => !document.querySelector('punto-banco-table')?.shadowRoot?.querySelector('[part~="loader"]'), null, { timeout: 60_000 });
  } catch (err) {
    await shot.screenshot({ path: `${SHOTS}/${name}-never-ready.png` });
    throw err;
  }
}

/** Bets the table minimum on Player of sector 1 by real clicks, deals, and returns the receipt. */
async function playOnPlayer(where: Page | Frame): Promise<Signed<Receipt>> {
  await where.getByRole('button', { name: /^Player, sector 1/ }).click();
  await where.getByRole('button', { name: /^Player, sector 1, bet/ }).waitFor({ timeout: 10_000 });
  await where.getByRole('button', { name: 'Deal', exact: true }).click();
  await where.waitForFunction(() => (window as unknown as Watched).events.some((e) => e.type === 'pb-round-settled'), null, { timeout: 60_000 });
  return (await watched(where)).events.find((e) => e.type === 'pb-round-settled')!.detail;
}

// First, while the Worker has no session at all: the operator report can then show that none was made.
test("a site not allowed for the affiliate: the table shows the Worker's refusal, and no session is made", async () => {
  const { page, errors } = await watchedPage();
  const created: number[] = [];
  page.on('response', (r) => {
    if (new URL(r.url()).pathname === '/api/sessions' && r.request().method() === 'POST') created.push(r.status());
  });
  await page.goto(`${rogue()}/widget.html`);
  const expected = `This table may not be embedded on ${rogue()}: ask the operator to allow it for affiliate "acme".`;
  const notice = page.locator('punto-banco-table [part~="notice"]');
  try {
    await notice.waitFor({ timeout: 60_000 });
    await page.waitForFunction(
      (m) => (document.querySelector('punto-banco-table')?.shadowRoot?.querySelector('[part~="notice"]')?.textContent ?? '').includes(m),
      expected,
      { timeout: 30_000 },
    );
  } finally {
    await page.screenshot({ path: `${SHOTS}/embed-1-rogue-widget.png` });
  }
  assert.equal(await notice.getAttribute('role'), 'alert');
  const seen = await watched(page);
  assert.deepEqual(
    seen.events.filter((e) => e.type === 'pb-error').map((e) => e.detail),
    [{ code: 'origin_not_allowed', message: expected }],
  );
  assert.equal(
    seen.events.some((e) => e.type === 'pb-ready'),
    false,
  );
  // The refused preflight stopped the creation in the browser: the Worker never answered one.
  assert.deepEqual(created, []);
  // And the Worker's own books agree (the ledger hears of a session within a fraction of a second).
  await new Promise((r) => setTimeout(r, 1_500));
  assert.equal(await ledgerSessions(), 0);
  assert.deepEqual(
    seen.violations.filter((v) => v.disposition === 'enforce'),
    [],
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test('an allowed site with a strict CSP: one script tag, one round on Player, counted for the affiliate as attributed by origin', async () => {
  const { page, errors } = await watchedPage();
  await page.goto(`${acme()}/widget.html`);
  await tableReady(page, page, 'embed-2-acme-widget');
  const receipt = await playOnPlayer(page);
  await page.waitForFunction(() => !document.querySelector('punto-banco-table')?.shadowRoot?.querySelector('[part~="notice"]'));
  await page.screenshot({ path: `${SHOTS}/embed-2-acme-widget.png` });
  // The bets and the affiliate are signed into the round's acceptance; the receipt pays them.
  assert.deepEqual(
    receipt.body.payouts.map((b) => [b.sector, b.box]),
    [[0, 'player']],
  );
  // A browser on a site listed for acme created the session: the report says so.
  await reportShows('origin', 1);
  const seen = await watched(page);
  assert.deepEqual(
    seen.events.filter((e) => e.type === 'pb-error'),
    [],
  );
  assert.deepEqual(
    seen.violations.filter((v) => v.disposition === 'enforce'),
    [],
    'the strict host CSP is enough',
  );
  // The report-only `default-src 'none'` names only the host's own stylesheet and icon: the widget
  // needs nothing but script-src and connect-src for the Worker (no styles, images, fonts, workers).
  const beyond = seen.violations.filter((v) => v.disposition === 'report' && !v.blocked.startsWith(`${acme()}/`));
  assert.deepEqual(beyond, [], 'the widget reaches nothing beyond its scripts and its API');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the iframe: the allowed site shows the table and plays; another site is refused by frame-ancestors', async () => {
  const frameOf = (page: Page) => page.frames().find((f) => f !== page.mainFrame());

  const allowed = await watchedPage();
  await allowed.page.goto(`${acme()}/frame.html`);
  const frame = frameOf(allowed.page);
  assert.ok(frame, 'the page has its iframe');
  await tableReady(frame, allowed.page, 'embed-3-acme-iframe');
  assert.equal(new URL(frame.url()).origin, WORKER);
  const receipt = await playOnPlayer(frame);
  assert.deepEqual(
    receipt.body.payouts.map((b) => [b.sector, b.box]),
    [[0, 'player']],
  );
  // The iframe page is the Worker's own origin, which anyone can open unframed: only claimed.
  await reportShows('claimed', 1);
  await allowed.page.screenshot({ path: `${SHOTS}/embed-3-acme-iframe.png` });
  // Neither the host's CSP nor the frame's own (a hashed style, no inline script) is violated.
  assert.deepEqual((await watched(allowed.page)).violations, []);
  assert.deepEqual((await watched(frame)).violations, []);
  assert.deepEqual(allowed.errors, []);
  await allowed.page.close();

  const refused = await watchedPage();
  const loaders: string[] = [];
  refused.page.on('request', (r) => {
    if (r.url().startsWith(`${WORKER}/`)) loaders.push(new URL(r.url()).pathname);
  });
  await refused.page.goto(`${rogue()}/frame.html`);
  const isRefusal = (text: string) => text.includes('frame-ancestors') && /Refused to frame|Framing .* violates/.test(text);
  // The refusal is logged while the page loads (often before goto returns); then let anything that would load, load.
  for (let waited = 0; waited < 30_000 && !refused.messages.some(isRefusal); waited += 100) await refused.page.waitForTimeout(100);
  await refused.page.waitForTimeout(2_000);
  await refused.page.screenshot({ path: `${SHOTS}/embed-3-rogue-iframe.png` });
  const blocked = frameOf(refused.page);
  assert.ok(blocked, 'the page has its iframe');
  assert.match(blocked.url(), /^chrome-error:/, "the frame shows the browser's error page, not the table");
  assert.equal(await blocked.locator('punto-banco-table').count(), 0);
  // The browser fetched the frame's document, read its frame-ancestors, and stopped there.
  assert.deepEqual(loaders, ['/embed']);
  // Chromium says "Framing '<worker>/' violates … frame-ancestors …" (older ones: "Refused to frame").
  const refusal = refused.messages.find(isRefusal);
  assert.ok(refusal, `a frame-ancestors refusal in the console; it said ${JSON.stringify(refused.messages)}`);
  assert.ok(refusal.includes(`frame-ancestors http://localhost:* http://127.0.0.1:* ${acme()}`), refusal);
  assert.deepEqual(refused.errors, []);
  await refused.page.close();
});

test('the iframe with its helper: the host page receives pb-round-settled from the frame on the other origin, and the iframe takes the table height', async () => {
  const { page, errors } = await watchedPage();
  await page.goto(`${acme()}/frame-helper.html`);
  const frame = page.frames().find((f) => f !== page.mainFrame());
  assert.ok(frame, 'the page has its iframe');
  assert.equal(new URL(frame.url()).origin, WORKER);
  assert.notEqual(new URL(page.url()).origin, WORKER);
  await tableReady(frame, page, 'embed-4-acme-helper');
  // The host heard pb-ready on its own document (re-dispatched on the iframe element, bubbling).
  await page.waitForFunction(() => (window as unknown as Watched).events.some((e) => e.type === 'pb-ready'), null, { timeout: 30_000 });
  // The iframe was 150px tall: the helper gave it the table's height (a 16:10 felt of 800px and the bar).
  const sized = async () => page.evaluate(() => document.querySelector('iframe')!.getBoundingClientRect().height);
  await page.waitForFunction(() => document.querySelector('iframe')!.getBoundingClientRect().height > 500, null, { timeout: 30_000 });
  const tableHeight = await frame.evaluate(() => Math.ceil(document.querySelector('punto-banco-table')!.getBoundingClientRect().height));
  assert.equal(Math.round(await sized()), tableHeight, 'the iframe is exactly as tall as the table');
  await page.evaluate(() =>
    document.addEventListener('pb-round-settled', (e) => ((window as unknown as { settledOn?: string }).settledOn = (e.target as Element).tagName)),
  );
  const receipt = await playOnPlayer(frame);
  // The same receipt reached the host page, across the origins, as a pb-round-settled on the iframe.
  await page.waitForFunction(() => (window as unknown as Watched).events.some((e) => e.type === 'pb-round-settled'), null, { timeout: 30_000 });
  const hostSeen = (await watched(page)).events.find((e) => e.type === 'pb-round-settled')!.detail as Signed<Receipt>;
  assert.deepEqual(hostSeen, receipt);
  // A round settles as a win, a loss or a tie: the receipt carries which, and the host has the same.
  assert.ok(['player', 'banker', 'tie'].includes(hostSeen.body.outcome));
  // …dispatched on the iframe element itself.
  assert.equal(await page.evaluate(() => (window as unknown as { settledOn?: string }).settledOn), 'IFRAME');
  await page.screenshot({ path: `${SHOTS}/embed-4-acme-helper.png`, fullPage: true });
  assert.deepEqual((await watched(page)).violations, []);
  assert.deepEqual((await watched(frame)).violations, []);
  assert.deepEqual(errors, []);
  await page.close();
});
