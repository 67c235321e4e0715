/**
 * Shared tables in wallet mode, the pure parts: the transaction ids of a shared table's movements
 * (WALLET.md §12 and FAIRNESS.md §B15 "Shared tables", their worked examples), whether a wallet
 * seat fits a shared table, and the limits' totals with shared bets counted.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { sharedTransactionId, sharedTransactionPreimage, sharedTransferId, type Signed, type Transfer, verifyText } from '../../shared/index.ts';
import { ROOMS, type TableLimits } from '../../shared/table.ts';
import { defaultCurrencyLimits, sharedSeatError, startLimits, stepLimits, withSharedTotals } from '../../shared/wallet/index.ts';

const conformance = new URL('../vectors/conformance/', import.meta.url);
const read = (name: string) => readFileSync(new URL(name, conformance), 'utf8');
const limitsOf = (currency: string): TableLimits => (defaultCurrencyLimits('hall-1', currency) as { ok: true; value: TableLimits }).value;

describe('shared-table transaction ids', () => {
  test("WALLET.md §12's worked example", () => {
    const key = 'PUAXw-hDiVqStwqnTRt-vJyYLM8uxJaMwM1V8Sr0Zgw';
    const debit = sharedTransferId('hall-1/a', 1, 3, key, 'debit');
    const credit = sharedTransferId('hall-1/a', 1, 3, key, 'credit');
    expect(debit).toBe('a89d7cc98e60465fc447575ae5d5965799988c7f45135eaa83852061898ba271');
    expect(sharedTransactionPreimage('demo', 's-7f3a', debit, 1, 'debit')).toBe(`pb-wallet-shared-1\ndemo\ns-7f3a\n${debit}\n1\ndebit`);
    expect(sharedTransactionId('demo', 's-7f3a', debit, 1, 'debit')).toBe('pbw1-80c335be21d3fb48a34587d83c6854c2');
    expect(sharedTransactionId('demo', 's-7f3a', debit, 1, 'rollback')).toBe('pbw1-be0c80ee81ecb641ca48500238447678');
    expect(credit.startsWith('b3e357a4') && credit.endsWith('ded1a1')).toBe(true);
    expect(sharedTransactionId('demo', 's-7f3a', credit, 1, 'credit')).toBe('pbw1-51aba368d68847d9edfe3dc4229bc919');
  });

  test("FAIRNESS.md §B15's worked example is conformance case 274, which verifies", async () => {
    const text = read('274-wallet-transfers-ok.json');
    const transfers = (JSON.parse(text).records as Signed[]).filter((r) => r.body.type === 'transfer').map((r) => r.body as Transfer);
    expect(transfers[0]).toMatchObject({
      transfer: sharedTransferId('hall-1/shared', 1, 1, 'shared-seat', 'debit'),
      balanceBefore: 50_000,
      balanceAfter: 49_000,
      debit: { transaction: 'pbw1-f91484c3c35f6be80fa3404564b8af9f', attempt: 1, amount: 1_000, balanceAfter: 49_000 },
    });
    expect(transfers[1]).toMatchObject({
      balanceBefore: 49_000,
      balanceAfter: 50_950,
      credit: { transaction: 'pbw1-5cc1046b3d6c05f563b616633fd1f9b3', amount: 1_950 },
    });
    expect(transfers[2]).toMatchObject({ balanceBefore: 51_273, balanceAfter: 50_773 });
    expect(transfers[3]).toMatchObject({ amount: 0, credit: { transaction: 'pbw1-fc85daf52ad142c5ec9f2004a78ad13f', amount: 0 } });
    expect(transfers[5]!.rollback).toEqual({ transaction: 'pbw1-20df3117679fa3a346df506c63581e0b', amount: 700 });
    const report = await verifyText(text, JSON.parse(read('jwks.json')));
    expect(report.ok).toBe(true);
    const shared = report.wallet!.transactions.filter((t) => t.transfer !== undefined);
    expect(shared.map((t) => [t.kind, t.amount, t.roundId])).toEqual([
      ['debit', 1_000, 'hall-1/shared/1/1'],
      ['credit', 1_950, 'hall-1/shared/1/1'],
      ['debit', 500, 'hall-1/shared/1/2'],
      ['credit', 0, 'hall-1/shared/1/2'],
      ['debit', 700, 'hall-1/shared/1/3'],
      ['rollback', 700, 'hall-1/shared/1/3'],
      ['debit', 200, 'hall-1/shared/1/4'],
      ['credit', 400, 'hall-1/shared/1/4'],
    ]);
  });
});

describe('a wallet seat at a shared table', () => {
  test("fits when the session's limits in its currency take every stake of the table's room", () => {
    const table = ROOMS['hall-1'].limits;
    expect(sharedSeatError(table, { ...table }, 'EUR')).toBeNull();
    // BHD's default limits are the play limits read in fils: they fit.
    expect(sharedSeatError(table, limitsOf('BHD'), 'BHD')).toBeNull();
    // EUR's defaults (0.10–10.00) do not take 1.00–100.00; a step the table's is no multiple of does not fit either.
    expect(sharedSeatError(table, limitsOf('EUR'), 'EUR')).toMatch(/1\.00–100\.00 EUR/);
    expect(sharedSeatError(table, { ...table, min: 1, step: 3 }, 'EUR')).not.toBeNull();
    expect(sharedSeatError(table, { ...table, max: 9_999 }, 'JPY')).not.toBeNull();
  });
});

describe('the limits count shared bets', () => {
  test('a stake counts as wagered and lost until its credit; a refund undoes both', () => {
    const state = { ...startLimits(0), wagered: 300, net: -100 };
    expect(withSharedTotals(state, { debited: 1_000, credited: 0, refunded: 0 })).toMatchObject({ wagered: 1_300, net: -1_100 });
    expect(withSharedTotals(state, { debited: 1_000, credited: 1_950, refunded: 0 })).toMatchObject({ wagered: 1_300, net: 850 });
    expect(withSharedTotals(state, { debited: 1_000, credited: 0, refunded: 1_000 })).toMatchObject({ wagered: 300, net: -100 });
    // The loss limit then holds across tables: 1,100 down, a bet of 500 could take it past 1,500.
    const step = stepLimits({ lossLimit: 1_500 }, withSharedTotals(state, { debited: 1_000, credited: 0, refunded: 0 }), { type: 'bet', stake: 500 }, 0);
    expect(step.decision).toMatchObject({ kind: 'refuse', error: { code: 'loss_limit' } });
  });
});
