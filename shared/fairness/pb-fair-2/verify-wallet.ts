/**
 * The verifier's checks of wallet mode (FAIRNESS.md §B15), one step each of the walk in verify.ts:
 * a commitment's wallet, the members every record of a wallet shoe carries (and a play shoe's
 * never), each transaction's derived id and its place on the table's statement, a debit's attempt,
 * amount and balance, a credit's amount. The rollback's check stays with the void it belongs to.
 */
import { totalStake } from '../../table.ts';
import { formatAmount } from '../../wallet/currency.ts';
import type { TransactionKind } from '../../wallet/transaction.ts';
import type { Acceptance, Commitment, Receipt, Transfer } from './records.ts';
import { TRANSFER_WALLET_MEMBER } from './transfer.ts';
import { VerifyStop } from './record-checks.ts';
import type { FileWalk, ShoeCtx, StopFn } from './verify.ts';
import type { VerifyCode } from './verify-codes.ts';
import { checkWalletOfShoe, sameWallet, sharedTransactionId, walletTransactionIds } from './wallet.ts';

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

/**
 * In a wallet shoe every acceptance, receipt and void carries its debit, credit or rollback, and
 * every transfer the member of its kind and no other (`missing_transaction`, `unexpected_transaction`);
 * in a play shoe none does (`unexpected_transaction`).
 */
export function walletMembers(sh: ShoeCtx, body: { type: string }, stop: StopFn): void {
  if (body.type === 'transfer') return transferMembers(sh, body as Transfer, stop);
  const member = WALLET_MEMBER[body.type];
  if (member === undefined) return;
  const has = Object.hasOwn(body, member);
  if (sh.wallet !== undefined && !has) stop('missing_transaction', `${article(body.type)} ${body.type} of a wallet shoe must carry its ${member}`);
  if (sh.wallet === undefined && has)
    stop('unexpected_transaction', `${article(body.type)} ${body.type} of a play-money shoe carries no ${member}: the shoe's commitment names no wallet`);
}

function transferMembers(sh: ShoeCtx, t: Transfer, stop: StopFn): void {
  const own = Object.hasOwn(TRANSFER_WALLET_MEMBER, t.kind) ? TRANSFER_WALLET_MEMBER[t.kind] : undefined;
  for (const member of ['debit', 'credit', 'rollback'] as const) {
    if (!Object.hasOwn(t, member)) continue;
    if (sh.wallet === undefined) stop('unexpected_transaction', `a transfer of a play-money shoe carries no ${member}: the shoe's commitment names no wallet`);
    if (own !== undefined && member !== own) stop('unexpected_transaction', `a ${t.kind} transfer of a wallet shoe carries its ${own}, not a ${member}`);
  }
  if (sh.wallet !== undefined && own !== undefined && !Object.hasOwn(t, own))
    stop('missing_transaction', `a ${t.kind} transfer of a wallet shoe must carry its ${own}`);
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

/**
 * A wallet shoe's transfer (§B15, "Shared tables"), in place of the balance carried: a debit's
 * attempt is 1 (`attempt_mismatch`), its transaction the derived one (`transaction_id_mismatch`),
 * its amount the transfer's (`debit_amount_mismatch`) and `balanceBefore` = its balanceAfter +
 * amount (`debit_balance_mismatch`): the wallet's answer, as an acceptance's. A credit or a
 * refund's rollback starts from the balance carried (`balance_mismatch`), with the derived
 * transaction and the transfer's amount (`credit_amount_mismatch`, `rollback_amount_mismatch`).
 * Each joins the table's statement under the shared round.
 */
export function checkTransferWallet(w: FileWalk, sh: ShoeCtx, t: Transfer): void {
  const { stop } = w;
  const kind = TRANSFER_WALLET_MEMBER[t.kind];
  const operator = sh.wallet!.operator;
  let attempt = 1;
  let movement: { transaction: string; amount: number };
  if (t.kind === 'debit') {
    const d = t.debit!;
    if (d.attempt !== 1) stop('attempt_mismatch', `a transfer's debit is sent once: its attempt is 1, the record says ${d.attempt}`);
    attempt = d.attempt;
    movement = d;
  } else {
    if (t.balanceBefore !== sh.balance) stop('balance_mismatch', `the transfer's balanceBefore ${t.balanceBefore} is not the balance carried, ${sh.balance}`);
    movement = (t.kind === 'credit' ? t.credit : t.rollback)!;
  }
  const expected = sharedTransactionId(operator, t.table, t.transfer, attempt, kind);
  if (movement.transaction !== expected)
    stop('transaction_id_mismatch', `the ${kind} of transfer ${t.transfer} has the id ${expected}, the record says ${movement.transaction}`);
  if (movement.amount !== t.amount)
    stop(
      kind === 'debit' ? 'debit_amount_mismatch' : kind === 'credit' ? 'credit_amount_mismatch' : 'rollback_amount_mismatch',
      `the transfer moves ${t.amount}, its ${kind} says ${movement.amount}`,
    );
  if (t.kind === 'debit' && t.balanceBefore !== t.debit!.balanceAfter + t.amount)
    stop(
      'debit_balance_mismatch',
      `the balance before the transfer's debit is its balanceAfter plus its amount, ${t.debit!.balanceAfter + t.amount}; the transfer says ${t.balanceBefore}`,
    );
  w.statement!.transactions.push({
    shoe: t.shoe,
    round: t.sharedRound,
    roundId: `${t.sharedTable}/${t.sharedShoe}/${t.sharedRound}`,
    attempt,
    kind,
    transaction: movement.transaction,
    amount: movement.amount,
    formatted: formatAmount(movement.amount, sh.wallet!.currency),
    transfer: t.transfer,
  });
}
