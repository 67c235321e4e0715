/**
 * Reconciliation of a wallet's ledger (as `GET /players/:id` shows it) against the calls the
 * provider made: the balance is the starting balance less every standing debit plus every paid
 * credit, no transaction id appears twice, and every call the provider holds as applied (or
 * rolled back) is so in the ledger. Pure; the tests and the fault soak use it.
 */
import type { PlayerView } from './ledger.ts';

/** What the provider knows of one transaction once its outbox has drained. */
export type ProviderState = 'applied' | 'refused' | 'rolled_back';

export interface Reconciliation {
  ok: boolean;
  /** start − standing debits + paid credits. */
  expectedBalance: number;
  problems: string[];
}

export function reconcileLedger(view: PlayerView, startingBalance: number, provider: ReadonlyMap<string, ProviderState> = new Map()): Reconciliation {
  const problems: string[] = [];
  const seen = new Set<string>();
  let expected = startingBalance;
  for (const t of view.transactions) {
    if (seen.has(t.id)) problems.push(`transaction ${t.id} appears twice`);
    seen.add(t.id);
    if (t.kind === 'debit' && t.state === 'applied') expected -= t.amount;
    if (t.kind === 'credit' && t.state === 'applied') expected += t.amount;
  }
  if (expected !== view.balance) problems.push(`the balance is ${view.balance}, the transactions make it ${expected}`);
  const byId = new Map(view.transactions.map((t) => [t.id, t]));
  for (const [id, state] of provider) {
    const t = byId.get(id);
    if (state === 'applied' && t?.state !== 'applied') problems.push(`the provider holds ${id} as applied; the wallet has it ${t?.state ?? 'missing'}`);
    if (state === 'rolled_back' && t !== undefined && t.state === 'applied') problems.push(`the provider rolled back ${id}; the wallet still has it applied`);
    if (state === 'refused' && t !== undefined && t.state === 'applied') problems.push(`the provider holds ${id} as refused; the wallet applied it`);
  }
  return { ok: problems.length === 0, expectedBalance: expected, problems };
}
