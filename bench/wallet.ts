/**
 * Wallet mode against play mode, in the same run (`npm run bench -- wallet`): the Worker in
 * workerd through Miniflare (as workerd.ts), the reference operator wallet (cli/wallet/) in this
 * process answering every call after 50 ms. For each mode, sequential settled rounds at one table:
 * the round's latency as the player sees it (both phases, p50 and p99), the Worker's CPU per round
 * (workerd's own utime + stime; the wallet's CPU is this process's and is not counted), SQLite rows
 * written per round (the table's `stats()`, outbox and wallet-call rows included) and the wallet
 * calls per round. In wallet mode the debit is on the bet's critical path (the acceptance is signed
 * only once the wallet has the stake); the credit is not (the receipt is answered first, the outbox
 * delivers it). Figures only: nothing here passes or fails.
 */
import { randomBytes } from 'node:crypto';
import { generateSigningKey } from '../shared/index.ts';
import type { LaunchAnswer } from '../shared/api.ts';
import { signLaunchRequest } from '../shared/wallet/launch.ts';
import { NO_FAULTS, startWalletServer } from '../cli/wallet/server.ts';
import { loadSqlite } from '../cli/wallet/sqlite.ts';
import { BenchPlayer, type Send } from './player.ts';
import { dispatchCall, ORIGIN, startMiniflare, workerdCpu } from './workerd.ts';

const WALLET_LATENCY_MS = 50;
const WARMUP_ROUNDS = 10;
const MEASURED_SECONDS = 8;
const SECRET = 'bench-operator-secret';

interface ModeFigures {
  rounds: number;
  p50: number;
  p99: number;
  cpuMs: number;
  rows: number | null;
  walletCalls: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

export async function run(): Promise<void> {
  let sqlite: typeof import('node:sqlite');
  try {
    sqlite = await loadSqlite();
  } catch {
    console.log('(not available: this Node has no node:sqlite)');
    return;
  }
  const { WalletLedger } = await import('../cli/wallet/ledger.ts');
  const ledger = new WalletLedger(new sqlite.DatabaseSync(':memory:'), { startingBalance: 1_000_000_000, openUnknownPlayers: true });
  let walletCalls = 0;
  const wallet = await startWalletServer(
    { ledger, providerSecret: SECRET, operatorSecret: SECRET, faults: { ...NO_FAULTS, latencyMs: [WALLET_LATENCY_MS, WALLET_LATENCY_MS] } },
    0,
  );
  wallet.server.on('request', () => walletCalls++);
  const { privateJwk } = await generateSigningKey();
  const mf = await startMiniflare(process.cwd(), {
    SIGNING_KEY: JSON.stringify(privateJwk),
    OPERATOR_SETTINGS: JSON.stringify([{ id: 'bench', walletUrl: wallet.url, timeoutMs: 3000, currencies: { EUR: 'default' } }]),
    OPERATOR_SECRETS: JSON.stringify({ bench: { provider: SECRET, operator: SECRET } }),
    RATE_SESSION_BURST: '1000000',
    RATE_SESSION_PER_SEC: '1000000',
    RATE_CREATE_BURST: '1000000',
    RATE_CREATE_PER_SEC: '1000000',
  });
  try {
    const call = dispatchCall(mf);
    const send: Send = (c, token) => call(c, token);
    const ns = await mf.getDurableObjectNamespace('TABLES');
    const rowsOf = async (id: string): Promise<number | null> => {
      try {
        return (await (ns.get(ns.idFromName(id)) as unknown as { stats(): Promise<{ rowsWritten: number }> }).stats()).rowsWritten;
      } catch {
        return null;
      }
    };
    const measure = async (player: BenchPlayer): Promise<ModeFigures> => {
      for (let i = 0; i < WARMUP_ROUNDS; i++) await player.round(true);
      const times: number[] = [];
      const rows0 = await rowsOf(player.id);
      const calls0 = walletCalls;
      const cpu0 = await workerdCpu();
      const until = performance.now() + MEASURED_SECONDS * 1000;
      while (performance.now() < until) {
        const t = await player.round(true);
        if (t === null) throw new Error('the bench player ran out of money');
        times.push(t.bet + t.secret);
      }
      const cpu1 = await workerdCpu();
      const rows1 = await rowsOf(player.id);
      times.sort((a, b) => a - b);
      const n = times.length;
      return {
        rounds: n,
        p50: percentile(times, 50),
        p99: percentile(times, 99),
        cpuMs: ((cpu1.user + cpu1.system - cpu0.user - cpu0.system) * 1000) / n,
        rows: rows0 === null || rows1 === null ? null : (rows1 - rows0) / n,
        walletCalls: (walletCalls - calls0) / n,
      };
    };

    const play = await measure(await BenchPlayer.open(send, 'hall-1'));
    const launch = await signLaunchRequest(
      'bench',
      SECRET,
      { playerId: 'bench-player', currency: 'EUR', lang: 'en', room: 'hall-1', limits: {}, returnUrl: 'https://casino.example/back' },
      Date.now(),
      randomBytes(16).toString('hex'),
    );
    const launched = await mf.dispatchFetch(`${ORIGIN}/api/operator/launch`, {
      method: 'POST',
      headers: { ...launch.headers, 'CF-Connecting-IP': '192.0.2.1' },
      body: launch.body,
    });
    if (launched.status !== 201) {
      console.log(`(wallet mode not available: the launch answered ${launched.status} ${await launched.text()})`);
      return;
    }
    const { token } = (await launched.json()) as LaunchAnswer;
    const walletMode = await measure(await BenchPlayer.launched(send, token));

    const line = (label: string, f: ModeFigures) =>
      console.log(
        `${label}: ${f.rounds} sequential rounds; round latency p50 ${f.p50.toFixed(1)} ms, p99 ${f.p99.toFixed(1)} ms (both phases, signing included); ` +
          `Worker CPU ${f.cpuMs.toFixed(2)} ms per round (workerd, proxy-free); SQLite rows written ${f.rows === null ? 'n/a' : f.rows.toFixed(2)} per round; wallet calls ${f.walletCalls.toFixed(2)} per round`,
      );
    line('play mode', play);
    line(`wallet mode (the wallet answers after ${WALLET_LATENCY_MS} ms)`, walletMode);
    console.log(
      `wallet mode − play mode: latency p50 +${(walletMode.p50 - play.p50).toFixed(1)} ms, CPU ${(walletMode.cpuMs - play.cpuMs >= 0 ? '+' : '') + (walletMode.cpuMs - play.cpuMs).toFixed(2)} ms, rows ${walletMode.rows === null || play.rows === null ? 'n/a' : (walletMode.rows - play.rows >= 0 ? '+' : '') + (walletMode.rows - play.rows).toFixed(2)} per round`,
    );
  } finally {
    await mf.dispose();
    await wallet.close();
  }
}
