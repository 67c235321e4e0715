/**
 * The pb-fair-2 verifier on wallet tables (FAIRNESS.md §B15): what it accepts, what it refuses, and
 * the statement its report lists; golden values from the conformance files, which FAIRNESS.md's
 * worked example quotes.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import * as verifyCommand from '../../cli/commands/verify.ts';
import { runInProcess } from '../cli/run-cli.ts';
import { type FairnessFile, importSigningKey, type Jwks, signRecord, verifyText, walletTransactionIds } from '../../shared/index.ts';

const dir = new URL('../vectors/conformance/', import.meta.url);
const read = (name: string) => readFileSync(new URL(name, dir), 'utf8');
const jwks = JSON.parse(read('jwks.json')) as Jwks;
const operator = await importSigningKey(JSON.parse(readFileSync(new URL('../test-key.jwk.json', dir), 'utf8')) as JsonWebKey);

describe('wallet tables: the verifier', () => {
  test('the EUR table verifies, and its report lists every transaction with kind, amount in cents and the currency', async () => {
    const report = await verifyText(read('246-wallet-ok-eur.json'), jwks);
    expect(report.code).toBe('ok');
    const w = report.wallet!;
    expect({ operator: w.operator, player: w.player, currency: w.currency }).toEqual({ operator: 'demo', player: 'alice', currency: 'EUR' });
    // Round 1: a Banker win of €1.15 returns €2.24 (winnings ⌊115 × 19 / 20⌋ = 109 cents).
    expect(w.transactions.slice(0, 2)).toEqual([
      {
        shoe: 1,
        round: 1,
        roundId: 'conformance/1/1',
        attempt: 1,
        kind: 'debit',
        transaction: 'pbw1-19003620c529371a1558c2a8154afbf6',
        amount: 115,
        formatted: '1.15',
      },
      {
        shoe: 1,
        round: 1,
        roundId: 'conformance/1/1',
        attempt: 1,
        kind: 'credit',
        transaction: 'pbw1-7b4a2c20feb224c197a995533d43f845',
        amount: 224,
        formatted: '2.24',
      },
    ]);
    // Round 3 after a refused debit: attempt 4, its ids those of attempt 4; round 2's lost round closed by a zero credit.
    const round = (n: number) => w.transactions.filter((t) => t.shoe === 1 && t.round === n);
    expect(round(2).map((t) => [t.kind, t.amount])).toEqual([
      ['debit', 230],
      ['credit', 0],
    ]);
    expect(round(3).map((t) => [t.kind, t.attempt, t.transaction])).toEqual([
      ['debit', 4, 'pbw1-92d44017cdcc7d53c634740e0cefc188'],
      ['credit', 4, 'pbw1-655c044c773cfaa46ca55f429499ae74'],
    ]);
    const ids = await walletTransactionIds({ operator: 'demo' }, 'conformance', 1, 4);
    expect(ids.ok && ids.value.debit).toBe('pbw1-92d44017cdcc7d53c634740e0cefc188');
    // The voided round 6: its debit and the rollback of the same amount.
    expect(round(6).map((t) => [t.kind, t.amount, t.transaction])).toEqual([
      ['debit', 390, 'pbw1-a10d38a13c814fdb9539f0d9d26d9a4f'],
      ['rollback', 390, 'pbw1-b8ebe8c0f0d8cf1b3ba088a6f7128501'],
    ]);
    // Every acceptance, receipt and void names one transaction, each id once.
    const file = JSON.parse(read('246-wallet-ok-eur.json')) as FairnessFile;
    const named = file.records.filter((r) => ['acceptance', 'receipt', 'void'].includes(r.body.type)).length;
    expect(w.transactions).toHaveLength(named);
    expect(new Set(w.transactions.map((t) => t.transaction)).size).toBe(named);
  });

  test('JPY amounts have no decimals, BHD three', async () => {
    const jpy = await verifyText(read('247-wallet-ok-jpy.json'), jwks);
    expect(jpy.code).toBe('ok');
    expect(jpy.wallet!.currency).toBe('JPY');
    for (const t of jpy.wallet!.transactions) expect(t.formatted).toBe(String(t.amount));
    const bhd = await verifyText(read('248-wallet-ok-bhd.json'), jwks);
    expect(bhd.code).toBe('ok');
    expect(bhd.wallet!.transactions[0]).toMatchObject({ kind: 'debit', amount: 345, formatted: '0.345' });
  });

  test('a play-money table has no wallet in its report', async () => {
    const report = await verifyText(read('001-ok-three-shoes.json'), jwks);
    expect(report.code).toBe('ok');
    expect(report).not.toHaveProperty('wallet');
  });

  test('a failing wallet table lists the transactions checked before the failure, and stops at its one code', async () => {
    const report = await verifyText(read('267-wallet-debit-amount.json'), jwks);
    expect(report.code).toBe('debit_amount_mismatch');
    expect(report.failure).toMatchObject({ shoe: 1, round: 2 });
    expect(report.wallet!.transactions.map((t) => `${t.round}:${t.kind}`)).toEqual(['1:debit', '1:credit', '2:debit']);
  });

  test('a credit re-signed with the id of another attempt is refused even when every amount is right', async () => {
    const file = JSON.parse(read('246-wallet-ok-eur.json')) as FairnessFile;
    const i = file.records.findIndex((r) => r.body.type === 'receipt' && (r.body as { round: number }).round === 3);
    const ids = await walletTransactionIds({ operator: 'demo' }, 'conformance', 1, 3);
    const body = structuredClone(file.records[i]!.body) as unknown as { credit: { transaction: string } };
    body.credit.transaction = ids.ok ? ids.value.credit : '';
    file.records[i] = await signRecord(body as never, operator);
    const report = await verifyText(JSON.stringify(file), jwks);
    expect(report.code).toBe('transaction_id_mismatch');
    expect(report.rounds.at(-1)).toEqual({ shoe: 1, round: 3, status: 'failed', code: 'transaction_id_mismatch' });
  });

  test('one check order (§B10): the wallet before the limits, the debit id before its amount, its amount before the balance', async () => {
    const file = JSON.parse(read('246-wallet-ok-eur.json')) as FairnessFile;
    const resign = async (i: number, change: (body: Record<string, any>) => void) => {
      const copy = structuredClone(file);
      const body = copy.records[i]!.body as unknown as Record<string, any>;
      change(body);
      copy.records[i] = await signRecord(body as never, operator);
      return (await verifyText(JSON.stringify(copy), jwks)).code;
    };
    expect(await resign(0, (b) => ((b.wallet.currency = 'EURO'), (b.limits.min = 102)))).toBe('unknown_currency');
    expect(await resign(0, (b) => ((b.wallet.player = ''), (b.wallet.currency = 'EURO')))).toBe('bad_wallet');
    expect(await resign(2, (b) => ((b.debit.transaction = 'pbw1-x'), (b.debit.amount += 5), (b.balanceBefore += 1)))).toBe('transaction_id_mismatch');
    expect(await resign(2, (b) => ((b.debit.amount += 5), (b.balanceBefore += 1)))).toBe('debit_amount_mismatch');
    expect(await resign(2, (b) => ((b.debit.attempt = 0), (b.debit.amount += 5)))).toBe('attempt_mismatch');
  });

  test('a void without a wallet debit may not carry a rollback (a play shoe)', async () => {
    const file = JSON.parse(read('003-ok-8-decks-no-burn-void-timeout.json')) as FairnessFile;
    const i = file.records.findIndex((r) => r.body.type === 'void');
    const body = { ...structuredClone(file.records[i]!.body), rollback: { transaction: 'pbw1-00000000000000000000000000000000', amount: 0 } };
    file.records[i] = await signRecord(body as never, operator);
    expect((await verifyText(JSON.stringify(file), jwks)).code).toBe('unexpected_transaction');
  });
});

describe('punto-banco verify on a wallet table', () => {
  test('prints every transaction with its round id, kind, amount in the currency and id; --json carries them', async () => {
    const file = fileURLToPath(new URL('247-wallet-ok-jpy.json', dir));
    const keys = fileURLToPath(new URL('jwks.json', dir));
    const text = await runInProcess(verifyCommand, [file, '--jwks', keys]);
    expect(text.code).toBe(0);
    const lines = text.stdout.split('\n');
    expect(lines).toContain('wallet: operator demo, player taro, JPY; 16 transaction(s), each on your casino statement:');
    expect(lines.filter((l) => /^ {2}conformance\/1\/\d+ {2}(debit|credit) /.test(l))).toHaveLength(16);
    const json = JSON.parse((await runInProcess(verifyCommand, [file, '--jwks', keys, '--json'])).stdout);
    expect(json.report.wallet.currency).toBe('JPY');
    expect(json.report.wallet.transactions).toHaveLength(16);
  });
});
