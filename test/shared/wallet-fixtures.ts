/** The wallet tests' shared call: a 25.00 EUR debit of round 12 of shoe 1 of session s-7f3a. */
import type { DebitCall } from '../../shared/wallet/calls.ts';

export const DEBIT: DebitCall = {
  kind: 'debit',
  transactionId: 'pbw1-40b4b41da353574977eb80a79251c868',
  roundId: 's-7f3a/1/12',
  playerId: 'alice',
  sessionId: 's-7f3a',
  currency: 'EUR',
  amount: 2500,
};
