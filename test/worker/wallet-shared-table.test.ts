/**
 * Shared tables in wallet mode, inside workerd, against a scripted wallet (wallet-script.ts): a
 * shared table's transfers become calls of the player's wallet, sent by the player's session with
 * the private table's exactly-once rules. The transfers are asked the way a shared table asks them
 * (`sharedTransfer` on the session's stub) for each wallet outcome, then a real round is played at
 * a shared table through its WebSocket; the records verify and the wallet's books equal them.
 */
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, test } from 'vitest';
import { type Jwks, sharedTransactionId, sharedTransferId, type Signed, type Transfer, verifyText } from '../../shared/index.ts';
import { ROOMS } from '../../shared/table.ts';
import type { Table } from '../../worker/session/table.ts';
import type { WalletTransfer } from '../../worker/shared-table/wallet.ts';
import { api, createSession, type Session, state, tableFile } from './helpers.ts';
import { join, upgrade } from './shared-helpers.ts';
import { attach, type Fault, ScriptedWallet, tableOf, walletSession } from './wallet-script.ts';

const jwks = async () => (await api('GET', '/.well-known/jwks.json')).body as Jwks;
/** EUR limits that take a Hall 1 shared table's stakes (1.00–100.00 EUR in cents). */
const FITTING = { ...ROOMS['hall-1'].limits };
const ALL_TIME = ['2000-01-01T00:00:00.000Z', '2100-01-01T00:00:00.000Z'] as const;

async function ready(wallet: ScriptedWallet, over: Parameters<typeof walletSession>[1] = {}): Promise<Session & { playerId: string }> {
  const { s, init, status, body } = await walletSession(wallet, { tableLimits: FITTING, ...over });
  expect(status, JSON.stringify(body)).toBe(201);
  return Object.assign(s, { playerId: init.playerId });
}

let ids = 0;
const hex = () => (++ids).toString(16).padStart(64, 'd');
/** A debit as a shared table asks it, and the credit or refund of the same bet naming it. */
const debit = (amount: number, round = 1): WalletTransfer => ({ id: hex(), table: 'hall-1/w', shoe: 1, round, kind: 'debit', amount });
const closing = (of: WalletTransfer, kind: 'credit' | 'refund', amount: number): WalletTransfer => ({ ...of, id: hex(), kind, amount, debit: of.id });

const transfersOf = async (s: Session) =>
  (JSON.parse(await tableFile(s)).records as Signed[]).filter((r) => r.body.type === 'transfer').map((r) => (r as Signed<Transfer>).body);

async function verified(s: Session) {
  const report = await verifyText(await tableFile(s), await jwks(), { playerKey: s.created.playerKey });
  expect(report.ok, JSON.stringify(report)).toBe(true);
  return report;
}

