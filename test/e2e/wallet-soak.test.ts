/**
 * The wallet's fault soak (WALLET.md "Exactly once"): three launched players (EUR, JPY, BHD) play
 * PB_SOAK_ROUNDS rounds each (300 for the full soak; `npm test` runs 60) against the product started as `npm start` does, while
 * the reference wallet fails 10% of calls with a 5xx, applies and never answers another 10%,
 * answers 10% as duplicates and takes 20–400 ms for each; the Worker is killed with SIGKILL twice
 * mid-run and started again on the same state. After the outbox drains, for every player:
 * - the table's transcript verifies (pb-fair-2, wallet mode);
 * - nothing is pending, in the session's view or in the operator's transaction list;
 * - the wallet's ledger reconciles (no transaction id twice, the balance is its transactions);
 * - every debit the records accepted stands in the wallet, every credit the records owe is paid,
 *   every void's stake is back, and no other debit stands (each refused or unknown one rolled back);
 * - stakes debited − rollbacks − credits = the house's result of the verified transcript.
 *
 * This file starts its own servers (it kills them), whatever PB_ENDPOINT says.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Acceptance,
  betRequest,
  generateSigningKey,
  type Jwks,
  newClientSeed,
  newRoundSecret,
  playerKeyOf,
  type Receipt,
  secretRequest,
  type Signed,
  type SigningKey,
  signRequest,
  startRequest,
  verifyText,
  type Void,
} from '../../shared/index.ts';
import type { CreatedSession, LaunchAnswer, SessionView, ShoeView } from '../../shared/api.ts';
import { signLaunchRequest } from '../../shared/wallet/launch.ts';
import { signWalletMessage } from '../../shared/wallet/sign.ts';
import type { WalletCallRow } from '../../worker/wallet/calls-view.ts';
import { reconcileLedger } from '../../cli/wallet/reconcile.ts';
import type { PlayerView } from '../../cli/wallet/ledger.ts';
import { freePort, type RunningServer, startServer, stopGroup } from './server.ts';

/** 300 rounds a player is the full soak (PB_SOAK_ROUNDS=300); `npm test` runs 60 to keep CI short. */
const ROUNDS = Number(process.env.PB_SOAK_ROUNDS ?? 60);
/** For a diagnosis: PB_SOAK_CALM=1 runs without the wallet's faults and without the kills. */
const CALM = process.env.PB_SOAK_CALM === '1';
const SECRET = 'soak-operator-secret';
const STARTING_BALANCE = 1_000_000;
const PLAYERS = [
  { playerId: 'soak-eur', currency: 'EUR', lang: 'en' },
  { playerId: 'soak-jpy', currency: 'JPY', lang: 'it' },
  { playerId: 'soak-bhd', currency: 'BHD', lang: 'ru' },
] as const;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const bytes = (n: number) => crypto.getRandomValues(new Uint8Array(n));

