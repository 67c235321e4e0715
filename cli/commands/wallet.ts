/** `punto-banco wallet`: the reference operator wallet, a real service (cli/wallet/, WALLET.md). */
import { intOption, parseArgs, UsageError } from '../args.ts';
import { NO_FAULTS, startWalletServer, type Faults } from '../wallet/server.ts';
import { loadSqlite } from '../wallet/sqlite.ts';

export const summary = 'run the reference operator wallet (HTTP + SQLite) that WALLET.md describes';

export const help = `usage: punto-banco wallet --secret S [--port P] [--db FILE] [options]

Runs an operator's seamless wallet as WALLET.md specifies it: POST /balance, /debit, /credit and
/rollback, every request's signature checked and every answer signed (HMAC-SHA256), idempotent by
transaction id, with a real ledger in SQLite (one account per player, in the currency of its first
call). Development only, unsigned: GET /players/:playerId shows a player's balance and
transactions; PUT /players/:playerId with {"currency", "balance"?, "status"?} opens or changes one
(status "active", "blocked" or "limit_reached": the wallet then refuses their debits with that code).
Prints "wallet listening on URL" when ready; stops on Ctrl+C or SIGTERM.

options:
  --secret S              the shared secret (both directions unless --operator-secret is given)
  --operator-secret S     the secret that signs the answers (operator → provider); default --secret
  --port P                the port on 127.0.0.1, 0 for a free one (default 8788)
  --db FILE               the SQLite file; default in memory (the ledger is lost on exit)
  --starting-balance N    minor units a player the wallet does not know starts with (default 100000)
  --unknown-players M     open: a call for an unknown player opens an account (default);
                          refuse: it is answered unknown_player (PUT /players/:id opens one)
  --latency-ms A..B       wait a uniform A to B ms before handling each call (default 0..0)
  --fail-rate P           answer this share of calls with HTTP 500, not applied (0 to 1)
  --timeout-rate P        apply this share of calls and never answer them (0 to 1)
  --duplicate-rate P      apply this share of calls and answer as if each came twice (0 to 1)
  --seed N                seeds the faults, so a run replays the same ones (default 0)

Needs node:sqlite (Node 22.5 or later).`;

function rate(values: Record<string, string>, name: string): number {
  const raw = values[name];
  if (raw === undefined) return 0;
  if (!/^(0(\.\d+)?|1(\.0+)?)$/.test(raw)) throw new UsageError(`--${name} must be a number from 0 to 1, got "${raw}"`);
  return Number(raw);
}

function latency(raw: string | undefined): readonly [number, number] {
  if (raw === undefined) return [0, 0];
  const m = /^(\d{1,6})(?:\.\.(\d{1,6}))?$/.exec(raw);
  if (!m) throw new UsageError(`--latency-ms must be A..B (whole milliseconds), got "${raw}"`);
  const a = Number(m[1]);
  const b = m[2] === undefined ? a : Number(m[2]);
  if (b < a) throw new UsageError(`--latency-ms: ${b} is less than ${a}`);
  return [a, b];
}

export async function run(args: string[]): Promise<number> {
  const parsed = parseArgs(args, {
    values: [
      'secret',
      'operator-secret',
      'port',
      'db',
      'starting-balance',
      'unknown-players',
      'latency-ms',
      'fail-rate',
      'timeout-rate',
      'duplicate-rate',
      'seed',
    ],
  });
  const secret = parsed.values.secret;
  if (secret === undefined || secret === '') throw new UsageError('--secret is required');
  const port = intOption(parsed, 'port', 0, 65535, 8788);
  const startingBalance = intOption(parsed, 'starting-balance', 0, Number.MAX_SAFE_INTEGER, 100_000);
  const faults: Faults = {
    ...NO_FAULTS,
    latencyMs: latency(parsed.values['latency-ms']),
    failRate: rate(parsed.values, 'fail-rate'),
    timeoutRate: rate(parsed.values, 'timeout-rate'),
    duplicateRate: rate(parsed.values, 'duplicate-rate'),
    seed: parsed.values.seed ?? '0',
  };
  let sqlite: typeof import('node:sqlite');
  try {
    sqlite = await loadSqlite();
  } catch {
    console.error(`punto-banco wallet: this Node (${process.version}) has no node:sqlite; run it on Node 22.5 or later`);
    return 1;
  }
  const { WalletLedger } = await import('../wallet/ledger.ts');
  const db = new sqlite.DatabaseSync(parsed.values.db ?? ':memory:');
  const unknownPlayers = parsed.values['unknown-players'] ?? 'open';
  if (unknownPlayers !== 'open' && unknownPlayers !== 'refuse') throw new UsageError(`--unknown-players must be open or refuse, got "${unknownPlayers}"`);
  const ledger = new WalletLedger(db, { startingBalance, openUnknownPlayers: unknownPlayers === 'open' });
  const wallet = await startWalletServer({ ledger, providerSecret: secret, operatorSecret: parsed.values['operator-secret'] ?? secret, faults }, port);
  console.log(`wallet listening on ${wallet.url}${parsed.values.db ? ` (ledger ${parsed.values.db})` : ' (ledger in memory)'}`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await wallet.close();
  db.close();
  return 0;
}