/** Until the wallet has acknowledged every owed payment (the alarm delivers them, with backoff). */
async function drained(s: Session, wallet: ScriptedWallet): Promise<void> {
  for (let i = 0; i < 150; i++) {
    await attach(s.id, wallet);
    await runDurableObjectAlarm(tableOf(s.id));
    if ((await state(s)).wallet.pendingPayments.length === 0) return;
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error('the outbox never emptied');
}

const debitsSent = (wallet: ScriptedWallet, txn: string) => wallet.received.filter((r) => r.call.kind === 'debit' && r.call.transactionId === txn).length;

describe('wallet mode at shared tables: the session sends the wallet call', () => {
  test('a debit applied: the transfer record carries the wallet debit; its credit and a zero credit are owed and delivered; the records verify', async () => {
    const wallet = new ScriptedWallet();
    const s = await ready(wallet);
    const d = debit(500);
    const applied = await tableOf(s.id).sharedTransfer(d);
    expect(applied).toMatchObject({ ok: true, balance: 99_500, replayed: false, currency: 'EUR' });
    // The table asks again (its answer was lost): the stored answer, no second debit.
    expect(await tableOf(s.id).sharedTransfer(d)).toMatchObject({ ok: true, balance: 99_500, replayed: true });
    const txn = sharedTransactionId('demo', s.id, d.id, 1, 'debit');
    expect(debitsSent(wallet, txn)).toBe(1);
    expect(wallet.balance(s.playerId)).toBe(99_500);

    // Its credit (a win), and a lost bet's zero credit.
    const credit = closing(d, 'credit', 975);
    expect(await tableOf(s.id).sharedTransfer(credit)).toMatchObject({ ok: true, balance: 100_475 });
    const lost = debit(200, 2);
    expect(await tableOf(s.id).sharedTransfer(lost)).toMatchObject({ ok: true });
    const zero = closing(lost, 'credit', 0);
    expect(await tableOf(s.id).sharedTransfer(zero)).toMatchObject({ ok: true });
    await drained(s, wallet);
    expect(wallet.balance(s.playerId)).toBe(100_000 - 500 + 975 - 200);
    expect(wallet.moved()).toEqual({ debits: 700, credits: 975, rollbacks: 0 });

    const records = await transfersOf(s);
    expect(records.map((t) => [t.kind, t.amount])).toEqual([
      ['debit', 500],
      ['credit', 975],
      ['debit', 200],
      ['credit', 0],
    ]);
    expect(records[0]).toMatchObject({
      balanceBefore: 100_000,
      balanceAfter: 99_500,
      debit: { transaction: txn, attempt: 1, amount: 500, balanceAfter: 99_500 },
    });
    expect(records[1]!.credit).toEqual({ transaction: sharedTransactionId('demo', s.id, credit.id, 1, 'credit'), amount: 975 });
    expect(records[3]!.credit).toEqual({ transaction: sharedTransactionId('demo', s.id, zero.id, 1, 'credit'), amount: 0 });
    const report = await verified(s);
    expect(report.wallet!.transactions.map((t) => [t.kind, t.amount, t.roundId, t.transfer])).toEqual([
      ['debit', 500, 'hall-1/w/1/1', d.id],
      ['credit', 975, 'hall-1/w/1/1', credit.id],
      ['debit', 200, 'hall-1/w/1/2', lost.id],
      ['credit', 0, 'hall-1/w/1/2', zero.id],
    ]);
    // The operator's reconciliation lists the shared table's calls: the wallet's round ids are the session's shoe 0.
    const calls = await tableOf(s.id).walletCalls(...ALL_TIME);
    expect(calls.map((c) => [c.kind, c.amount, c.roundId, c.state])).toEqual([
      ['debit', 500, `${s.id}/0/1`, 'acknowledged'],
      ['credit', 975, `${s.id}/0/1`, 'acknowledged'],
      ['debit', 200, `${s.id}/0/2`, 'acknowledged'],
      ['credit', 0, `${s.id}/0/2`, 'acknowledged'],
    ]);
  });

  test.each(['insufficient_funds', 'player_blocked', 'unknown_player', 'limit_reached', 'wrong_currency'] as const)(
    'a debit the wallet refuses (%s) is refused with its code, no record, nothing owed; the retry gets the same answer',
    async (code) => {
      const wallet = new ScriptedWallet();
      const s = await ready(wallet);
      wallet.next({ refuse: code }, 'debit');
      const d = debit(300);
      expect(await tableOf(s.id).sharedTransfer(d)).toMatchObject({ ok: false, code, replayed: false });
      expect(await tableOf(s.id).sharedTransfer(d)).toMatchObject({ ok: false, code, replayed: true });
      expect(debitsSent(wallet, sharedTransactionId('demo', s.id, d.id, 1, 'debit'))).toBe(1);
      expect(await transfersOf(s)).toEqual([]);
      expect((await state(s)).wallet.pendingPayments).toEqual([]);
      await verified(s);
    },
  );

  test.each(['timeout', '5xx', 'drop', 'bad-signature'] as const)(
    'a debit whose outcome is unknown (%s) is never assumed: refused wallet_unavailable, its rollback owed and delivered; the retry gets the same answer',
    async (fault: Fault) => {
      const wallet = new ScriptedWallet();
      const s = await ready(wallet);
      wallet.next(fault, 'debit');
      const d = debit(400);
      expect(await tableOf(s.id).sharedTransfer(d)).toMatchObject({ ok: false, code: 'wallet_unavailable' });
      // Its rollback is owed in the same transaction (the alarm may have sent it already).
      const owed = (await tableOf(s.id).walletCalls(...ALL_TIME)).filter((c) => c.kind === 'rollback');
      expect(owed.map((c) => [c.transaction, c.amount, c.roundId])).toEqual([[sharedTransactionId('demo', s.id, d.id, 1, 'rollback'), 400, `${s.id}/0/1`]]);
      expect(await tableOf(s.id).sharedTransfer(d)).toMatchObject({ ok: false, code: 'wallet_unavailable', replayed: true });
      await drained(s, wallet);
      // Applied or not, the money is back; the debit was sent once.
      expect(wallet.balance(s.playerId)).toBe(100_000);
      expect(debitsSent(wallet, sharedTransactionId('demo', s.id, d.id, 1, 'debit'))).toBe(1);
      expect(await transfersOf(s)).toEqual([]);
      const calls = await tableOf(s.id).walletCalls(...ALL_TIME);
      expect(calls.map((c) => [c.kind, c.state])).toEqual([
        ['debit', 'rolled_back'],
        ['rollback', 'acknowledged'],
      ]);
      // The next bet's debit is a new transfer, a new id.
      expect(await tableOf(s.id).sharedTransfer(debit(400, 2))).toMatchObject({ ok: true, balance: 99_600 });
      await verified(s);
    },
  );

  test('a duplicate answer to the debit is the original answer: applied once', async () => {
    const wallet = new ScriptedWallet();
    const s = await ready(wallet);
    wallet.next('duplicate', 'debit');
    expect(await tableOf(s.id).sharedTransfer(debit(600))).toMatchObject({ ok: true, balance: 99_400 });
    expect(wallet.balance(s.playerId)).toBe(99_400);
    await verified(s);
  });

  test('a refund is a wallet rollback; a credit the wallet does not acknowledge is retried across an eviction until it does', async () => {
    const wallet = new ScriptedWallet();
    const s = await ready(wallet);
    const voided = debit(700);
    await tableOf(s.id).sharedTransfer(voided);
    wallet.next('5xx', 'rollback');
    expect(await tableOf(s.id).sharedTransfer(closing(voided, 'refund', 700))).toMatchObject({ ok: true, balance: 100_000 });
    const won = debit(1_000, 2);
    await tableOf(s.id).sharedTransfer(won);
    wallet.next('timeout', 'credit').next('drop', 'credit');
    expect(await tableOf(s.id).sharedTransfer(closing(won, 'credit', 2_000))).toMatchObject({ ok: true });
    // "Payout pending" meanwhile, across a restart of the session's object.
    expect((await state(s)).wallet.pendingPayments.map((p: { kind: string }) => p.kind).sort()).toEqual(['credit', 'rollback']);
    await evictDurableObject(tableOf(s.id));
    await drained(s, wallet);
    expect(wallet.balance(s.playerId)).toBe(100_000 - 1_000 + 2_000);
    expect(wallet.moved()).toEqual({ debits: 1_700, credits: 2_000, rollbacks: 700 });
    const report = await verified(s);
    expect(report.wallet!.transactions.map((t) => t.kind)).toEqual(['debit', 'rollback', 'debit', 'credit']);
  });

  test('a debit left unanswered by a restart is unknown: the retry of its transfer is refused and the debit rolled back, never sent again', async () => {
    const wallet = new ScriptedWallet();
    const s = await ready(wallet);
    const d = debit(250);
    const txn = sharedTransactionId('demo', s.id, d.id, 1, 'debit');
    // The wallet applied the debit; the session's object died before it wrote the answer.
    wallet.apply({ kind: 'debit', transactionId: txn, roundId: `${s.id}/0/1`, playerId: s.playerId, sessionId: s.id, currency: 'EUR', amount: 250 });
    await runInDurableObject(tableOf(s.id), async (_t: Table, state) => {
      state.storage.sql.exec(
        `INSERT INTO wallet_calls (txn, kind, shoe, round, attempt, round_id, amount, debit_txn, state, attempts, created_at, updated_at)
         VALUES (?, 'debit', 0, 1, 1, ?, 250, ?, 'sending', 1, ?, ?)`,
        txn,
        `${s.id}/0/1`,
        d.id,
        new Date().toISOString(),
        new Date().toISOString(),
      );
    });
    expect(await tableOf(s.id).sharedTransfer(d)).toMatchObject({ ok: false, code: 'wallet_unavailable' });
    await drained(s, wallet);
    expect(wallet.balance(s.playerId)).toBe(100_000);
    expect(debitsSent(wallet, txn)).toBe(0);
  });

  test('the responsible-gaming limits count shared bets: over the stake limit, or past the loss limit, the debit is refused before the wallet is called', async () => {
    const wallet = new ScriptedWallet();
    const s = await ready(wallet, { playerLimits: { maxStakePerRound: 1_000, lossLimit: 2_500 } });
    expect(await tableOf(s.id).sharedTransfer(debit(1_100))).toMatchObject({ ok: false, code: 'stake_limit' });
    expect(await tableOf(s.id).sharedTransfer(debit(1_000, 2))).toMatchObject({ ok: true });
    expect(await tableOf(s.id).sharedTransfer(debit(1_000, 3))).toMatchObject({ ok: true });
    // 2,000 staked and not returned yet: losing 1,000 more would pass the loss limit (2,500).
    expect(await tableOf(s.id).sharedTransfer(debit(1_000, 4))).toMatchObject({ ok: false, code: 'loss_limit' });
    expect(wallet.received.filter((r) => r.call.kind === 'debit')).toHaveLength(2);
    expect((await state(s)).wallet.played).toMatchObject({ wagered: 2_000, net: -2_000 });
  });
});

describe('wallet mode at shared tables: seats and a round', () => {
  test('a seat whose limits do not take the stakes is refused (shared_table_currency); one that fits plays a round beside a play-money player; the books and the records agree', async () => {
    const wallet = new ScriptedWallet();
    const misfit = await ready(wallet, { tableLimits: { min: 10, max: 1_000, step: 10, chips: [10, 100, 1_000] } });
    const refused = await upgrade('/api/tables/hall-1/wallet-round/ws', { Authorization: `Bearer ${misfit.token}` });
    expect(refused.status).toBe(409);
    expect((await refused.json<{ error: { code: string; message: string } }>()).error).toMatchObject({ code: 'shared_table_currency' });
    // The ticket a browser asks for first says so too (a browser cannot read a refused upgrade).
    const ticket = await api('POST', '/api/tables/hall-1/wallet-round/ticket', { token: misfit.token, body: {} });
    expect(ticket.status).toBe(409);
    expect(ticket.body.error.code).toBe('shared_table_currency');

    const id = 'hall-1/wallet-round';
    const s = await ready(wallet);
    const play = await createSession({ room: 'hall-1' });
    const players = [await join(s, id), await join(play, id)];
    const hello = await players[0]!.next('state');
    expect(hello.you.balance).toBe(100_000);
    await Promise.all(players.map((p, i) => p.start(hello.shoe.commitment, `seed ${i}`, 5 + i)));
    await Promise.all(players.map((p) => p.next('start-ack')));
    const open = await players[0]!.next('open');
    // A bet on Player and one on Tie: a win, a push or a loss each, a tie included.
    await players[0]!.bet(id, open.shoe, open.round, [
      { sector: 0, box: 'player', amount: 1_000 },
      { sector: 1, box: 'tie', amount: 100 },
    ]);
    await players[1]!.bet(id, open.shoe, open.round, [{ sector: 0, box: 'banker', amount: 1_000 }]);
    expect((await players[0]!.next('bet-ack')).stake).toBe(1_100);
    const settlement = (await players[0]!.next('settlement', (m) => m.round === open.round, 60_000)).settlement.body;
    expect(settlement.balanceBefore).toBe(100_000);
    // Every transfer answered, the wallet's outbox drained.
    for (let i = 0; i < 100; i++) {
      const books = await env.SHARED_TABLES.getByName(id).books();
      const records = await transfersOf(s);
      if (books!.pending === 0 && records.length === 2) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await drained(s, wallet);
    const records = await transfersOf(s);
    expect(records.map((t) => [t.kind, t.amount])).toEqual([
      ['debit', 1_100],
      ['credit', settlement.returned],
    ]);
    expect(records[0]!.transfer).toBe(sharedTransferId(id, open.shoe, open.round, players[0]!.player, 'debit'));
    expect(records[1]!.transfer).toBe(sharedTransferId(id, open.shoe, open.round, players[0]!.player, 'credit'));
    // The wallet's ledger is the records': stake debited, what the round returned credited (0 for a loss).
    expect(wallet.moved()).toEqual({ debits: 1_100, credits: settlement.returned, rollbacks: 0 });
    expect(wallet.balance(s.playerId)).toBe(100_000 - 1_100 + settlement.returned);
    await verified(s);
    await verified(play);
    for (const p of players) p.close();
  });
});
