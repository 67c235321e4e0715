/**
 * pb-fair-2 in wallet mode (FAIRNESS.md §B15): a shoe whose commitment names a `wallet` moves its
 * money in the operator's wallet, in the currency's ISO 4217 minor units. Its acceptances carry
 * the round's `debit`, its receipts the `credit` (zero for a lost round), its voids the `rollback`;
 * every transaction id is derived (WALLET.md §3) from the operator, the table (the wallet's session
 * id), the shoe, the debit's `attempt` and the kind, so the verifier recomputes each one.
 *
 * `attempt` numbers the debits a shoe sent to the wallet: 1 for the first, +1 for every debit sent
 * (accepted, refused, or of unknown outcome), never reused; a round's credit or rollback uses its
 * debit's attempt. It equals the round number until a debit fails, and is larger after.
 */
import { type EngineError, fail, ok, type Result } from '../../errors.ts';
import type { CommissionRule } from '../../settle.ts';
import { isCurrency } from '../../wallet/currency.ts';
import { ID_PATTERN, type TransactionIdErrorCode, type TransactionKind, walletTransactionId } from '../../wallet/transaction.ts';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8Bytes } from '../common/encoding.ts';
import type { WalletOfShoe } from './records.ts';

/** The three transaction ids of one debit attempt: the debit, and the credit or rollback that closes it. */
export interface WalletTransactionIds {
  debit: string;
  credit: string;
  rollback: string;
}

/**
 * The transaction ids of debit attempt `attempt` of shoe `shoe` at table `table` (the wallet's
 * session id): walletTransactionId({ operatorId: wallet.operator, sessionId: table, shoe, round:
 * attempt, kind }) for each kind.
 */
export async function walletTransactionIds(
  wallet: Pick<WalletOfShoe, 'operator'>,
  table: string,
  shoe: number,
  attempt: number,
): Promise<Result<WalletTransactionIds, EngineError<TransactionIdErrorCode>>> {
  const key = { operatorId: wallet.operator, sessionId: table, shoe, round: attempt };
  const [debit, credit, rollback] = await Promise.all([
    walletTransactionId({ ...key, kind: 'debit' }),
    walletTransactionId({ ...key, kind: 'credit' }),
    walletTransactionId({ ...key, kind: 'rollback' }),
  ]);
  if (!debit.ok) return debit;
  if (!credit.ok) return credit;
  if (!rollback.ok) return rollback;
  return ok({ debit: debit.value, credit: credit.value, rollback: rollback.value });
}

/**
 * The text whose SHA-256 names a shared table's wallet transaction (§B15, "Shared tables"):
 * "pb-wallet-shared-1\n" + operator + "\n" + table + "\n" + transfer + "\n" + attempt + "\n" + kind,
 * with `table` the session (the wallet's session id), `transfer` the shared table's id of the
 * movement (its transfer record's `transfer`), `attempt` the debit's (1: a transfer is answered
 * once) or 1 for a credit or rollback, `kind` the wallet call: `debit`, `credit` or `rollback`.
 */
export function sharedTransactionPreimage(operator: string, table: string, transfer: string, attempt: number, kind: TransactionKind): string {
  return `pb-wallet-shared-1\n${operator}\n${table}\n${transfer}\n${attempt}\n${kind}`;
}

/** A shared table's wallet transaction id: "pbw1-" and the first 32 hex digits of the SHA-256 of `sharedTransactionPreimage`. */
export function sharedTransactionId(operator: string, table: string, transfer: string, attempt: number, kind: TransactionKind): string {
  return `pbw1-${bytesToHex(sha256(utf8Bytes(sharedTransactionPreimage(operator, table, transfer, attempt, kind)))).slice(0, 32)}`;
}

/** How a shoe pays the Banker's commission: `round-down` in a wallet shoe (currency minor units), `exact` in play money. */
export function commissionRuleOf(commitment: { wallet?: WalletOfShoe }): CommissionRule {
  return commitment.wallet === undefined ? 'exact' : 'round-down';
}

export type WalletOfShoeErrorCode = 'bad_wallet' | 'unknown_currency';

/**
 * A commitment's `wallet` for table `table`: the operator, the player and the table (the session
 * the wallet sees) are 1 to 128 of `A–Z a–z 0–9 . _ : -`, so that transaction ids can be derived
 * (`bad_wallet`); the currency is an active ISO 4217 code with minor units (`unknown_currency`).
 */
export function checkWalletOfShoe(wallet: WalletOfShoe, table: string): Result<WalletOfShoe, EngineError<WalletOfShoeErrorCode>> {
  if (!ID_PATTERN.test(wallet.operator))
    return fail('bad_wallet', `the wallet's operator ${JSON.stringify(wallet.operator)} is not 1 to 128 of A-Z a-z 0-9 . _ : -`);
  if (!ID_PATTERN.test(wallet.player)) return fail('bad_wallet', `the wallet's player ${JSON.stringify(wallet.player)} is not 1 to 128 of A-Z a-z 0-9 . _ : -`);
  if (!ID_PATTERN.test(table))
    return fail('bad_wallet', `the table id ${JSON.stringify(table)} cannot name a wallet session: it is not 1 to 128 of A-Z a-z 0-9 . _ : -`);
  if (!isCurrency(wallet.currency))
    return fail('unknown_currency', `${JSON.stringify(wallet.currency)} is not an active ISO 4217 currency code with minor units`);
  return ok(wallet);
}

/** Two shoes' wallets are the same: the same operator, player and currency. */
export function sameWallet(a: WalletOfShoe | undefined, b: WalletOfShoe | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.operator === b.operator && a.player === b.player && a.currency === b.currency;
}
