/** The reference wallet in this process, on a free loopback port, and the provider's side of its calls. */
import { randomBytes } from 'node:crypto';
import { WalletLedger, type PlayerView } from '../../cli/wallet/ledger.ts';
import { loadSqlite } from '../../cli/wallet/sqlite.ts';
import { NO_FAULTS, startWalletServer, type Faults, type RunningWallet } from '../../cli/wallet/server.ts';
import type { CreditCall, DebitCall, RollbackCall, WalletCall } from '../../shared/wallet/calls.ts';
import { callWallet, type CallOptions, type WalletCallResult, type WalletConfig } from '../../shared/wallet/client.ts';
import { walletTransactionId } from '../../shared/wallet/transaction.ts';

export const PROVIDER_SECRET = 'provider-secret-for-tests';
export const OPERATOR_SECRET = 'operator-secret-for-tests';

export interface TestWallet extends RunningWallet {
  config: WalletConfig;
  call(call: WalletCall, options?: CallOptions & { config?: Partial<WalletConfig>; now?: number }): Promise<WalletCallResult>;
  player(playerId: string): Promise<PlayerView | undefined>;
}

export async function startTestWallet(faults: Partial<Faults> = {}, startingBalance = 100_000, openUnknownPlayers = true): Promise<TestWallet> {
  const ledger = new WalletLedger(new (await loadSqlite()).DatabaseSync(':memory:'), { startingBalance, openUnknownPlayers });
  const running = await startWalletServer({ ledger, providerSecret: PROVIDER_SECRET, operatorSecret: OPERATOR_SECRET, faults: { ...NO_FAULTS, ...faults } }, 0);
  return walletClient(running);
}

/** The provider's side against a wallet already listening at `running.url`. */
export function walletClient<T extends Pick<RunningWallet, 'url'>>(running: T): T & Omit<TestWallet, keyof RunningWallet> {
  const config: WalletConfig = { walletBase: running.url, providerSecret: PROVIDER_SECRET, operatorSecret: OPERATOR_SECRET };
  return {
    ...running,
    config,
    call: (call, options = {}) =>
      callWallet((url, init) => fetch(url, init), { ...config, ...options.config }, call, options.now ?? Date.now(), randomBytes(16).toString('hex'), options),
    player: async (playerId) => {
      const res = await fetch(`${running.url}/players/${encodeURIComponent(playerId)}`);
      return res.status === 404 ? undefined : ((await res.json()) as PlayerView);
    },
  };
}

/** The three money calls of one round, with their derived ids. */
export async function roundCalls(playerId: string, round: number, stake: number, payout: number, currency = 'EUR', sessionId = `s-${playerId}`) {
  const id = async (kind: 'debit' | 'credit' | 'rollback') => {
    const r = await walletTransactionId({ operatorId: 'demo', sessionId, shoe: 1, round, kind });
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  };
  const base = { roundId: `${sessionId}/1/${round}`, playerId, sessionId, currency };
  const debit: DebitCall = { kind: 'debit', transactionId: await id('debit'), amount: stake, ...base };
  const credit: CreditCall = { kind: 'credit', transactionId: await id('credit'), amount: payout, debitTransactionId: debit.transactionId, ...base };
  const rollback: RollbackCall = { kind: 'rollback', transactionId: await id('rollback'), amount: stake, debitTransactionId: debit.transactionId, ...base };
  return { debit, credit, rollback };
}
