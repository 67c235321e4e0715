/**
 * Shared-table transfers in the session's private pb-fair-2 chain (FAIRNESS.md §B14), inside
 * workerd: private rounds, transfers asked the way a shared table asks them (`sharedTransfer` on
 * the session's stub), more private rounds; the session's transcript verifies with the shared
 * verifier, and a tampered transfer fails with its code.
 */
import { env } from 'cloudflare:workers';
import { describe, expect, test } from 'vitest';
import { type Jwks, type Signed, signRecord, type Transfer, verifyFileText } from '../../shared/index.ts';
import { signingKey } from '../../worker/keys/keys.ts';
import type { WalletTransfer } from '../../worker/shared-table/wallet.ts';
import { api, bet, endShoe, insideTable, play, readySession, type Session, startShoe, state, tableFile } from './helpers.ts';

const jwks = async () => (await api('GET', '/.well-known/jwks.json')).body as Jwks;
const banker = (amount: number) => [{ sector: 0, box: 'banker' as const, amount }];
let ids = 0;
const ask = (kind: WalletTransfer['kind'], amount: number, round = 1): WalletTransfer => ({
  id: (++ids).toString(16).padStart(64, 'e'),
  table: 'hall-1/t',
  shoe: 1,
  round,
  kind,
  amount,
});
const wallet = (s: Session) => env.TABLES.getByName(s.id);

async function verify(s: Session, text?: string) {
  return verifyFileText(text ?? (await tableFile(s)), await jwks(), { playerKey: s.created.playerKey });
}
const transfersOf = async (s: Session) => (JSON.parse(await tableFile(s)).records as Signed[]).filter((r) => r.body.type === 'transfer') as Signed<Transfer>[];

