/**
 * An operator's player, end to end: the operator's back end signs a launch
 * (`POST /api/operator/launch`), the player's browser opens the ready `/embed?launch=…` URL, the
 * element redeems the token for a wallet-mode session and plays rounds by real clicks, in EUR, JPY
 * and BHD; the reference wallet (cli/wallet/) is the operator's wallet. After each round the
 * balance the table shows is the wallet's, in the currency's own digits (`formatMoney`), and the
 * wallet's ledger holds the round's debit and credit under the ids the signed records name. A launch
 * token used twice is refused, and the element says so.
 *
 * This file starts its own Worker and wallet (the operator's settings name a wallet port known only
 * now), whatever PB_ENDPOINT says.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import type { LaunchAnswer } from '../../shared/api.ts';
import type { Receipt, Signed } from '../../shared/index.ts';
import { formatMoney } from '../../shared/wallet/currency.ts';
import { signLaunchRequest } from '../../shared/wallet/launch.ts';
import type { PlayerView } from '../../cli/wallet/ledger.ts';
import { browserForFile, SHOTS } from './browser.ts';
import { freePort, type RunningServer, startServer, stopGroup } from './server.ts';

const SECRET = 'e2e-operator-secret';
const browser = browserForFile();
let server: RunningServer;
let wallet: ChildProcess;
let walletUrl: string;

before(async () => {
  const port = await freePort();
  walletUrl = `http://127.0.0.1:${port}`;
  wallet = spawn('npx', ['node', 'cli/punto-banco.js', 'wallet', '--port', String(port), '--secret', SECRET, '--starting-balance', '500000'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  wallet.stdout?.on('data', (d) => (out += d));
  for (let i = 0; i < 300 && !out.includes('wallet listening on'); i++) await new Promise((r) => setTimeout(r, 100));
  assert.ok(out.includes('wallet listening on'), 'the reference wallet did not start');
  server = await startServer({
    vars: {
      OPERATOR_SETTINGS: JSON.stringify([{ id: 'e2e', walletUrl, currencies: { EUR: 'default', JPY: 'default', BHD: 'default' } }]),
      OPERATOR_SECRETS: JSON.stringify({ e2e: { provider: SECRET, operator: SECRET } }),
    },
  });
});

after(async () => {
  await server?.stop();
  if (wallet) await stopGroup(wallet);
});

async function launch(playerId: string, currency: string): Promise<LaunchAnswer> {
  const body = { playerId, currency, lang: 'en' as const, room: 'hall-1' as const, limits: {}, returnUrl: 'http://127.0.0.1/casino' };
  const signed = await signLaunchRequest('e2e', SECRET, body, Date.now(), crypto.randomUUID().replaceAll('-', ''));
  const res = await fetch(`${server.url}/api/operator/launch`, { method: 'POST', headers: signed.headers, body: signed.body });
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()) as LaunchAnswer;
}

async function ledger(playerId: string): Promise<PlayerView> {
  return (await (await fetch(`${walletUrl}/players/${playerId}`)).json()) as PlayerView;
}

for (const currency of ['EUR', 'JPY', 'BHD']) {
  test(`a launched player plays three rounds in ${currency}, the wallet's balance on the table`, async () => {
    const playerId = `e2e-${currency.toLowerCase()}`;
    const { url } = await launch(playerId, currency);
    assert.match(url, /\/embed\?launch=/);
    const page = await browser().newPage({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(url.replace(/^https?:\/\/[^/]+/, server.url));
    await page.evaluate(() => {
      const w = window as unknown as { settled: unknown[]; accepted: unknown[] };
      w.settled = [];
      const table = document.querySelector('punto-banco-table')!;
      table.addEventListener('pb-round-settled', (e) => w.settled.push((e as CustomEvent).detail));
    });
    const player1 = page.getByRole('button', { name: /^Player, sector 1/ });
    await player1.waitFor({ timeout: 120_000 });
    const start = await ledger(playerId);
    assert.equal(start.currency, currency);
    await page.waitForFunction(
      (text) => (document.querySelector('punto-banco-table')?.shadowRoot?.querySelector('[part~="balance"]')?.textContent ?? '').includes(text),
      formatMoney(start.balance, currency, 'en'),
      { timeout: 30_000 },
    );
    for (let round = 1; round <= 3; round++) {
      if (round === 1) await player1.click();
      else await page.getByRole('button', { name: 'Repeat', exact: true }).click();
      await page.getByRole('button', { name: 'Deal', exact: true }).click();
      await page.waitForFunction((n) => (window as unknown as { settled: unknown[] }).settled.length >= n, round, { timeout: 60_000 });
      const receipt = (await page.evaluate(() => (window as unknown as { settled: Signed<Receipt>[] }).settled))[round - 1]!;
      // A tie returns a Player bet (push): the credit is the stake; a loss, a zero credit.
      const credit = receipt.body.credit!;
      assert.equal(credit.amount, receipt.body.returned);
      // The credit leaves through the outbox: wait until the wallet has it, then the table shows the wallet's balance.
      let view = await ledger(playerId);
      for (let i = 0; i < 100 && !view.transactions.some((t) => t.id === credit.transaction && t.state === 'applied'); i++) {
        await new Promise((r) => setTimeout(r, 100));
        view = await ledger(playerId);
      }
      assert.ok(
        view.transactions.some((t) => t.id === credit.transaction && t.state === 'applied'),
        `the wallet lacks credit ${credit.transaction}`,
      );
      await page.waitForFunction(
        (text) => (document.querySelector('punto-banco-table')?.shadowRoot?.querySelector('[part~="balance"]')?.textContent ?? '').includes(text),
        formatMoney(view.balance, currency, 'en'),
        { timeout: 30_000 },
      );
    }
    const end = await ledger(playerId);
    const transcript = (await page.evaluate(() => (window as unknown as { settled: Signed<Receipt>[] }).settled)).map((r) => r.body);
    const house = transcript.reduce((s, r) => s + r.staked - r.returned, 0);
    assert.equal(start.balance - end.balance, house, 'the wallet moved by the house result of the three receipts');
    assert.equal(end.transactions.filter((t) => t.kind === 'debit' && t.state === 'applied').length, 3);
    await page.screenshot({ path: `${SHOTS}/wallet-${currency}.png` });
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('a launch token used twice is refused, and the element says so', async () => {
  const { token, url } = await launch('e2e-twice', 'EUR');
  const first = await fetch(`${server.url}/api/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
    body: JSON.stringify({ launchToken: token, playerKey: 'A'.repeat(42) + 'A' }),
  });
  assert.ok(first.status === 201 || first.status === 400, `first redemption: ${first.status}`);
  const page = await browser().newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 });
  await page.goto(url.replace(/^https?:\/\/[^/]+/, server.url));
  await page.waitForFunction(() => /used|already/i.test(document.querySelector('punto-banco-table')?.shadowRoot?.textContent ?? ''), null, { timeout: 60_000 });
  await page.screenshot({ path: `${SHOTS}/wallet-token-used.png` });
  await page.close();
});
