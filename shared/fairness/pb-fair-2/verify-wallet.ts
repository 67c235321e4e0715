/**
 * The verifier's checks of wallet mode (FAIRNESS.md §B15), one step each of the walk in verify.ts:
 * a commitment's wallet, the members every record of a wallet shoe carries (and a play shoe's
 * never), each transaction's derived id and its place on the table's statement, a debit's attempt,
 * amount and balance, a credit's amount. The rollback's check stays with the void it belongs to.
 */
import { totalStake } from '../../table.ts';
import { formatAmount } from '../../wallet/currency.ts';
import type { TransactionKind } from '../../wallet/transaction.ts';
import type { Acceptance, Commitment, Receipt } from './records.ts';
import { VerifyStop } from './record-checks.ts';
import type { FileWalk, ShoeCtx, StopFn } from './verify.ts';
import type { VerifyCode } from './verify-codes.ts';
import { checkWalletOfShoe, sameWallet, walletTransactionIds } from './wallet.ts';

/**
 * A commitment's wallet (§B15): ids of the WALLET.md form (`bad_wallet`), a real ISO 4217
 * currency (`unknown_currency`), and the same wallet, or none, as the file's first shoe
 * (`wallet_mismatch`).
 */
export function checkWallet(w: FileWalk, body: Commitment): void {
  const { stop } = w;
  if (body.wallet !== undefined) {
    const checked = checkWalletOfShoe(body.wallet, body.table);
    if (!checked.ok) stop(checked.error.code, checked.error.message);
  }
  if (w.statement === undefined) {
    w.statement = body.wallet === undefined ? null : { ...body.wallet, transactions: [] };
    return;
  }
  const table = w.statement === null ? undefined : w.statement;
  if (!sameWallet(table, body.wallet))
    stop(
      'wallet_mismatch',
      table === undefined
        ? `shoe ${body.shoe} names a wallet, the table's first shoe plays without one`
        : body.wallet === undefined
          ? `shoe ${body.shoe} names no wallet, the table's first shoe plays in one`
          : `shoe ${body.shoe} names the wallet ${JSON.stringify(body.wallet)}, the table's first shoe ${JSON.stringify({ operator: table.operator, player: table.player, currency: table.currency })}`,
    );
}

const WALLET_MEMBER: Record<string, 'debit' | 'credit' | 'rollback'> = { acceptance: 'debit', receipt: 'credit', void: 'rollback' };

/** In a wallet shoe every acceptance, receipt and void carries its debit, credit or rollback (`missing_transaction`); in a play shoe none does (`unexpected_transaction`). */
export function walletMembers(sh: ShoeCtx, body: { type: string }, stop: StopFn): void {
  const member = WALLET_MEMBER[body.type];
  if (member === undefined) return;
  const has = Object.hasOwn(body, member);
  if (sh.wallet !== undefined && !has) stop('missing_transaction', `${article(body.type)} ${body.type} of a wallet shoe must carry its ${member}`);
  if (sh.wallet === undefined && has)
    stop('unexpected_transaction', `${article(body.type)} ${body.type} of a play-money shoe carries no ${member}: the shoe's commitment names no wallet`);
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? 'an' : 'a';
}

/**
 * A wallet transaction of the shoe's debit attempt `attempt`: its id must be the derived one
 * (`transaction_id_mismatch`); it then joins the table's statement.
 */
export async function checkTransaction(
  w: FileWalk,
  sh: ShoeCtx,
  at: { table: string; shoe: number; round: number },
  attempt: number,
  kind: TransactionKind,
  transaction: string,
  amount: number,
): Promise<void> {
  const ids = await walletTransactionIds(sh.wallet!, at.table, at.shoe, attempt);
  if (!ids.ok) return w.stop('attempt_mismatch', ids.error.message);
  if (transaction !== ids.value[kind])
    w.stop('transaction_id_mismatch', `the ${kind} of attempt ${attempt} of shoe ${at.shoe} has the id ${ids.value[kind]}, the record says ${transaction}`);
  w.statement!.transactions.push({
    shoe: at.shoe,
    round: at.round,
    roundId: `${at.table}/${at.shoe}/${at.round}`,
    attempt,
    kind,
    transaction,
    amount,
    formatted: formatAmount(amount, sh.wallet!.currency),
  });
}

/**
 * A wallet shoe's debit (§B15): its attempt after the shoe's last and at least the round
 * (`attempt_mismatch`), its derived id, its amount the round's stake (`debit_amount_mismatch`),
 * and the acceptance's balanceBefore the wallet's balance before it, balanceAfter + amount
 * (`debit_balance_mismatch`): in place of the balance carried, which the wallet's own movements break.
 */
export async function checkDebit(w: FileWalk, sh: ShoeCtx, body: Acceptance): Promise<void> {
  const { stop } = w;
  const d = body.debit!;
  if (d.attempt <= sh.attempt || d.attempt < body.round)
    stop('attempt_mismatch', `the debit's attempt ${d.attempt} must be above the shoe's last attempt (${sh.attempt}) and at least the round (${body.round})`);
  sh.attempt = d.attempt;
  await checkTransaction(w, sh, body, d.attempt, 'debit', d.transaction, d.amount);
  const stake = totalStake(body.request.body.bets);
  if (d.amount !== stake) stop('debit_amount_mismatch', `round ${body.round}: the debit is ${d.amount}, the bets stake ${stake}`);
  if (body.balanceBefore !== d.balanceAfter + d.amount)
    stop(
      'debit_balance_mismatch',
      `round ${body.round}: the balance before the debit is its balance after plus its amount, ${d.balanceAfter + d.amount}; the acceptance says ${body.balanceBefore}`,
    );
}

/** A wallet shoe's credit (§B15): the id of its debit's attempt, and the amount the round returns (0 for a lost round). */
export async function checkCredit(w: FileWalk, sh: ShoeCtx, acc: Acceptance, body: Receipt): Promise<[VerifyCode, string] | null> {
  if (body.credit === undefined) return null;
  const c = body.credit;
  try {
    await checkTransaction(w, sh, body, acc.debit!.attempt, 'credit', c.transaction, c.amount);
  } catch (e) {
    if (e instanceof VerifyStop) return [(e as VerifyStop<VerifyCode>).failure.code, e.failure.message];
    throw e;
  }
  if (c.amount !== body.returned) return ['credit_amount_mismatch', `round ${body.round}: the credit is ${c.amount}, the round returns ${body.returned}`];
  return null;
}