describe('transfer records in the private chain', () => {
  test('private rounds, shared-table transfers, more private rounds and a new shoe: the transcript verifies', async () => {
    const s = await readySession({ room: 'hall-1' });
    await play(s, banker(1000));
    const before = (await state(s)).balance;

    const debit = ask('debit', 700);
    expect(await wallet(s).sharedTransfer(debit)).toMatchObject({ ok: true, balance: before - 700, replayed: false });
    expect(await wallet(s).sharedTransfer(debit)).toMatchObject({ ok: true, balance: before - 700, replayed: true });
    expect(await wallet(s).sharedTransfer(ask('credit', 1300))).toMatchObject({ ok: true, balance: before + 600 });
    // A refused debit changes no balance: it is no record, and stays refused.
    const big = ask('debit', 10_000_000);
    expect(await wallet(s).sharedTransfer(big)).toMatchObject({ ok: false, code: 'insufficient_funds', balance: before + 600 });
    expect(await wallet(s).sharedTransfer(big)).toMatchObject({ ok: false, code: 'insufficient_funds', replayed: true });

    const view = await state(s);
    expect(view.balance).toBe(before + 600);
    expect(view.head.body).toMatchObject({ type: 'transfer', kind: 'credit', amount: 1300, balanceBefore: before - 700, balanceAfter: before + 600 });
    const transfers = await transfersOf(s);
    expect(transfers.map((t) => [t.body.transfer, t.body.kind, t.body.amount])).toEqual([
      [debit.id, 'debit', 700],
      [transfers[1]!.body.transfer, 'credit', 1300],
    ]);
    expect(transfers[0]!.body).toMatchObject({ table: s.id, shoe: 1, sharedTable: 'hall-1/t', sharedShoe: 1, sharedRound: 1, balanceBefore: before });

    // The next bet names the receipt the player saw (the helper's memory), not the transfers: accepted.
    const next = await play(s, banker(1000));
    expect(next.status).toBe(200);
    expect(next.body.receipt.body.balanceBefore).toBe(before + 600);
    // A transfer after the round, then a bet on the table's head (the transfer itself).
    await wallet(s).sharedTransfer(ask('refund', 200, 2));
    s.next = null;
    expect((await play(s, banker(500))).status).toBe(200);
    await wallet(s).sharedTransfer(ask('debit', 100, 3));
    const ended = await endShoe(s);
    expect(ended.status).toBe(200);
    expect(ended.body.reveal.body.closingBalance).toBe((await state(s)).balance);
    // Shoe 2: a transfer before its start; the start follows it.
    await wallet(s).sharedTransfer(ask('credit', 50, 4));
    await startShoe(s);
    await play(s, banker(100));

    const result = await verify(s);
    expect(result.code).toBe('ok');
    const file = JSON.parse(await tableFile(s)) as { records: Signed[] };
    expect(file.records.filter((r) => r.body.type === 'transfer')).toHaveLength(5);
    const start2 = file.records.find((r) => r.body.type === 'start' && r.body.shoe === 2)!;
    expect(file.records[file.records.indexOf(start2) - 1]!.body.type).toBe('transfer');
    // The session's books: five applied, one refused (no record).
    expect((await wallet(s).sharedTransfers()).map((t) => t.applied)).toEqual([true, true, false, true, true, true]);
  });

  test('a tampered transfer fails with its code: amount or balance changed, a transfer recorded twice', async () => {
    const s = await readySession({ room: 'hall-1' });
    await play(s, banker(1000));
    await wallet(s).sharedTransfer(ask('credit', 900));
    await wallet(s).sharedTransfer(ask('debit', 400));
    await play(s, banker(1000));
    const text = await tableFile(s);
    expect((await verify(s, text)).code).toBe('ok');
    const file = JSON.parse(text) as { version: string; records: Signed[] };
    const at = file.records.findIndex((r) => r.body.type === 'transfer');
    const key = await signingKey(env);
    const forged = async (change: (b: Transfer) => void) => {
      const records = structuredClone(file.records);
      const body = records[at]!.body as Transfer;
      change(body);
      records[at] = await signRecord(body, key);
      return JSON.stringify({ ...file, records });
    };
    // Unsigned edit: the hash no longer matches.
    const edited = structuredClone(file);
    (edited.records[at]!.body as Transfer).amount += 100;
    expect((await verify(s, JSON.stringify(edited))).code).toBe('hash_mismatch');
    // Re-signed by the operator: the balances give it away.
    expect((await verify(s, await forged((b) => (b.amount += 100)))).code).toBe('balance_mismatch');
    expect((await verify(s, await forged((b) => (b.balanceAfter += 100)))).code).toBe('balance_mismatch');
    const second = file.records[at + 1]!.body as Transfer;
    const dup = structuredClone(file.records);
    dup[at + 1] = await signRecord({ ...second, transfer: (file.records[at]!.body as Transfer).transfer }, key);
    expect((await verify(s, JSON.stringify({ ...file, records: dup }))).code).toBe('duplicate_transfer');
  });

  test('a transfer after a void postpones the idle reveal; the void-timeout reveal follows the transfer and verifies', async () => {
    const s = await readySession({ room: 'hall-1' });
    await play(s, banker(1000));
    const accepted = await bet(s, banker(1000));
    expect(accepted.status).toBe(200);
    // A shared table asks while the round is open: busy, nothing recorded.
    expect(await wallet(s).sharedTransfer(ask('credit', 300))).toMatchObject({ ok: false, code: 'session_busy' });
    const vas = (await state(s)).shoe.params.voidAfterSeconds * 1000;
    const later = (ms: number) =>
      insideTable(s.id, async (t) => {
        const base = t.clock;
        t.clock = () => base() + ms;
        await t.alarm();
      });
    await later(vas + 1000); // the round is voided
    expect((await state(s)).head.body.type).toBe('void');
    await insideTable(s.id, (t) => {
      const base = t.clock;
      t.clock = () => base() + vas / 2;
    });
    expect(await wallet(s).sharedTransfer(ask('credit', 300))).toMatchObject({ ok: true });
    // voidAfterSeconds after the void, but not after the transfer: the shoe is still in play.
    await later(vas / 2 + 1000);
    expect((await state(s)).shoe.number).toBe(1);
    await later(vas);
    const after = await state(s);
    expect(after.shoe.number).toBe(2);
    const file = JSON.parse(await tableFile(s)) as { records: Signed[] };
    const reveal = file.records.find((r) => r.body.type === 'reveal')!;
    expect(reveal.body).toMatchObject({ reason: 'void-timeout', closingBalance: after.balance });
    expect(file.records[file.records.indexOf(reveal) - 1]!.body.type).toBe('transfer');
    expect((await verify(s)).code).toBe('ok');
  });

  test('rows written: a transfer writes its outcome and its record; a settled round still writes one per phase', async () => {
    const s = await readySession({ room: 'hall-1' });
    await play(s, banker(1000));
    await wallet(s).sharedTransfer(ask('credit', 100));
    await wallet(s).sharedTransfer(ask('debit', 100));
    await wallet(s).sharedTransfer(ask('debit', 10_000_000));
    await play(s, banker(1000));
    const stats = await wallet(s).stats();
    expect(stats.changes.bet).toEqual({ count: 2, rowsWritten: 2 });
    expect(stats.changes.secret).toEqual({ count: 2, rowsWritten: 2 });
    // shared_transfers (WITHOUT ROWID: one row), the record (which states the balance after it).
    expect(stats.changes.transfer).toEqual({ count: 2, rowsWritten: 4 });
    expect(stats.changes['transfer-refused']).toEqual({ count: 1, rowsWritten: 1 });
  });
});
