/**
 * Shared tables in wallet mode, end to end (WALLET.md §12): three launched players (EUR, JPY, BHD)
 * bet at one shared table for some rounds, against the product started as `npm start` does, while
 * the reference wallet fails 10% of calls with a 5xx, applies and never answers another 10%,
 * answers 10% as duplicates and takes 20–300 ms for each. Every round each player bets on Player
 * or Banker and on Tie, so ties come too. After the outbox drains, for every player:
 * - the session's transcript (its transfer records, each with its wallet call) verifies;
 * - nothing is pending, in the session's view or in the operator's transaction list;
 * - the wallet's ledger reconciles (no transaction id twice, the balance is its transactions);
 * - every debit the records hold stands in the wallet (rolled back when refunded), every credit is
 *   paid, and no other debit stands (each refused or unknown one rolled back);
 * - stakes debited − rollbacks − credits = the house's result of the player's signed settlements.
 *
 * This file starts its own servers (it stops them), whatever PB_ENDPOINT says.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSigningKey, type Jwks, playerKeyOf, type Signed, type Transfer, verifyText } from '../../shared/index.ts';
import { sharedBetRequest, sharedStartRequest, signSharedRequest } from '../../shared/fairness/pb-shared-1/index.ts';
import type { CreatedSession, LaunchAnswer, SessionView } from '../../shared/api.ts';
import { signLaunchRequest } from '../../shared/wallet/launch.ts';
import { signWalletMessage } from '../../shared/wallet/sign.ts';
import type { WalletCallRow } from '../../worker/wallet/calls-view.ts';
import { reconcileLedger } from '../../cli/wallet/reconcile.ts';
import type { PlayerView } from '../../cli/wallet/ledger.ts';
import { freePort, startServer, stopGroup } from './server.ts';
import { call, until } from './shared-players.ts';

const ROUNDS = Number(process.env.PB_WALLET_SHARED_ROUNDS ?? 8);
const SECRET = 'shared-operator-secret';
const STARTING_BALANCE = 1_000_000;
const TABLE = 'hall-1/wallet-shared.fast';
/** Hall 1's shared stakes (100–10,000) read in each currency's minor units: limits that take them. */
const HALL_1 = { min: 100, max: 10_000, step: 100, chips: [100, 500, 1_000, 2_000, 5_000, 10_000] };
const PLAYERS = [
  { playerId: 'shared-eur', currency: 'EUR', lang: 'en' },
  { playerId: 'shared-jpy', currency: 'JPY', lang: 'el' },
  { playerId: 'shared-bhd', currency: 'BHD', lang: 'ru' },
] as const;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function startWallet(port: number, db: string): Promise<ChildProcess> {
  const args = ['node', 'cli/punto-banco.js', 'wallet', '--port', String(port), '--secret', SECRET, '--db', db];
  args.push('--starting-balance', String(STARTING_BALANCE), '--fail-rate', '0.1', '--timeout-rate', '0.1', '--duplicate-rate', '0.1');
  args.push('--latency-ms', '20..300', '--seed', '9');
  const child = spawn('npx', args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  for (let i = 0; i < 300 && !out.includes('wallet listening on'); i++) await sleep(100);
  assert.ok(out.includes('wallet listening on'), `the wallet did not start: ${out}`);
  return child;
}

test(`shared table in wallet mode: ${PLAYERS.length} launched players × ${ROUNDS} rounds, a faulty wallet`, { timeout: 240_000 }, async () => {
  const began = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'pb-wallet-shared-'));
  const walletPort = await freePort();
  const wallet = await startWallet(walletPort, join(dir, 'wallet.sqlite'));
  const walletUrl = `http://127.0.0.1:${walletPort}`;
  const vars = {
    OPERATOR_SETTINGS: JSON.stringify([
      { id: 'shared', walletUrl, timeoutMs: 800, currencies: { EUR: { 'hall-1': HALL_1 }, JPY: { 'hall-1': HALL_1 }, BHD: 'default' } },
    ]),
    OPERATOR_SECRETS: JSON.stringify({ shared: { provider: SECRET, operator: SECRET } }),
    SHARED_WINDOW_MS: '4500',
    RATE_SESSION_BURST: '100000',
    RATE_SESSION_PER_SEC: '100000',
  };
  const server = await startServer({ persistTo: join(dir, 'worker'), vars });
  try {
    // Launch, open the session (a balance the wallet did not answer is asked again), sit down.
    const seats = await Promise.all(
      PLAYERS.map(async (p) => {
        const key = (await generateSigningKey('player')).key;
        const launch = { playerId: p.playerId, currency: p.currency, lang: p.lang, room: 'hall-1' as const, limits: {}, returnUrl: 'http://127.0.0.1/casino' };
        const signed = await signLaunchRequest('shared', SECRET, launch, Date.now(), crypto.randomUUID().replaceAll('-', ''));
        const launched = await fetch(`${server.url}/api/operator/launch`, { method: 'POST', headers: signed.headers, body: signed.body });
        assert.equal(launched.status, 201, await launched.clone().text());
        const { token: launchToken } = (await launched.json()) as LaunchAnswer;
        const created = await until(`${p.playerId}'s session`, async () => {
          const r = await call(server, 'POST', '/api/sessions', { launchToken, playerKey: playerKeyOf(key) });
          return r.status === 201 ? (r.body as CreatedSession) : r.status === 503 ? null : assert.fail(`${p.playerId}: ${r.text}`);
        });
        const ticket = await call(server, 'POST', `/api/tables/${TABLE}/ticket`, {}, created.token);
        assert.equal(ticket.status, 200, ticket.text);
        const ws = new WebSocket(`${server.url.replace('http', 'ws')}/api/tables/${TABLE}/ws?ticket=${encodeURIComponent(ticket.body.ticket)}`);
        const messages: any[] = [];
        ws.addEventListener('message', (e) => messages.push(JSON.parse(String(e.data))));
        await new Promise((resolve, reject) => {
          ws.addEventListener('open', resolve, { once: true });
          ws.addEventListener('error', reject, { once: true });
        });
        return { ...p, key, player: playerKeyOf(key), id: created.sessionId, token: created.token, ws, messages };
      }),
    );
    const hello = await until('the state', async () => seats[0]!.messages.find((m) => m.type === 'state'));
    for (const [i, s] of seats.entries()) {
      const request = await signSharedRequest(sharedStartRequest(hello.shoe.commitment, s.player, `wallet seed ${i}`, 7 + i * 13), s.key);
      s.ws.send(JSON.stringify({ v: 1, type: 'start', request }));
    }
    await Promise.all(seats.map((s) => until('start-ack', async () => s.messages.find((m) => m.type === 'start-ack'))));

    const refused = new Map<string, number>();
    let round = 0;
    let lastOpen = -1;
    for (let n = 0; n < ROUNDS; n++) {
      const open = await until('a window', async () => seats[0]!.messages.find((m) => m.type === 'open' && m.shoe * 10_000 + m.round > lastOpen), 90_000);
      lastOpen = open.shoe * 10_000 + open.round;
      round++;
      for (const [i, s] of seats.entries()) {
        const bets = [
          { sector: i, box: (n + i) % 2 ? ('player' as const) : ('banker' as const), amount: 100 * (1 + ((n + i) % 5)) },
          { sector: (i + 1) % 5, box: 'tie' as const, amount: 100 },
        ];
        const request = await signSharedRequest(sharedBetRequest(TABLE, open.shoe, open.round, s.player, bets), s.key);
        s.ws.send(JSON.stringify({ v: 1, type: 'bet', request }));
      }
      // Each bet's answer: acknowledged, or refused with the wallet's code (its debit refused, or unknown and rolled back).
      for (const s of seats) {
        const answer = await until('a bet answer', async () =>
          s.messages.find((m) => (m.type === 'bet-ack' || m.type === 'bet-refused') && m.round === open.round && m.shoe === open.shoe),
        );
        if (answer.type === 'bet-refused') {
          assert.ok(['wallet_unavailable', 'insufficient_funds', 'betting_closed'].includes(answer.code), `unexpected refusal ${answer.code}`);
          refused.set(answer.code, (refused.get(answer.code) ?? 0) + 1);
        }
      }
    }
    // The last round's deal (or void) reaches everyone.
    await until(
      'the last round settled',
      async () => seats[0]!.messages.find((m) => (m.type === 'deal' || m.type === 'void') && m.shoe * 10_000 + m.round >= lastOpen),
      90_000,
    );
    for (const s of seats) s.ws.close();

    const jwks = (await call(server, 'GET', '/.well-known/jwks.json')).body as Jwks;
    let transactions = 0;
    for (const s of seats) {
      const settlements = s.messages.filter((m) => m.type === 'settlement').map((m) => m.settlement.body);
      // Every accepted bet is closed in the records (its credit, 0 for a loss, or its refund) and the outbox is empty.
      const records = await until(
        `${s.playerId}: every bet closed, nothing pending`,
        async () => {
          const view = (await call(server, 'GET', `/api/sessions/${s.id}`, undefined, s.token)).body as SessionView;
          const t = await call(server, 'GET', `/api/sessions/${s.id}/transcript`, undefined, s.token);
          const transfers = (t.body.records as Signed[]).filter((r) => r.body.type === 'transfer').map((r) => r.body as Transfer);
          const debits = transfers.filter((x) => x.kind === 'debit');
          const closed = debits.every((d) => transfers.some((x) => x.kind !== 'debit' && x.sharedShoe === d.sharedShoe && x.sharedRound === d.sharedRound));
          return closed && debits.length >= settlements.length && view.wallet!.pendingPayments.length === 0 ? (t.body as { records: Signed[] }) : null;
        },
        90_000,
      );
      const report = await verifyText(JSON.stringify(records), jwks);
      assert.ok(report.ok, `${s.playerId}: the transcript does not verify: ${JSON.stringify(report).slice(0, 600)}`);
      const transfers = records.records.filter((r) => r.body.type === 'transfer').map((r) => r.body as Transfer);
      const ledger = (await (await fetch(`${walletUrl}/players/${s.playerId}`)).json()) as PlayerView;
      const reconciled = reconcileLedger(ledger, STARTING_BALANCE);
      assert.ok(reconciled.ok, `${s.playerId}: ${reconciled.problems.join('; ')}`);
      assert.equal(ledger.currency, s.currency);
      assert.equal(new Set(ledger.transactions.map((t) => t.id)).size, ledger.transactions.length, `${s.playerId}: a transaction id twice`);
      const byId = new Map(ledger.transactions.map((t) => [t.id, t]));
      const refunded = new Set(transfers.filter((t) => t.kind === 'refund').map((t) => `${t.sharedShoe}/${t.sharedRound}`));
      let debited = 0;
      let credited = 0;
      let rolledBack = 0;
      for (const t of transfers) {
        const member = t.debit ?? t.credit ?? t.rollback!;
        const held = byId.get(member.transaction);
        assert.equal(held?.amount, t.amount, `${s.playerId}: the ${t.kind} ${member.transaction}`);
        if (t.kind === 'debit') {
          assert.equal(held?.state, refunded.has(`${t.sharedShoe}/${t.sharedRound}`) ? 'rolled_back' : 'applied', `${s.playerId}: debit ${member.transaction}`);
          debited += t.amount;
        } else {
          assert.equal(held?.state, 'applied', `${s.playerId}: ${t.kind} ${member.transaction}`);
          if (t.kind === 'credit') credited += t.amount;
          else rolledBack += t.amount;
        }
      }
      const accepted = new Set(transfers.flatMap((t) => (t.debit ? [t.debit.transaction] : [])));
      const standing = ledger.transactions.filter((t) => t.kind === 'debit' && t.state === 'applied' && !accepted.has(t.id));
      assert.deepEqual(standing, [], `${s.playerId}: debits the records never took still stand`);
      const house = settlements.reduce((sum, x) => sum + x.staked - x.returned, 0);
      assert.equal(debited - rolledBack - credited, house, `${s.playerId}: stakes − rollbacks − credits is not the house's result`);
      assert.equal(
        STARTING_BALANCE - ledger.balance,
        house,
        `${s.playerId}: the wallet moved ${STARTING_BALANCE - ledger.balance}, the settlements say ${house}`,
      );
      const ties = s.messages.filter((m) => m.type === 'deal' && m.deal.body.outcome === 'tie').length;
      transactions += ledger.transactions.length;
      console.log(
        `# ${s.playerId}: ${settlements.length} settled bets (${ties} tie rounds), ${transfers.length} transfer records, house ${house} ${s.currency} minor units, wallet transactions ${ledger.transactions.length}`,
      );
    }
    const path = `/api/operator/transactions?from=${encodeURIComponent(new Date(began - 60_000).toISOString())}&to=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`;
    const headers = await signWalletMessage(SECRET, {
      direction: 'request',
      method: 'GET',
      path,
      timestamp: Math.floor(Date.now() / 1000),
      nonce: crypto.randomUUID().replaceAll('-', ''),
      body: '',
    });
    const listed = await fetch(`${server.url}${path}`, { headers: { ...headers, 'PB-Operator': 'shared' } });
    assert.equal(listed.status, 200, await listed.clone().text());
    const { transactions: calls } = (await listed.json()) as { transactions: WalletCallRow[] };
    assert.deepEqual(
      calls.filter((t) => t.state === 'pending'),
      [],
      'the operator still has wallet calls pending',
    );
    assert.ok(
      calls.some((c) => /\/0\/\d+$/.test(c.roundId)),
      'the operator lists the shared table calls',
    );
    console.log(
      `# ${round} rounds, ${transactions} wallet transactions, ${calls.length} calls listed, refused ${JSON.stringify(Object.fromEntries(refused))}, ${((Date.now() - began) / 1000).toFixed(1)} s`,
    );
  } finally {
    await server.stop();
    await stopGroup(wallet);
  }
});
