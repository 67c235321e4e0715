/**
 * `punto-banco launch` (an operator's signed launch) against a fake provider that checks the
 * signature with the shared verifier, and `punto-banco play --launch-token` against the widget
 * tests' fake Worker in wallet mode behind an HTTP server: the launch redeemed, rounds played, a
 * refused bet reported (and the play going on or stopping), the transcript written.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import * as launchCommand from '../../cli/commands/launch.ts';
import * as playCommand from '../../cli/commands/play.ts';
import { verifyLaunchRequest, type LaunchRequest } from '../../shared/wallet/launch.ts';
import { startDemoServer, type DemoServer } from '../widget/demo-server.ts';
import { WalletFake } from '../widget/wallet-fake.ts';
import { cli, runInProcess } from './run-cli.ts';
import { roundCalls, startTestWallet } from './wallet-fixtures.ts';

const SECRETS: Record<string, string> = { demo: 'dev-demo-secret' };

/** A provider's launch route: every launch checked with verifyLaunchRequest, the verified ones kept. */
async function fakeProvider(): Promise<{ url: string; launches: { operatorId: string; launch: LaunchRequest }[]; close(): Promise<void> }> {
  const launches: { operatorId: string; launch: LaunchRequest }[] = [];
  const nonces = new Set<string>();
  const server: Server = createServer((req, res) => void answer(req, res));
  async function answer(req: IncomingMessage, res: import('node:http').ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const reply = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (req.method !== 'POST' || req.url !== '/api/operator/launch') return reply(404, { error: { code: 'not_found', message: req.url } });
    const checked = await verifyLaunchRequest({
      headers: req.headers,
      body,
      now: Math.floor(Date.now() / 1000),
      operatorSecret: (id) => SECRETS[id],
      nonceRefused: (nonce) => nonces.has(nonce) || !nonces.add(nonce),
    });
    if (!checked.ok) return reply(checked.error.code === 'bad_launch' ? 400 : 401, { error: checked.error });
    launches.push(checked.value);
    const token = `lt-${launches.length}`;
    reply(201, { token, url: `http://127.0.0.1/embed?launch=${token}`, expiresAt: new Date(Date.now() + 120_000).toISOString() });
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, launches, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Runs a command in this process, its standard error captured too. */
async function runCaptured(command: { run(args: string[]): Promise<number> }, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const err: string[] = [];
  const spy = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  try {
    const { code, stdout } = await runInProcess(command, args);
    return { code, stdout, stderr: err.join('\n') };
  } finally {
    spy.mockRestore();
  }
}

describe('punto-banco launch', () => {
  let provider: Awaited<ReturnType<typeof fakeProvider>>;
  beforeAll(async () => (provider = await fakeProvider()));
  afterAll(async () => provider.close());

  const base = () => ['--endpoint', provider.url, '--operator', 'demo', '--secret', 'dev-demo-secret', '--player', 'alice', '--currency', 'JPY'];

  test('signs a launch the provider verifies, and prints the token', async () => {
    const r = await runCaptured(launchCommand, [...base(), '--room', 'hall-2', '--lang', 'it', '--limits', '{"realityCheckMinutes":30}']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`lt-${provider.launches.length}`);
    expect(provider.launches.at(-1)).toEqual({
      operatorId: 'demo',
      launch: { playerId: 'alice', currency: 'JPY', lang: 'it', room: 'hall-2', limits: { realityCheckMinutes: 30 }, returnUrl: `${provider.url}/` },
    });
  });

  test('--json prints { token, url }; --return-url is signed as given', async () => {
    const r = await runCaptured(launchCommand, [...base(), '--json', '--return-url', 'https://casino.example/lobby']);
    expect(r.code).toBe(0);
    const n = provider.launches.length;
    expect(JSON.parse(r.stdout)).toEqual({ token: `lt-${n}`, url: `http://127.0.0.1/embed?launch=lt-${n}` });
    expect(provider.launches.at(-1)!.launch.returnUrl).toBe('https://casino.example/lobby');
  });

  test('a wrong secret: the provider refuses the signature; exit 1 with its code', async () => {
    const before = provider.launches.length;
    const args = base();
    args[args.indexOf('dev-demo-secret')] = 'not-the-secret';
    const r = await runCaptured(launchCommand, args);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('HTTP 401 bad_signature');
    expect(provider.launches.length).toBe(before);
  });

  test('usage errors exit 2 with the reason', () => {
    const missing = cli(['launch', '--endpoint', 'http://127.0.0.1:9', '--player', 'alice', '--currency', 'JPY', '--secret', 's']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--operator is required');
    const currency = cli(['launch', '--endpoint', 'http://127.0.0.1:9', '--operator', 'demo', '--secret', 's', '--player', 'alice', '--currency', 'XYZ']);
    expect(currency.code).toBe(2);
    expect(currency.stderr).toContain('--currency must be an active ISO 4217 code');
    const limits = cli([
      'launch',
      '--endpoint',
      'http://127.0.0.1:9',
      '--operator',
      'demo',
      '--secret',
      's',
      '--player',
      'a',
      '--currency',
      'EUR',
      '--limits',
      '{"lossLimit":-1}',
    ]);
    expect(limits.code).toBe(2);
    expect(limits.stderr).toContain('--limits');
    expect(cli(['launch', '--help']).stdout).toContain('--launch-token');
  });
});

describe('punto-banco play --launch-token', () => {
  let server: DemoServer;
  let worker: WalletFake;
  const dir = mkdtempSync(path.join(tmpdir(), 'pb-launch-'));
  beforeAll(async () => {
    worker = new WalletFake();
    server = await startDemoServer(dir, worker);
  });
  afterAll(async () => server.close());

  const play = (token: string, out: string, rounds = 6) =>
    runCaptured(playCommand, ['--endpoint', server.url, '--launch-token', token, '--rounds', String(rounds), '--out', out]);

  test('redeems the launch and plays in the wallet currency; a refused bet is reported and play goes on', async () => {
    const token = worker.launch('play-1', { currency: 'BHD', balance: 500_000 });
    // The wallet refuses one debit for funds, and one debit's outcome is unknown: both rounds are tried again.
    worker.faults.push({ route: 'rounds', times: 1, kind: 402, code: 'insufficient_funds' });
    const out = path.join(dir, 'wallet.json');
    const r = await play(token, out);
    expect(r.code, r.stderr).toBe(0);
    const launched = worker.requests('sessions')[0]!.body as Record<string, unknown>;
    expect(launched.launchToken).toBe('play-1');
    expect(launched).not.toHaveProperty('room');
    expect(r.stderr).toContain('played 6 round(s)');
    expect(r.stderr).toContain('wallet mode (operator demo, BHD)');
    expect(r.stderr).toContain('bets refused: insufficient_funds ×1');
    const file = JSON.parse(readFileSync(out, 'utf8')) as { records: { body: { type: string } }[] };
    expect(file.records.filter((x) => x.body.type === 'receipt')).toHaveLength(6);
  });

  test('a debit of unknown outcome (wallet_unavailable) is tried again with new bets', async () => {
    const token = worker.launch('play-2', { currency: 'BHD' });
    worker.faults.push({ route: 'rounds', times: 1, kind: 503, code: 'wallet_unavailable' });
    const before = worker.requests('rounds').length;
    const r = await play(token, path.join(dir, 'retry.json'), 3);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('bets refused: wallet_unavailable ×1');
    // Three rounds accepted, one refused: four bets sent, the refused one never resent with its key.
    const sent = worker.requests('rounds').slice(before);
    expect(sent).toHaveLength(4);
    expect(new Set(sent.map((q) => q.headers['idempotency-key'])).size).toBe(4);
  });

  test('a reality check waiting stops the play with the reason; every round played is written', async () => {
    const token = worker.launch('play-3', { currency: 'BHD' });
    const out = path.join(dir, 'stopped.json');
    worker.faults.push({ route: 'rounds', times: 1, kind: 409, code: 'reality_check_pending' });
    const r = await play(token, out, 4);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('reality_check_pending');
    expect(r.stderr).toContain('stopped after 0 of 4 round(s)');
    expect(JSON.parse(readFileSync(out, 'utf8')).records.length).toBeGreaterThan(0);
  });

  test('a used launch token: exit 1 with the code; --launch-token refuses --new-session-when-broke', async () => {
    const r = await play('play-1', path.join(dir, 'used.json'), 1);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('launch_token_used');
    const u = cli(['play', '--endpoint', 'http://127.0.0.1:9', '--launch-token', 't', '--new-session-when-broke', '--out', 'x.json']);
    expect(u.code).toBe(2);
    expect(u.stderr).toContain('single use');
  });
});

describe("the reference wallet's development view for the demo's real-wallet switch", () => {
  test('GET /players/:id is readable from another origin (the demo page on the Worker shows the balance moving)', async () => {
    const wallet = await startTestWallet({}, 5_000);
    try {
      await wallet.call((await roundCalls('alice', 1, 100, 0, 'JPY')).debit);
      const answer = await fetch(`${wallet.url}/players/alice`, { headers: { origin: 'http://localhost:8787' } });
      expect(answer.headers.get('access-control-allow-origin')).toBe('*');
      expect(((await answer.json()) as { balance: number }).balance).toBe(4_900);
    } finally {
      await wallet.close();
    }
  });
});
