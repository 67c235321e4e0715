/** pb-fair-2 in wallet mode (FAIRNESS.md §B15): the builders' wallet fields, the transaction ids, the shapes. */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import {
  type Acceptance,
  BODIES,
  betRequest,
  buildAcceptance,
  buildVoid,
  checkWalletOfShoe,
  commissionRuleOf,
  type FairnessFile,
  importSigningKey,
  type Receipt,
  type Signed,
  signRequest,
  type Void,
  walletTransactionIds,
} from '../../shared/index.ts';
import { walletTransactionId } from '../../shared/wallet/transaction.ts';
import { playPrivateTable, type RoundScript, type ShoeScript } from '../players/pb-fair-2.ts';
import { ONE_DECK_V2, vectorSecret } from '../vectors/compute-v2.ts';
import { SEED_A } from '../vectors/inputs.ts';

const dir = new URL('../vectors/', import.meta.url);
const jwk = (name: string) => JSON.parse(readFileSync(new URL(name, dir), 'utf8')) as JsonWebKey;
const operator = await importSigningKey(jwk('test-key.jwk.json'));
const player = await importSigningKey(jwk('player-key.jwk.json'));
const WALLET = { operator: 'demo', player: 'alice', currency: 'JPY' };

const rounds = (n: number, extra: (i: number) => Partial<RoundScript> = () => ({}), amount = 15): RoundScript[] =>
  Array.from({ length: n }, (_, i) => ({ bets: [{ sector: 0, box: 'banker', amount }], secret: vectorSecret(i + 1), ...extra(i + 1) }));
const shoe = (r: RoundScript[]): ShoeScript => ({
  params: ONE_DECK_V2,
  limits: { min: 5, max: 5000, step: 5, chips: [5, 15, 100] },
  serverSeed: SEED_A,
  clientSeed: 'wallet',
  cut: 17,
  rounds: r,
});
const play = (r: RoundScript[], wallet: typeof WALLET | null = WALLET) =>
  playPrivateTable({ table: 's-7f3a', operatorKey: operator, playerKey: player, openingBalance: 10_000, shoes: [shoe(r)], ...(wallet ? { wallet } : {}) });
const of = <T>(file: FairnessFile, type: string) => file.records.filter((r) => r.body.type === type) as Signed<T & Acceptance>[];

describe('wallet transaction ids', () => {
  test('walletTransactionIds gives the WALLET.md §3 worked example for attempt 12', async () => {
    const ids = await walletTransactionIds({ operator: 'demo' }, 's-7f3a', 1, 12);
    expect(ids).toEqual({
      ok: true,
      value: {
        debit: 'pbw1-40b4b41da353574977eb80a79251c868',
        credit: 'pbw1-e0dcca8e62daec29e58bfa7b877c23a4',
        rollback: 'pbw1-b919fcd64d3c4a755dafc1b11d552c27',
      },
    });
  });

  test('a table id the wallet cannot take as a session id is refused, not hashed', async () => {
    const ids = await walletTransactionIds({ operator: 'demo' }, 'a table', 1, 1);
    expect(ids.ok).toBe(false);
  });

  test('checkWalletOfShoe: ids of the WALLET.md form and a real ISO 4217 currency', () => {
    expect(checkWalletOfShoe(WALLET, 's-7f3a').ok).toBe(true);
    expect(checkWalletOfShoe({ ...WALLET, currency: 'EURO' }, 's-7f3a')).toMatchObject({ ok: false, error: { code: 'unknown_currency' } });
    expect(checkWalletOfShoe({ ...WALLET, currency: 'XAU' }, 's-7f3a')).toMatchObject({ ok: false, error: { code: 'unknown_currency' } });
    expect(checkWalletOfShoe({ ...WALLET, player: 'al ice' }, 's-7f3a')).toMatchObject({ ok: false, error: { code: 'bad_wallet' } });
    expect(checkWalletOfShoe({ ...WALLET, operator: '' }, 's-7f3a')).toMatchObject({ ok: false, error: { code: 'bad_wallet' } });
    expect(checkWalletOfShoe(WALLET, 'a/b')).toMatchObject({ ok: false, error: { code: 'bad_wallet' } });
  });
});

