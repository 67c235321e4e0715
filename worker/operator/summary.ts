/**
 * An operator's daily summary (`GET /api/operator/summary?day=YYYY-MM-DD`), per currency, from
 * the wallet calls written that day (UTC), each counted by where it stands now:
 *
 * - `rounds`, `staked`: the debits the wallet acknowledged (a refused debit took nothing; a rolled
 *   back one was given back, whether its outcome was unknown or its round was voided);
 * - `returned`: the credits, acknowledged or still pending (a pending credit is owed and will be
 *   paid: the outbox retries it until the wallet acknowledges);
 * - `houseResult` = staked − returned;
 * - `pending`: calls the wallet has not acknowledged yet (credits and rollbacks in the outbox, a
 *   debit being sent); `refused`: calls the wallet refused.
 *
 * Pure: the rows in, the figures out, currencies in alphabetical order.
 */
import type { WalletCallRow } from '../wallet/calls-view.ts';

export interface DaySummary {
  currency: string;
  rounds: number;
  staked: number;
  returned: number;
  houseResult: number;
  pending: number;
  refused: number;
}

export function summarizeDay(calls: readonly WalletCallRow[]): DaySummary[] {
  const by = new Map<string, DaySummary>();
  for (const call of calls) {
    let s = by.get(call.currency);
    if (!s) by.set(call.currency, (s = { currency: call.currency, rounds: 0, staked: 0, returned: 0, houseResult: 0, pending: 0, refused: 0 }));
    if (call.state === 'pending') s.pending++;
    if (call.state === 'refused') s.refused++;
    if (call.kind === 'debit' && call.state === 'acknowledged') {
      s.rounds++;
      s.staked += call.amount;
    }
    if (call.kind === 'credit' && (call.state === 'acknowledged' || call.state === 'pending')) s.returned += call.amount;
  }
  for (const s of by.values()) s.houseResult = s.staked - s.returned;
  return [...by.values()].sort((a, b) => (a.currency < b.currency ? -1 : 1));
}
