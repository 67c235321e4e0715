/**
 * The CDN's pinned versions, end to end (scripts/cdn-versions.ts, after `npm run build`): a page on
 * another origin pins `/v/<version>/punto-banco-table.js` with Subresource Integrity; then the next
 * build changes the loader (the latest one at `/punto-banco-table.js`) and runs the build's publish
 * step again for the same version. The pinned page still loads exactly what it pinned, its
 * integrity holds, its table opens a session; the latest path serves the change. A page whose
 * integrity is wrong gets no table at all (the browser refuses the script), so the check is real.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { browserForFile, ENDPOINT, SHOTS } from './browser.ts';
import { freePort } from './server.ts';
import { integrityOf, publishVersion, type PublishedVersion } from '../../scripts/cdn-versions.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = path.join(root, 'dist');
const LOADER = 'punto-banco-table.js';
const version = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
const browser = browserForFile();

let host: Server;
let HOST: string;
let pageIntegrity = '';

before(async () => {
  const port = await freePort();
  HOST = `http://127.0.0.1:${port}`; // DEV allows loopback origins; the Worker is another port: another origin
  host = createServer((req, res) => {
    const src = `${ENDPOINT}/v/${version}/${LOADER}`;
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>pinned</title>
<script type="module" src="${src}" integrity="${pageIntegrity}" crossorigin="anonymous"></script></head>
<body style="margin:0"><punto-banco-table room="hall-1" lang="en" style="display:block;width:900px"></punto-banco-table></body></html>`);
    void req;
  });
  await new Promise<void>((resolve) => host.listen(port, '127.0.0.1', resolve));
});
after(async () => {
  await new Promise((r) => host.close(r));
});

/** Opens the pinned page; resolves with the table's first event (`pb-ready` or `pb-error`), or null if no table was defined. */
async function openPinned(shot: string): Promise<{ event: string | null; errors: string[]; console: string[] }> {
  const page = await browser().newPage({ viewport: { width: 1000, height: 800 } });
  const errors: string[] = [];
  const messages: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => messages.push(m.text()));
  await page.addInitScript(() => {
    const w = window as unknown as { first?: string };
    for (const type of ['pb-ready', 'pb-error']) document.addEventListener(type, () => (w.first ??= type));
  });
  await page.goto(HOST);
  let event: string | null = null;
  try {
    await page.waitForFunction(() => (window as unknown as { first?: string }).first, null, { timeout: 60_000 });
    event = await page.evaluate(() => (window as unknown as { first?: string }).first ?? null);
  } catch {
    event = (await page.evaluate(() => customElements.get('punto-banco-table') !== undefined)) ? 'defined, no event' : null;
  }
  await page.screenshot({ path: `${SHOTS}/${shot}.png` });
  await page.close();
  return { event, errors, console: messages };
}

test('a page pinned to the current version with SRI loads after the next build changes the loader', async () => {
  const published = JSON.parse(readFileSync(path.join(dist, 'v', version, 'integrity.json'), 'utf8')) as PublishedVersion;
  assert.equal(published.loader, `/v/${version}/${LOADER}`);
  const served = await fetch(`${ENDPOINT}${published.loader}`);
  assert.equal(served.status, 200);
  assert.equal(served.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  assert.equal(served.headers.get('access-control-allow-origin'), '*');
  const pinnedBytes = new Uint8Array(await served.arrayBuffer());
  assert.equal(integrityOf(pinnedBytes), published.integrity);

  const latestFile = path.join(dist, LOADER);
  const original = readFileSync(latestFile);
  try {
    // The next build: the latest loader changes; the build publishes "its" version again.
    writeFileSync(latestFile, Buffer.concat([original, Buffer.from('\n// the next build\n')]));
    const again = await publishVersion(dist, version, LOADER);
    assert.equal(again.unchanged, false, 'the build saw its loader differ from the published one');
    assert.deepEqual(again.published, published, 'and kept the published version as it was');
    // The latest path serves the change (the dev server picks up dist/ as it changes).
    let latest = '';
    for (let i = 0; i < 50 && !latest.includes('the next build'); i++) {
      latest = await (await fetch(`${ENDPOINT}/${LOADER}`, { cache: 'no-store' })).text();
      if (!latest.includes('the next build')) await new Promise((r) => setTimeout(r, 200));
    }
    assert.ok(latest.includes('the next build'), 'the latest loader is the new build');
    assert.equal((await fetch(`${ENDPOINT}/${LOADER}`)).headers.get('cache-control'), 'public, max-age=300');

    // The pinned page: the same bytes, its integrity holds, the table opens a session.
    assert.deepEqual(new Uint8Array(await (await fetch(`${ENDPOINT}${published.loader}`)).arrayBuffer()), pinnedBytes);
    pageIntegrity = published.integrity;
    const pinned = await openPinned('cdn-pinned');
    assert.equal(pinned.event, 'pb-ready', `the pinned table opened a session; console: ${pinned.console.join(' | ')}`);
    assert.deepEqual(pinned.errors, []);

    // The check is real: a wrong integrity, and the browser runs no loader at all.
    pageIntegrity = integrityOf(new TextEncoder().encode('some other script'));
    const refused = await openPinned('cdn-pinned-wrong-integrity');
    assert.equal(refused.event, null, 'no table without the pinned bytes');
    assert.ok(
      refused.console.some((m) => /integrity/i.test(m)),
      `the browser says why: ${refused.console.join(' | ')}`,
    );
  } finally {
    writeFileSync(latestFile, original);
  }
});