describe('wallet-mode builders', () => {
  test('play mode: no wallet member on any record', async () => {
    const file = await play(rounds(3, undefined, 20), null);
    for (const r of file.records) {
      const body = r.body as unknown as Record<string, unknown>;
      for (const member of ['wallet', 'debit', 'credit', 'rollback']) expect(body, `${body.type} ${member}`).not.toHaveProperty(member);
    }
    expect(commissionRuleOf(file.records[0]!.body as { wallet?: undefined })).toBe('exact');
  });

  test('the commitment names the wallet; each acceptance its debit, each receipt its credit, with derived ids', async () => {
    const file = await play(rounds(6, (i) => (i === 3 ? { failedDebitsBefore: 2, walletMoved: 500 } : {})));
    const commitment = file.records[0]!.body as { wallet?: typeof WALLET };
    expect(commitment.wallet).toEqual(WALLET);
    expect(commissionRuleOf(commitment)).toBe('round-down');
    const acceptances = of<Acceptance>(file, 'acceptance');
    const receipts = file.records.filter((r) => r.body.type === 'receipt') as Signed<Receipt>[];
    expect(acceptances.map((a) => a.body.debit!.attempt)).toEqual([1, 2, 5, 6, 7, 8].slice(0, acceptances.length));
    for (const [i, a] of acceptances.entries()) {
      const d = a.body.debit!;
      const ids = await walletTransactionIds(WALLET, 's-7f3a', 1, d.attempt);
      expect(ids.ok && d.transaction).toBe(ids.ok && ids.value.debit);
      expect(d.amount).toBe(15);
      expect(a.body.balanceBefore).toBe(d.balanceAfter + d.amount);
      const r = receipts[i]!.body;
      expect(r.credit).toEqual({ transaction: ids.ok && ids.value.credit, amount: r.returned });
      expect(r.balanceAfter).toBe(r.balanceBefore - r.staked + r.returned);
    }
    // The wallet's balance moved by 500 before round 3's debit: its balanceBefore is the wallet's, not the chain's.
    expect(acceptances[2]!.body.balanceBefore).toBe(receipts[1]!.body.balanceAfter + 500);
  });

  test('a wallet shoe settles with round-down: a 15 JPY Banker win returns 29, a lost round a zero credit', async () => {
    const file = await play(rounds(8));
    const receipts = file.records.filter((r) => r.body.type === 'receipt').map((r) => r.body as Receipt);
    const banker = receipts.find((r) => r.outcome === 'banker');
    const lost = receipts.find((r) => r.outcome === 'player');
    expect(banker?.returned).toBe(29);
    expect(banker?.credit?.amount).toBe(29);
    expect(lost?.credit?.amount).toBe(0);
  });

  test('a voided wallet round carries the rollback of its debit: the stake', async () => {
    const file = await play(rounds(2, (i) => (i === 2 ? { fate: 'void' } : {})));
    const v = file.records.find((r) => r.body.type === 'void')!.body as Void;
    const ids = await walletTransactionIds(WALLET, 's-7f3a', 1, 2);
    expect(v.rollback).toEqual({ transaction: ids.ok && ids.value.rollback, amount: 15 });
    expect(v.balanceAfter).toBe(v.balanceBefore);
  });

  test("the builders refuse a caller's wallet mistakes: a debit that is not the stake, a balance that does not add up, a missing rollback id", async () => {
    const file = await play(rounds(1));
    const start = file.records[1]!;
    const request = await signRequest(betRequest(start, 1, [{ sector: 0, box: 'banker', amount: 15 }], vectorSecret(1)), player);
    const id = await walletTransactionId({ operatorId: 'demo', sessionId: 's-7f3a', shoe: 1, round: 1, kind: 'debit' });
    const debit = { transaction: id.ok ? id.value : '', attempt: 1, amount: 15, balanceAfter: 100 };
    const args = { last: start, round: 1, request, limits: shoe([]).limits!, affiliate: null, keyId: operator.keyId, issuedAt: '2025-01-01T12:00:05.000Z' };
    const built = buildAcceptance({ ...args, debit });
    expect(built.ok && built.value.balanceBefore).toBe(115);
    expect(buildAcceptance({ ...args, debit, balanceBefore: 115 }).ok).toBe(true);
    expect(() => buildAcceptance({ ...args, debit, balanceBefore: 116 })).toThrow(RangeError);
    expect(() => buildAcceptance({ ...args, debit: { ...debit, amount: 14 } })).toThrow(RangeError);
    // The debit's balance before must cover the stake like any balance.
    expect(buildAcceptance({ ...args, debit: { ...debit, amount: 15, balanceAfter: 0 } }).ok).toBe(true);
    const acceptance = file.records[2] as Signed<Acceptance>;
    expect(() => buildVoid(acceptance, operator.keyId, '2025-01-02T00:00:00.000Z')).toThrow(RangeError);
    const play1 = await play(rounds(1, undefined, 20), null);
    expect(() => buildVoid(play1.records[2] as Signed<Acceptance>, operator.keyId, '2025-01-02T00:00:00.000Z', 'pbw1-00')).toThrow(RangeError);
  });
});

describe('wallet-mode shapes', () => {
  const commitment = {
    type: 'commitment',
    table: 't',
    shoe: 1,
    keyId: 'k',
    issuedAt: '2025-01-01T12:00:00.000Z',
    params: {},
    serverSeedHash: '0'.repeat(64),
    playerKey: 'x',
    openingBalance: 0,
    prev: null,
  };
  const head = { table: 't', shoe: 1, keyId: 'k', issuedAt: '2025-01-01T12:00:00.000Z', round: 1, prev: '0'.repeat(64) };
  const movement = { transaction: 'pbw1-0', amount: 0 };

  test('each wallet member is accepted on its own record type, with exactly its members', () => {
    expect(BODIES.commitment!({ ...commitment, wallet: WALLET }, 'b')).toBeNull();
    expect(BODIES.commitment!({ ...commitment, wallet: { ...WALLET, extra: 1 } }, 'b')).toMatch(/unknown member "extra"/);
    expect(BODIES.commitment!({ ...commitment, wallet: { operator: 'demo', player: 'alice' } }, 'b')).toMatch(/currency is missing/);
    expect(BODIES.commitment!({ ...commitment, debit: {} }, 'b')).toMatch(/unknown member "debit"/);
    const v = { type: 'void', ...head, balanceBefore: 5, balanceAfter: 5 };
    expect(BODIES.void!({ ...v, rollback: movement }, 'b')).toBeNull();
    expect(BODIES.void!({ ...v, rollback: { ...movement, amount: -1 } }, 'b')).toMatch(/must not be negative/);
    expect(BODIES.void!({ ...v, credit: movement }, 'b')).toMatch(/unknown member "credit"/);
    expect(BODIES.void!({ ...v, rollback: null }, 'b')).toMatch(/must be an object/);
  });
});
