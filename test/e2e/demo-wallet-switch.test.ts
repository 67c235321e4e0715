/**
 * The demo page's development-only "real wallet" switch (demo/wallet-switch.ts), on the built demo
 * served from loopback by the local stand-in (test/widget/demo-server.ts) with the fake Worker in
 * wallet mode, which checks the launch's signature as the Worker does: switched on, the page signs
 * a launch as the development operator and the table plays that player's session in the chosen
 * currency; switched off, the table is back on play money. (The wallet's balance panel reads the
 * reference wallet; here it is not running, and the page says so.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { browserForFile, SHOTS } from './browser.ts';
import { startDemoServer } from '../widget/demo-server.ts';
import { WalletFake } from '../widget/wallet-fake.ts';

const browser = browserForFile();

type TableLike = { state?: string; wallet?: { currency: string } | null; shadowRoot: ShadowRoot } | null;

test('the real-wallet switch launches through the development operator and back to play money', async () => {
  const worker = new WalletFake();
  const server = await startDemoServer(path.resolve('dist'), worker);
  const page = await browser().newPage({ viewport: { width: 1280, height: 900 } });
  try {
    await page.goto(server.url);
    await page.waitForFunction(() => (document.getElementById('table') as unknown as TableLike)?.state === 'ready', null, { timeout: 60_000 });
    assert.equal(await page.isVisible('#wallet-switch'), true, 'shown on a loopback host');
    await page.selectOption('#wallet-currency', 'JPY');
    await page.check('#wallet-on');
    await page.waitForFunction(() => (document.getElementById('table') as unknown as TableLike)?.wallet?.currency === 'JPY', null, { timeout: 60_000 });
    const launches = worker.log.filter((r) => r.path === '/api/operator/launch');
    assert.equal(launches.length, 1);
    assert.equal(launches[0]!.headers['pb-operator'], 'demo');
    const balance = () =>
      page.evaluate(() => (document.getElementById('table') as unknown as TableLike)!.shadowRoot.querySelector('[part="balance"] output')!.textContent);
    assert.equal(await balance(), '¥100,000');
    await page.screenshot({ path: `${SHOTS}/demo-wallet-switch.png` });
    await page.uncheck('#wallet-on');
    await page.waitForFunction(
      () => {
        const t = document.getElementById('table') as unknown as TableLike;
        return t?.wallet === null && t.state === 'ready';
      },
      null,
      { timeout: 60_000 },
    );
    assert.equal(await balance(), '€1,000.00');
  } finally {
    await page.close();
    await server.close();
  }
});