/** The reference wallet, faulty, its ledger in a file so that it outlives nothing but itself. */
async function startWallet(port: number, db: string): Promise<ChildProcess> {
  const child = spawn(
    'npx',
    [
      'node',
      'cli/punto-banco.js',
      'wallet',
      '--port',
      String(port),
      '--secret',
      SECRET,
      '--db',
      db,
      '--starting-balance',
      String(STARTING_BALANCE),
      '--fail-rate',
      '0.1',
      '--timeout-rate',
      '0.1',
      '--duplicate-rate',
      '0.1',
      '--latency-ms',
      '20..400',
      '--seed',
      '18',
    ].filter((_, i, all) => !CALM || !['--fail-rate', '--timeout-rate', '--duplicate-rate', '--latency-ms'].some((f) => all[i] === f || all[i - 1] === f)),
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  for (let i = 0; i < 300 && !out.includes('wallet listening on'); i++) await sleep(100);
  assert.ok(out.includes('wallet listening on'), `the wallet did not start: ${out}`);
  return child;
}

/** The Worker we talk to now (it moves to a new port after each restart). */
let server: RunningServer;
let restarting: Promise<void> | null = null;

/** One API call, retried with the same Idempotency-Key while the Worker is down or restarting; answers the status and body. */
async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown, token?: string, key = crypto.randomUUID()): Promise<{ status: number; body: T }> {
  let lastProblem = '';
  for (let attempt = 0; attempt < 600; attempt++) {
    if (restarting) await restarting;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (method === 'POST') headers['idempotency-key'] = key;
    if (token) headers.authorization = `Bearer ${token}`;
    try {
      const res = await fetch(`${server.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const json = (await res.json()) as T & { error?: { code: string } };
      // A rate limit or a server failure that is not the wallet's: the same request again.
      if (res.status === 429 || (res.status >= 500 && json.error?.code !== 'wallet_unavailable')) {
        lastProblem = `${res.status} ${JSON.stringify(json)}`;
        await sleep(250);
        continue;
      }
      return { status: res.status, body: json };
    } catch (err) {
      lastProblem = String(err);
      await sleep(250);
    }
  }
  throw new Error(`${method} ${path}: no answer in 150 s (the last: ${lastProblem.slice(0, 500)})`);
}

interface Played {
  sessionId: string;
  token: string;
  playerId: string;
  currency: string;
  rounds: number;
  refused: Map<string, number>;
}

let roundsDone = 0;

async function play(p: (typeof PLAYERS)[number]): Promise<Played> {
  const key: SigningKey = (await generateSigningKey('player')).key;
  const launch = { playerId: p.playerId, currency: p.currency, lang: p.lang, room: 'hall-1' as const, limits: {}, returnUrl: 'http://127.0.0.1/casino' };
  const signed = await signLaunchRequest('soak', SECRET, launch, Date.now(), crypto.randomUUID().replaceAll('-', ''));
  const launched = await fetch(`${server.url}/api/operator/launch`, { method: 'POST', headers: signed.headers, body: signed.body });
  assert.equal(launched.status, 201, await launched.clone().text());
  const { token: launchToken } = (await launched.json()) as LaunchAnswer;
  // The session opens with the wallet's balance: a balance call the wallet did not answer is asked again, same request.
  const createKey = crypto.randomUUID();
  let created = await call<CreatedSession>('POST', '/api/sessions', { launchToken, playerKey: playerKeyOf(key) }, undefined, createKey);
  for (let i = 0; i < 20 && created.status === 503; i++) {
    created = await call<CreatedSession>('POST', '/api/sessions', { launchToken, playerKey: playerKeyOf(key) }, undefined, createKey);
  }
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const { sessionId, token, limits } = created.body;
  assert.equal(created.body.wallet?.currency, p.currency);
  const base = `/api/sessions/${sessionId}`;
  let shoe: ShoeView = created.body.shoe;
  let last: Signed = shoe.commitment;
  const refused = new Map<string, number>();
  const startShoe = async () => {
    const request = await signRequest(startRequest(shoe.commitment, newClientSeed(bytes), shoe.cutRange.min), key);
    const started = await call<{ shoe: ShoeView }>('POST', `${base}/shoe/start`, { request }, token);
    assert.equal(started.status, 200, JSON.stringify(started.body));
    shoe = started.body.shoe;
    last = shoe.start!;
  };
  await startShoe();
  let rounds = 0;
  while (rounds < ROUNDS) {
    // Every round a bet on each box in turn (a tie too), between the minimum and three steps above it.
    const box = (['player', 'banker', 'tie'] as const)[rounds % 3]!;
    const amount = limits.min + limits.step * (rounds % 4);
    const secret = newRoundSecret(bytes);
    const bet = await signRequest(betRequest(last, shoe.rounds + 1, [{ sector: 0, box, amount }], secret), key);
    const accepted = await call<{ acceptance: Signed<Acceptance>; error?: { code: string } }>('POST', `${base}/rounds`, { request: bet }, token);
    if (accepted.status !== 200) {
      // The wallet refused, or the debit's outcome was unknown (rolled back): the same bet, a new attempt.
      const code = accepted.body.error?.code ?? String(accepted.status);
      assert.ok(['wallet_unavailable', 'insufficient_funds'].includes(code), `unexpected refusal ${code}`);
      refused.set(code, (refused.get(code) ?? 0) + 1);
      continue;
    }
    const reveal = await signRequest(secretRequest(accepted.body.acceptance, secret), key);
    const settled = await call<{ receipt: Signed<Receipt>; reveal?: Signed; nextShoe?: ShoeView; shoe: { rounds: number } }>(
      'POST',
      `${base}/rounds/${accepted.body.acceptance.body.round}/secret`,
      { request: reveal },
      token,
    );
    if (settled.status !== 200) {
      // Only a round voided meanwhile may refuse its secret: the next bet follows the void.
      const code = (settled.body as { error?: { code: string } }).error?.code;
      assert.equal(code, 'round_voided', JSON.stringify(settled.body));
      const state = await call<SessionView>('GET', base, undefined, token);
      last = state.body.head;
      shoe = state.body.shoe;
      continue;
    }
    last = settled.body.receipt;
    shoe = { ...shoe, rounds: settled.body.shoe.rounds };
    if (settled.body.nextShoe) {
      shoe = settled.body.nextShoe;
      last = shoe.commitment;
      await startShoe();
    }
    rounds++;
    roundsDone++;
  }
  return { sessionId, token, playerId: p.playerId, currency: p.currency, rounds, refused };
}

test(`wallet soak: ${PLAYERS.length} players × ${ROUNDS} rounds, a faulty wallet, the Worker killed twice`, { timeout: 30 * 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pb-soak-'));
  const walletPort = await freePort();
  const wallet = await startWallet(walletPort, join(dir, 'wallet.sqlite'));
  const walletUrl = `http://127.0.0.1:${walletPort}`;
  const vars = {
    OPERATOR_SETTINGS: JSON.stringify([{ id: 'soak', walletUrl, timeoutMs: 1000, currencies: { EUR: 'default', JPY: 'default', BHD: 'default' } }]),
    OPERATOR_SECRETS: JSON.stringify({ soak: { provider: SECRET, operator: SECRET } }),
    RATE_SESSION_BURST: '100000',
    RATE_SESSION_PER_SEC: '100000',
  };
  const persistTo = join(dir, 'worker');
  server = await startServer({ persistTo, vars });
  const kills = CALM ? [] : [Math.floor((ROUNDS * PLAYERS.length) / 3), Math.floor((2 * ROUNDS * PLAYERS.length) / 3)];
  let killed = 0;
  const killer = (async () => {
    for (const at of kills) {
      while (roundsDone < at) await sleep(50);
      let done!: () => void;
      restarting = new Promise((r) => (done = r));
      await server.kill();
      killed++;
      server = await startServer({ persistTo, vars });
      restarting = null;
      done();
    }
  })();
  try {
    const played = await Promise.all(PLAYERS.map(play));
    await killer;
    assert.equal(killed, CALM ? 0 : 2);
    for (const p of played) {
      // The outbox drains on its own (the table's alarm); reading the session wakes a table the restart left asleep.
      let view: SessionView | undefined;
      for (let i = 0; i < 240; i++) {
        view = (await call<SessionView>('GET', `/api/sessions/${p.sessionId}`, undefined, p.token)).body;
        if (view.wallet!.pendingPayments.length === 0 && view.pending === null) break;
        await sleep(1000);
      }
      assert.deepEqual(view!.wallet!.pendingPayments, [], `${p.playerId}: payments still pending`);
      const transcript = await call<{ version: 'pb-fair-2'; records: Signed[] }>('GET', `/api/sessions/${p.sessionId}/transcript`, undefined, p.token);
      const jwks = (await call<Jwks>('GET', '/.well-known/jwks.json')).body;
      const report = await verifyText(JSON.stringify(transcript.body), jwks);
      assert.ok(report.ok, `${p.playerId}: the transcript does not verify: ${JSON.stringify(report).slice(0, 600)}`);
      const records = transcript.body.records;
      const acceptances = records.filter((r) => r.body.type === 'acceptance') as Signed<Acceptance>[];
      const receipts = records.filter((r) => r.body.type === 'receipt') as Signed<Receipt>[];
      const voids = records.filter((r) => r.body.type === 'void') as Signed<Void>[];
      assert.equal(receipts.length, p.rounds, `${p.playerId}: ${p.rounds} rounds played, ${receipts.length} receipts`);
      const ledgerView = (await (await fetch(`${walletUrl}/players/${p.playerId}`)).json()) as PlayerView;
      const reconciled = reconcileLedger(ledgerView, STARTING_BALANCE);
      assert.ok(reconciled.ok, `${p.playerId}: ${reconciled.problems.join('; ')}`);
      assert.equal(ledgerView.currency, p.currency);
      const byId = new Map(ledgerView.transactions.map((t) => [t.id, t]));
      const voided = new Set(voids.map((v) => v.body.round + '/' + v.body.shoe));
      let debited = 0;
      let credited = 0;
      let rolledBack = 0;
      for (const a of acceptances) {
        const debit = a.body.debit!;
        const t = byId.get(debit.transaction);
        const isVoided = voided.has(a.body.round + '/' + a.body.shoe);
        assert.equal(t?.state, isVoided ? 'rolled_back' : 'applied', `${p.playerId}: debit ${debit.transaction} of round ${a.body.shoe}/${a.body.round}`);
        assert.equal(t?.amount, debit.amount);
        debited += debit.amount;
        if (isVoided) rolledBack += debit.amount;
      }
      for (const r of receipts) {
        const credit = r.body.credit!;
        const t = byId.get(credit.transaction);
        assert.equal(t?.state, 'applied', `${p.playerId}: credit ${credit.transaction} of round ${r.body.shoe}/${r.body.round}`);
        assert.equal(t?.amount, credit.amount);
        assert.equal(credit.amount, r.body.returned);
        credited += credit.amount;
      }
      for (const v of voids) assert.equal(byId.get(v.body.rollback!.transaction)?.state, 'applied', `${p.playerId}: the rollback of void ${v.body.round}`);
      // No debit stands in the wallet but those the records accepted.
      const accepted = new Set(acceptances.map((a) => a.body.debit!.transaction));
      const standing = ledgerView.transactions.filter((t) => t.kind === 'debit' && t.state === 'applied' && !accepted.has(t.id));
      assert.deepEqual(standing, [], `${p.playerId}: debits the records never accepted still stand`);
      const house = receipts.reduce((sum, r) => sum + r.body.staked - r.body.returned, 0);
      assert.equal(debited - rolledBack - credited, house, `${p.playerId}: stakes − rollbacks − credits is not the house's result`);
      assert.equal(
        STARTING_BALANCE - ledgerView.balance,
        house,
        `${p.playerId}: the wallet moved ${STARTING_BALANCE - ledgerView.balance}, the records say ${house}`,
      );
      console.log(
        `# ${p.playerId}: ${p.rounds} rounds, ${acceptances.length} debits accepted, refused ${JSON.stringify(Object.fromEntries(p.refused))}, ${voids.length} voids, house ${house} ${p.currency} minor units, wallet transactions ${ledgerView.transactions.length}`,
      );
    }
    // The operator's own view: every wallet call of the run, none left pending.
    const path = `/api/operator/transactions?from=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}&to=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`;
    const headers = await signWalletMessage(SECRET, {
      direction: 'request',
      method: 'GET',
      path,
      timestamp: Math.floor(Date.now() / 1000),
      nonce: crypto.randomUUID().replaceAll('-', ''),
      body: '',
    });
    const listed = await fetch(`${server.url}${path}`, { headers: { ...headers, 'PB-Operator': 'soak' } });
    assert.equal(listed.status, 200, await listed.clone().text());
    const { transactions } = (await listed.json()) as { transactions: WalletCallRow[] };
    assert.ok(transactions.length >= PLAYERS.length * ROUNDS * 2, `the operator lists ${transactions.length} wallet calls`);
    assert.deepEqual(
      transactions.filter((t) => t.state === 'pending'),
      [],
      'the operator still has wallet calls pending',
    );
    console.log(
      `# the operator lists ${transactions.length} wallet calls: ${JSON.stringify(Object.fromEntries(['acknowledged', 'refused', 'rolled_back'].map((st) => [st, transactions.filter((t) => t.state === st).length])))}`,
    );
  } finally {
    await server.stop();
    await stopGroup(wallet);
  }
});
