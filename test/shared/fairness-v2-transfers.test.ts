/** pb-fair-2 transfer records (FAIRNESS.md §B14): a shared table's movements of the balance inside the private chain. */
import { describe, expect, test } from 'vitest';
import {
  compareCopies,
  type FairnessFile,
  owedRound,
  secretFor,
  sharedTransferId,
  type Signed,
  signRecord,
  type TransferAsk,
  type Transfer,
  unseenTransfers,
  verifyText,
} from '../../shared/index.ts';
import { playPrivateTable, type RoundScript, type ShoeScript } from '../players/pb-fair-2.ts';
import { ONE_DECK_V2, vectorSecret } from '../vectors/compute-v2.ts';
import { SEED_A, SEED_B } from '../vectors/inputs.ts';
import { testJwks, testKey, testPlayerKey } from './fairness-fixtures.ts';

const operator = await testKey();
const player = await testPlayerKey();
const jwks = await testJwks();

const ask = (n: number, kind: TransferAsk['kind'], amount: number): TransferAsk => ({
  id: sharedTransferId('hall-1/a', 1, n, 'seat-key', kind),
  table: 'hall-1/a',
  shoe: 1,
  round: n,
  kind,
  amount,
});
const rounds = (n: number, before: Record<number, Partial<RoundScript>> = {}): RoundScript[] =>
  Array.from({ length: n }, (_, i) => ({ bets: [{ sector: 0, box: 'banker', amount: 1000 }], secret: vectorSecret(i + 1), ...before[i + 1] }));
const shoe = (serverSeed: string, r: RoundScript[], extra: Partial<ShoeScript> = {}): ShoeScript => ({
  params: ONE_DECK_V2,
  serverSeed,
  clientSeed: 'transfers',
  cut: 17,
  rounds: r,
  ...extra,
});
const play = (shoes: ShoeScript[]) => playPrivateTable({ table: 'v2-transfers', operatorKey: operator, playerKey: player, openingBalance: 100_000, shoes });
const verify = (file: Pick<FairnessFile, 'records'>) => verifyText(JSON.stringify({ version: 'pb-fair-2', records: file.records }), jwks);
const indexOfType = (file: FairnessFile, type: string, nth = 1) => {
  let seen = 0;
  return file.records.findIndex((r) => r.body.type === type && ++seen === nth);
};
/** The file with record `i` changed and re-signed by the operator, and every later record re-chained and re-signed. */
async function forge(file: FairnessFile, i: number, change: (body: any) => void): Promise<FairnessFile> {
  const records = structuredClone(file.records);
  change(records[i]!.body);
  records[i] = await signRecord(records[i]!.body, operator);
  return { version: 'pb-fair-2', records };
}

/** Two shoes: transfers before the first start, between rounds, before a player's end and across the shoes. */
const withTransfers = () =>
  play([
    shoe(SEED_A, rounds(4, { 2: { transfersBefore: [ask(1, 'debit', 3000), ask(1, 'credit', 5800)] }, 4: { transfersBefore: [ask(2, 'debit', 500)] } }), {
      transfersBeforeStart: [ask(3, 'credit', 1200)],
      transfersBeforeEnd: [ask(2, 'refund', 500)],
      end: 'player',
    }),
    shoe(SEED_B, rounds(2), { transfersBeforeStart: [ask(4, 'debit', 2000)], end: 'player' }),
  ]);

