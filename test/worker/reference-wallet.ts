/**
 * The reference wallet (cli/wallet, in memory) for the Worker's tests, started by vitest.config.ts
 * in the Node process that runs vitest, on a free loopback port: the operators of the test
 * configuration call it from workerd. It never keeps the process alive.
 */
import { NO_FAULTS, startWalletServer } from '../../cli/wallet/server.ts';
import { loadSqlite } from '../../cli/wallet/sqlite.ts';
import { WalletLedger } from '../../cli/wallet/ledger.ts';

export async function startTestWallet(secret: string): Promise<string> {
  const { DatabaseSync } = await loadSqlite();
  const ledger = new WalletLedger(new DatabaseSync(':memory:'), { startingBalance: 100_000, openUnknownPlayers: true });
  const wallet = await startWalletServer({ ledger, providerSecret: secret, operatorSecret: secret, faults: NO_FAULTS }, 0);
  wallet.server.unref();
  return wallet.url;
}
