import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { reconcileLedger } from '../../cli/wallet/reconcile.ts';
import { cli } from './run-cli.ts';
import { OPERATOR_SECRET, PROVIDER_SECRET, roundCalls, walletClient } from './wallet-fixtures.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'pb-wallet-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** `punto-banco wallet` as a user starts it (plain `node`, no warning flags), on a free port. */
async function startService(args: string[]): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  const child = spawn(
    process.execPath,
    ['cli/punto-banco.js', 'wallet', '--port', '0', '--secret', PROVIDER_SECRET, '--operator-secret', OPERATOR_SECRET, ...args],
    { cwd: ROOT },
  );
  children.push(child);
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /wallet listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the wallet exited (${code}) before listening: ${err}`)));
  });
  return { child, url, stderr: () => err };
}

function killed(child: ChildProcess, signal: NodeJS.Signals): Promise<NodeJS.Signals | number | null> {
  return new Promise((resolve) => {
    child.once('exit', (code, sig) => resolve(sig ?? code));
    child.kill(signal);
  });
}

describe('punto-banco wallet, the service', () => {
  test('survives kill -9: restarted on the same file, the ledger and its idempotency are all there', async () => {
    const db = path.join(dir, 'ledger.sqlite');
    const first = await startService(['--db', db, '--starting-balance', '5000']);
    const w1 = walletClient(first);
    const rounds = [await roundCalls('zoe', 1, 1_000, 1_950, 'JPY'), await roundCalls('zoe', 2, 500, 0, 'JPY'), await roundCalls('zoe', 3, 200, 0, 'JPY')];
    for (const r of rounds) expect((await w1.call(r.debit)).outcome.kind).toBe('applied');
    await w1.call(rounds[0]!.credit);
    await w1.call(rounds[1]!.credit);
    const before = await w1.player('zoe');
    expect(before?.balance).toBe(5_000 - 1_000 + 1_950 - 500 - 200);
    expect(await killed(first.child, 'SIGKILL')).toBe('SIGKILL');

    const second = await startService(['--db', db, '--starting-balance', '5000']);
    const w2 = walletClient(second);
    expect(await w2.player('zoe')).toEqual(before);
    // A retry after the crash is recognised; the owed rollback applies once.
    expect((await w2.call(rounds[0]!.credit)).outcome).toMatchObject({ kind: 'applied', duplicate: true });
    expect((await w2.call(rounds[2]!.rollback)).outcome).toMatchObject({ kind: 'applied', answer: { balance: 5_450 } });
    const after = await w2.player('zoe');
    expect(reconcileLedger(after!, 5_000, new Map([[rounds[2]!.debit.transactionId, 'rolled_back']]))).toMatchObject({ ok: true, expectedBalance: 5_450 });
    // No experimental-feature warning: the command silences node:sqlite's.
    expect(first.stderr() + second.stderr()).toBe('');
    expect(await killed(second.child, 'SIGTERM')).toBe(0);
  });

  test('in memory by default: a restart starts a fresh ledger', async () => {
    const a = await startService([]);
    const r = await roundCalls('yan', 1, 100, 0);
    await walletClient(a).call(r.debit);
    expect((await walletClient(a).player('yan'))?.balance).toBe(99_900);
    await killed(a.child, 'SIGTERM');
    const b = await startService([]);
    expect(await walletClient(b).player('yan')).toBeUndefined();
    await killed(b.child, 'SIGTERM');
  });

  test('help and usage errors', () => {
    const help = cli(['wallet', '--help']);
    expect(help.code).toBe(0);
    for (const option of [
      '--secret',
      '--port',
      '--db',
      '--starting-balance',
      '--latency-ms A..B',
      '--fail-rate',
      '--timeout-rate',
      '--duplicate-rate',
      '--seed',
    ]) {
      expect(help.stdout).toContain(option);
    }
    expect(cli(['--help']).stdout).toMatch(/wallet +run the reference operator wallet/);
    expect(cli(['wallet'])).toMatchObject({ code: 2, stderr: 'punto-banco wallet: --secret is required\n' });
    expect(cli(['wallet', '--secret', 's', '--fail-rate', '1.5']).code).toBe(2);
    expect(cli(['wallet', '--secret', 's', '--latency-ms', '400..20']).code).toBe(2);
    expect(cli(['wallet', '--secret', 's', '--port', '70000']).code).toBe(2);
  });
});