describe('pb-fair-2 transfer records', () => {
  test('a chain with transfers verifies: the balance runs through them into the next round, the reveal and the next shoe', async () => {
    const file = await withTransfers();
    const transfers = file.records.filter((r) => r.body.type === 'transfer') as Signed<Transfer>[];
    expect(transfers.map((t) => [t.body.kind, t.body.amount])).toEqual([
      ['credit', 1200],
      ['debit', 3000],
      ['credit', 5800],
      ['debit', 500],
      ['refund', 500],
      ['debit', 2000],
    ]);
    for (const t of transfers) expect(t.body.balanceAfter - t.body.balanceBefore).toBe(t.body.kind === 'debit' ? -t.body.amount : t.body.amount);
    const report = await verify(file);
    expect(report.failure).toBeUndefined();
    expect(report.code).toBe('ok');
    expect(report.rounds.map((r) => r.status)).toEqual(Array(6).fill('verified'));
    // The first start follows the transfer after the commitment; the next shoe opens with the balance after every transfer.
    const start = file.records[indexOfType(file, 'start')]!;
    expect(start.body.prev).toBe(transfers[0]!.hash);
    const reveal = file.records[indexOfType(file, 'reveal')]!.body as { closingBalance: number };
    expect(reveal.closingBalance).toBe(transfers[4]!.body.balanceAfter);
  });

  test('a bet or end request may name the newest record the player saw before the transfers (or the transfer itself)', async () => {
    const seen = await play([
      shoe(SEED_A, rounds(2, { 2: { transfersBefore: [ask(1, 'credit', 100)], betFollows: 'seen' } }), {
        transfersBeforeEnd: [ask(2, 'credit', 100)],
        endFollows: 'seen',
        end: 'player',
      }),
    ]);
    expect((await verify(seen)).code).toBe('ok');
    const acceptance = seen.records[indexOfType(seen, 'acceptance', 2)]!.body as { prev: string; request: { body: { prev: string } } };
    expect(acceptance.request.body.prev).not.toBe(acceptance.prev);
  });

  test('each transfer rule fails with its code', async () => {
    const file = await withTransfers();
    const t = indexOfType(file, 'transfer', 2); // the debit of 3000 between rounds 1 and 2
    const cases: [string, (b: any) => void][] = [
      ['balance_mismatch', (b) => (b.amount += 100)],
      ['balance_mismatch', (b) => (b.balanceAfter += 100)],
      ['balance_mismatch', (b) => ((b.balanceBefore += 100), (b.balanceAfter += 100))],
      ['transfer_overdrawn', (b) => ((b.amount = b.balanceBefore + 1), (b.balanceAfter = 0))],
      ['bad_transfer', (b) => (b.kind = 'gift')],
      ['bad_transfer', (b) => (b.amount = 0)],
      ['bad_transfer', (b) => (b.transfer = 'ABC')],
      ['bad_transfer', (b) => (b.sharedRound = 0)],
      ['bad_record', (b) => (b.balanceAfter = -1)],
      ['bad_record', (b) => (b.note = 'x')],
      ['duplicate_transfer', (b) => (b.transfer = (file.records[indexOfType(file, 'transfer')]!.body as Transfer).transfer)],
    ];
    for (const [code, change] of cases) {
      const forged = await forge(file, t, change);
      const report = await verify(forged);
      expect(report.code, `${code}: ${report.failure?.message}`).toBe(code);
      expect(report.failure!.index).toBe(t);
    }
  });

  test('a transfer inside a round, after a reveal or first in a file is out of place', async () => {
    const file = await withTransfers();
    const acceptance = indexOfType(file, 'acceptance', 2);
    const transfer = file.records[indexOfType(file, 'transfer', 2)]!.body as Transfer;
    // A transfer right after the acceptance (the file cut there): the balance moved inside the round.
    const inRound = { ...transfer, prev: file.records[acceptance]!.hash, issuedAt: file.records[acceptance]!.body.issuedAt };
    const r1 = await verify({ records: [...file.records.slice(0, acceptance + 1), await signRecord(inRound, operator)] });
    expect(r1.code).toBe('transfer_in_round');
    const reveal = indexOfType(file, 'reveal');
    const afterReveal = { ...transfer, prev: file.records[reveal]!.hash, issuedAt: file.records[reveal]!.body.issuedAt };
    expect((await verify({ records: [...file.records.slice(0, reveal + 1), await signRecord(afterReveal, operator)] })).code).toBe('out_of_sequence');
    expect((await verify({ records: [await signRecord({ ...transfer, prev: transfer.prev }, operator)] })).code).toBe('out_of_sequence');
  });

  test('a dropped or reordered transfer breaks the chain; a bet naming neither the head nor the newest private record is a request mismatch', async () => {
    const file = await withTransfers();
    const t = indexOfType(file, 'transfer', 2);
    expect((await verify({ records: file.records.filter((_, i) => i !== t) })).code).toBe('chain_broken');
    const forged = await forge(file, t + 2, (b) => (b.request.body.prev = file.records[t]!.hash));
    // The acceptance's embedded request changed: the player's signature fails first.
    expect((await verify(forged)).code).toBe('bad_player_signature');
  });

  test("the player's copy: transfers it never saw are no finding but are listed; one it holds that the operator drops or changes is", async () => {
    const theirs = await withTransfers();
    const mine = { records: theirs.records.filter((r) => r.body.type !== 'transfer') };
    expect(compareCopies(mine, theirs)).toEqual([]);
    expect(unseenTransfers(mine, theirs).map((r) => r.body.amount)).toEqual([1200, 3000, 5800, 500, 500, 2000]);
    expect(unseenTransfers(theirs, theirs)).toEqual([]);
    // The player's copy holds the first transfer (the session view's head once showed it).
    const held = { records: theirs.records.filter((r, i) => r.body.type !== 'transfer' || i === indexOfType(theirs, 'transfer')) };
    const t = indexOfType(theirs, 'transfer');
    const changed = await forge(theirs, t, (b) => (b.issuedAt = b.issuedAt.replace(/\.000Z$/, '.001Z')));
    expect(compareCopies(held, changed).map((f) => [f.code, f.type])).toEqual([['differs_from_player_copy', 'transfer']]);
    const dropped = { records: theirs.records.filter((_, i) => i !== t) };
    expect(compareCopies(held, dropped).map((f) => [f.code, f.type])).toEqual([['missing_in_operator_copy', 'transfer']]);
    expect(unseenTransfers(held, theirs)).toHaveLength(5);
  });

  test('an owed round is dealt across transfers before the start and between rounds', async () => {
    const script = rounds(3, { 1: { transfersBefore: [ask(1, 'credit', 100)] } }).map((r, i) => (i === 2 ? { ...r, fate: 'unsettled' as const } : r));
    const file = await play([shoe(SEED_A, script, { transfersBeforeStart: [ask(2, 'credit', 100)], end: 'player' })]);
    const report = await verify(file);
    expect(report.code).toBe('unsettled_acceptance');
    const acceptance = report.unsettled[0]!.acceptance;
    const owed = owedRound(file, acceptance, secretFor(file, acceptance)!, SEED_A);
    expect(owed.ok).toBe(true);
    if (owed.ok) expect(owed.value.balanceBefore).toBe((file.records[report.unsettled[0]!.index]!.body as { balanceBefore: number }).balanceBefore);
  });

  test("the shared table's transfer id is the pb-shared-1 settlement's (table, shoe, round, player, kind)", () => {
    const id = sharedTransferId('hall-1/a', 2, 7, 'PUAXw-hDiVqStwqnTRt-vJyYLM8uxJaMwM1V8Sr0Zgw', 'debit');
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    expect(id).not.toBe(sharedTransferId('hall-1/a', 2, 7, 'PUAXw-hDiVqStwqnTRt-vJyYLM8uxJaMwM1V8Sr0Zgw', 'credit'));
  });
});
