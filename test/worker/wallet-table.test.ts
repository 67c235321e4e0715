/**
 * The private table in wallet mode, inside workerd, against a scripted wallet (wallet-script.ts):
 * the balance opens the session, the debit comes before the acceptance, the credit (zero for a
 * lost round) and the rollback are owed from the outbox and delivered by the one alarm, every
 * unknown outcome is rolled back, the records verify with their wallet fields, and the wallet's
 * books reconcile with the records.
 */
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { describe, expect, test } from 'vitest';
import { type Bet, type Receipt, type Signed, verifyText } from '../../shared/index.ts';
import type { Table } from '../../worker/session/table.ts';
import { api, bet, insideTable, reveal, type Session, startShoe, state, tableFile } from './helpers.ts';
import { upgrade } from './shared-helpers.ts';
import { attach, type Fault, ScriptedWallet, tableOf, walletSession } from './wallet-script.ts';

const keys = async () => (await api('GET', '/.well-known/jwks.json')).body;
const player = (amount = 100): Bet[] => [{ sector: 0, box: 'player', amount }];

async function ready(wallet: ScriptedWallet, over: Parameters<typeof walletSession>[1] = {}): Promise<Session & { playerId: string }> {
  const { s, init, status, body } = await walletSession(wallet, over);
  expect(status, JSON.stringify(body)).toBe(201);
  await startShoe(s);
  return Object.assign(s, { playerId: init.playerId });
}

/** One whole round; starts the next shoe when the round ended one. */
async function round(s: Session, bets: Bet[]) {
  const accepted = await bet(s, bets);
  expect(accepted.status, accepted.text).toBe(200);
  const settled = await reveal(s, accepted.body.acceptance);
  expect(settled.status, settled.text).toBe(200);
  if (settled.body.nextShoe) await startShoe(s);
  return { acceptance: accepted.body.acceptance, receipt: settled.body.receipt as Signed<Receipt> };
}

/**
 * Until the wallet has acknowledged every owed payment: the alarm delivers them (runs it when it is
 * armed; an alarm due now may also fire on its own), retries waiting out their backoff.
 */
async function settle(s: Session): Promise<void> {
  for (let i = 0; i < 150; i++) {
    await runDurableObjectAlarm(tableOf(s.id));
    if ((await state(s)).wallet.pendingPayments.length === 0) return;
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error('the outbox never emptied');
}

const ALL_TIME = ['2000-01-01T00:00:00.000Z', '2100-01-01T00:00:00.000Z'] as const;

const moveClock = (s: Session, ms: number) =>
  insideTable(s.id, (t: Table) => {
    const base = t.clock();
    t.clock = () => base + ms;
  });

describe('wallet mode: creation, rounds, records', () => {
  test('the wallet balance opens the session; a round debits, then credits what it returns; the records verify with their wallet fields', async () => {
    const wallet = new ScriptedWallet();
    const s = await ready(wallet);
    expect(s.created.balance).toBe(100_000);
    expect(s.created.wallet).toMatchObject({ operator: 'demo', currency: 'EUR', minorUnits: 2, pendingPayments: [], realityCheck: null, ended: null });
    expect(s.created.shoe.commitment.body.wallet).toEqual({ operator: 'demo', player: s.playerId, currency: 'EUR' });
    const { acceptance, receipt } = await round(s, player(100));
    expect(acceptance.body.debit).toMatchObject({ attempt: 1, amount: 100, balanceAfter: 99_900 });
    expect(acceptance.body.balanceBefore).toBe(100_000);
    expect(receipt.body.credit).toEqual({ transaction: expect.stringMatching(/^pbw1-/), amount: receipt.body.returned });
    // Win, push (tie) or loss: the wallet holds exactly what the receipt says.
    expect(wallet.balance(s.playerId)).toBe(100_000 - 100 + receipt.body.returned);
    const view = await state(s);
    expect(view.balance).toBe(wallet.balance(s.playerId));
    expect(view.wallet.pendingPayments).toEqual([]);
    const report = await verifyText(await tableFile(s), await keys(), { playerKey: s.created.playerKey });
    expect(report.ok, JSON.stringify(report)).toBe(true);
  });

  test('a refusal or no answer to the balance creates no session', async () => {
    const wallet = new ScriptedWallet();
    wallet.next({ refuse: 'unknown_player' });
    const refused = await walletSession(wallet);
    expect(refused.status).toBe(502);
    expect(refused.body.error.code).toBe('unknown_player');
    wallet.next('timeout');
    const silent = await walletSession(wallet);
    expect(silent.status).toBe(503);
    expect(silent.body.error.code).toBe('wallet_unavailable');
    const r = await api('GET', `/api/sessions/${silent.s.id}`, { token: silent.s.token });
    expect(r.status).toBe(404);
  });

  test('a lost round is closed with a zero credit, a push returns the stakes; the books reconcile: stakes − rollbacks − credits = house result', async () => {
    const wallet = new ScriptedWallet();
    const s = await ready(wallet);
    const seen = { zero: false, push: false };
    let house = 0;
    for (let i = 0; i < 150 && !(seen.zero && seen.push); i++) {
      const { receipt } = await round(s, player(100));
      house += receipt.body.staked - receipt.body.returned;
      if (receipt.body.returned === 0) seen.zero = true;
      if (receipt.body.outcome === 'tie') {
        seen.push = true;
        expect(receipt.body.returned).toBe(100);
      }
      expect(receipt.body.credit!.amount).toBe(receipt.body.returned);
    }
    expect(seen).toEqual({ zero: true, push: true });
    const zero = wallet.received.find((r) => r.call.kind === 'credit' && r.call.amount === 0);
    expect(zero).toBeDefined();
    const moved = wallet.moved();
    expect(moved.debits - moved.rollbacks - moved.credits).toBe(house);
    expect(wallet.balance(s.playerId)).toBe(100_000 - house);
    const report = await verifyText(await tableFile(s), await keys());
    expect(report.ok, JSON.stringify(report)).toBe(true);
  });
});

describe('wallet mode: the debit', () => {
  test.each([
    ['insufficient_funds', 402],
    ['player_blocked', 403],
    ['limit_reached', 409],
    ['unknown_player', 403],
    ['wrong_currency', 409],
  ] as const)('a debit refused with %s refuses the bet (%i), records nothing; the next try takes the next attempt', async (code, status) => {
    const wallet = new ScriptedWallet();
    const s = await ready(wallet);
    const before = await state(s);
    wallet.next({ refuse: code }, 'debit');
    const refused = await bet(s, player());
    expect(refused.status).toBe(status);
    expect(refused.body.error.code).toBe(code);
    const after = await state(s);
    expect(after.head).toEqual(before.head);
    expect(after.pending).toBeNull();
    const { acceptance } = await round(s, player());
    expect(acceptance.body.round).toBe(1);
    expect(acceptance.body.debit.attempt).toBe(2);
    const calls = await tableOf(s.id).walletCalls(...ALL_TIME);
    expect(calls.filter((c) => c.kind === 'debit').map((c) => [c.state, c.code ?? null])).toEqual([
      ['refused', code],
      ['acknowledged', null],
    ]);
    const report = await verifyText(await tableFile(s), await keys());
    expect(report.ok, JSON.stringify(report)).toBe(true);
  });

  test.each(['timeout', 'drop', '5xx', 'bad-signature'] as const)(
    'an unknown outcome (%s) refuses the bet with 503 wallet_unavailable; the alarm delivers its rollback and the wallet is whole',
    async (fault: Fault) => {
      const wallet = new ScriptedWallet();
      const s = await ready(wallet);
      wallet.next(fault, 'debit');
      const refused = await bet(s, player(300));
      expect(refused.status).toBe(503);
      expect(refused.body.error.code).toBe('wallet_unavailable');
      // Owed in the refusal's own transaction (the alarm, armed for now, may have delivered it already).
      const owed = await tableOf(s.id).walletCalls(...ALL_TIME);
      expect(owed.filter((c) => c.kind === 'rollback')).toMatchObject([{ amount: 300 }]);
      await settle(s);
      const rollback = wallet.received.find((r) => r.call.kind === 'rollback');
      const debit = wallet.received.find((r) => r.call.kind === 'debit')!;
      expect(rollback?.call).toMatchObject({ amount: 300, debitTransactionId: (debit.call as { transactionId: string }).transactionId });
      expect(wallet.balance(s.playerId)).toBe(100_000);
      const view = await state(s);
      expect(view.wallet.pendingPayments).toEqual([]);
      expect(view.balance).toBe(100_000);
      const calls = await tableOf(s.id).walletCalls(...ALL_TIME);
      expect(calls.map((c) => [c.kind, c.state])).toEqual(
        expect.arrayContaining([
          ['debit', 'rolled_back'],
          ['rollback', 'acknowledged'],
        ]),
      );
      // The round is played on a fresh attempt: the rolled-back debit blocks nothing.
      const { acceptance } = await round(s, player(300));
      expect(acceptance.body.debit.attempt).toBe(2);
    },
  );

  test('a duplicate answer is taken as the original', async () => {
    const wallet = new ScriptedWallet();
    const s = await ready(wallet);
    wallet.next('duplicate', 'debit');
    const { acceptance } = await round(s, player(200));
    expect(acceptance.body.debit).toMatchObject({ attempt: 1, amount: 200, balanceAfter: 99_800 });
  });

  test('two bets at once: one debit, one acceptance', async () => {
    const wallet = new ScriptedWallet();
    const s = await ready(wallet);
    const head = (await state(s)).head;
    const [a, b] = await Promise.all([bet(s, player(100), { last: head, round: 1 }), bet(s, player(100), { last: head, round: 1 })]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([200, 409]);
    expect(wallet.received.filter((r) => r.call.kind === 'debit')).toHaveLength(1);
    expect((await tableFile(s)).match(/"type":"acceptance"/g)).toHaveLength(1);
  });
});

describe('wallet mode: the outbox', () => {
  test('a credit is retried with backoff until acknowledged, across a restart of the table', async () => {
    const wallet = new ScriptedWallet();
    const s = await ready(wallet);
    wallet.next('5xx', 'credit').next('drop', 'credit');
    const { receipt } = await round(s, player(100));
    // Tried once right after the receipt (HTTP 500): owed, its first retry 0.5–1 s later.
    const pending = (await state(s)).wallet.pendingPayments;
    expect(pending).toEqual([{ kind: 'credit', shoe: 1, round: 1, transaction: receipt.body.credit!.transaction, amount: receipt.body.returned }]);
    await runInDurableObject(tableOf(s.id), (_t: Table, st) => {
      const row = st.storage.sql.exec(`SELECT attempts, next_try_at, updated_at FROM wallet_calls WHERE kind = 'credit'`).one();
      expect(row.attempts).toBe(1);
      const wait = Number(row.next_try_at) - Date.parse(String(row.updated_at));
      expect(wait).toBeGreaterThanOrEqual(500);
      expect(wait).toBeLessThan(1000);
    });
    // A new instance finds the credit still owed, and its alarm delivers it.
    await evictDurableObject(tableOf(s.id));
    await attach(s.id, wallet);
    await settle(s);
    const credits = wallet.received.filter((r) => r.call.kind === 'credit');
    expect(credits.length).toBeGreaterThanOrEqual(3);
    expect(new Set(credits.map((c) => (c.call as { transactionId: string }).transactionId))).toEqual(new Set([receipt.body.credit!.transaction]));
    expect(wallet.balance(s.playerId)).toBe(100_000 - 100 + receipt.body.returned);
    expect((await state(s)).balance).toBe(wallet.balance(s.playerId));
    const [credit] = (await tableOf(s.id).walletCalls(...ALL_TIME)).filter((c) => c.kind === 'credit');
    expect(credit!.state).toBe('acknowledged');
    expect(credit!.attempts).toBeGreaterThanOrEqual(3);
  });

  test('a debit left sending by a crash is unknown after the restart: the alarm rolls it back', async () => {
    const wallet = new ScriptedWallet();
    const s = await ready(wallet);
    // The debit row is written before the call; the instance dies before any answer is written.
    wallet.next('timeout', 'debit');
    const refused = await bet(s, player(100));
    expect(refused.status).toBe(503);
    // Turn the unknown debit's rows back into the state a crash leaves: the debit `sending`, no rollback.
    await runInTable(s.id, (sql) => {
      sql.exec(`DELETE FROM wallet_calls WHERE kind = 'rollback'`);
      sql.exec(`UPDATE wallet_calls SET state = 'sending', code = NULL WHERE kind = 'debit'`);
    });
    await evictDurableObject(tableOf(s.id));
    await attach(s.id, wallet);
    await settle(s);
    const rollback = wallet.received.find((r) => r.call.kind === 'rollback');
    expect(rollback?.call).toMatchObject({ amount: 100 });
    expect(wallet.balance(s.playerId)).toBe(100_000);
    const calls = await tableOf(s.id).walletCalls(...ALL_TIME);
    expect(calls.map((c) => [c.kind, c.state])).toEqual(
      expect.arrayContaining([
        ['debit', 'rolled_back'],
        ['rollback', 'acknowledged'],
      ]),
    );
  });

  test('a round voided for want of its secret owes its rollback: the stake goes back to the wallet', async () => {
    const wallet = new ScriptedWallet();
    const s = await ready(wallet);
    const accepted = await bet(s, player(500));
    expect(accepted.status).toBe(200);
    expect(wallet.balance(s.playerId)).toBe(99_500);
    const vas = (await state(s)).shoe.params.voidAfterSeconds as number;
    await moveClock(s, vas * 1000 + 1);
    expect(await runDurableObjectAlarm(tableOf(s.id))).toBe(true);
    const file = await tableFile(s);
    const voided = JSON.parse(file).records.find((r: Signed) => r.body.type === 'void');
    expect(voided.body.rollback).toEqual({ transaction: expect.stringMatching(/^pbw1-/), amount: 500 });
    expect(wallet.balance(s.playerId)).toBe(100_000);
    const report = await verifyText(file, await keys());
    expect(report.ok, JSON.stringify(report)).toBe(true);
  });
});

describe('wallet mode: responsible gaming', () => {
  test('a due reality check blocks betting until the player continues; stop ends the session', async () => {
    const wallet = new ScriptedWallet();
    const s = await ready(wallet, { playerLimits: { realityCheckMinutes: 1 } });
    await round(s, player(100));
    await moveClock(s, 61_000);
    expect((await state(s)).wallet.realityCheck).toMatchObject({ wagered: 100 });
    const blocked = await bet(s, player(100));
    expect(blocked.status).toBe(409);
    expect(blocked.body.error).toMatchObject({ code: 'reality_check_pending', realityCheck: { wagered: 100 } });
    const go = await api('POST', `/api/sessions/${s.id}/reality-check`, { token: s.token, body: { choice: 'continue' } });
    expect(go.status).toBe(200);
    expect(go.body.wallet.realityCheck).toBeNull();
    await round(s, player(100));
    await moveClock(s, 122_000);
    const stop = await api('POST', `/api/sessions/${s.id}/reality-check`, { token: s.token, body: { choice: 'stop' } });
    expect(stop.body.wallet.ended).toMatchObject({ code: 'player_stopped' });
    const after = await bet(s, player(100));
    expect(after.status).toBe(403);
    expect(after.body.error).toMatchObject({ code: 'session_ended', ended: 'player_stopped' });
    const bad = await api('POST', `/api/sessions/${s.id}/reality-check`, { token: s.token, body: { choice: 'maybe' } });
    expect(bad.status).toBe(400);
  });

  test.each([
    ['stake_limit', { maxStakePerRound: 150 }, 200],
    ['wager_limit', { wagerLimit: 250 }, 200],
    ['loss_limit', { lossLimit: 150 }, 200],
  ] as const)('%s refuses the bet before any debit', async (code, limits, amount) => {
    const wallet = new ScriptedWallet();
    const s = await ready(wallet, { playerLimits: limits });
    if (code === 'wager_limit') await round(s, player(100));
    const debits = wallet.received.filter((r) => r.call.kind === 'debit').length;
    const refused = await bet(s, player(amount));
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe(code);
    expect(wallet.received.filter((r) => r.call.kind === 'debit')).toHaveLength(debits);
  });

  test('the session time limit ends the session', async () => {
    const wallet = new ScriptedWallet();
    const s = await ready(wallet, { playerLimits: { sessionMinutes: 1 } });
    await moveClock(s, 60_000);
    const refused = await bet(s, player());
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'session_ended', ended: 'session_time_limit' });
    expect((await state(s)).wallet.ended).toMatchObject({ code: 'session_time_limit' });
  });

  test('the operator ends the session: later bets are refused, a round already accepted still settles', async () => {
    const wallet = new ScriptedWallet();
    const s = await ready(wallet);
    const accepted = await bet(s, player(100));
    expect(accepted.status).toBe(200);
    const view = await tableOf(s.id).endByOperator('self_exclusion');
    expect(view?.ended).toMatchObject({ code: 'self_exclusion' });
    const settled = await reveal(s, accepted.body.acceptance);
    expect(settled.status).toBe(200);
    const refused = await bet(s, player(100));
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'session_ended', ended: 'self_exclusion' });
    expect(await tableOf(s.id).roundRecords(1, 1)).toHaveLength(2);
  });
});

async function runInTable(id: string, fn: (sql: SqlStorage) => void): Promise<void> {
  await runInDurableObject(tableOf(id), (_t: Table, st) => st.storage.transactionSync(() => fn(st.storage.sql)));
}

describe('wallet mode: billed rows', () => {
  test('an ordinary round writes six rows in wallet mode (two in play money): the debit sent and acknowledged, the acceptance, the receipt, the credit owed and acknowledged', async () => {
    const wallet = new ScriptedWallet();
    const s = await ready(wallet);
    await round(s, player(100));
    const before = await tableOf(s.id).stats();
    await round(s, player(100));
    const after = await tableOf(s.id).stats();
    const rows = (kind: keyof typeof after.changes) => (after.changes[kind]?.rowsWritten ?? 0) - (before.changes[kind]?.rowsWritten ?? 0);
    // The round may end its shoe (a reveal and the next commitment: more rows), so count its kinds.
    expect(rows('wallet-debit')).toBe(1);
    expect(rows('bet')).toBe(2);
    expect(rows('secret') + rows('secret-ending-shoe')).toBeGreaterThanOrEqual(2);
    expect(rows('wallet-outbox')).toBe(1);
    expect(rows('wallet-refused') + rows('wallet-limits')).toBe(0);
    // The ledger (play money's totals) is not pushed for a wallet session; the alarm is armed for the void deadline at most.
    expect(after.ledger.pushes - before.ledger.pushes).toBe(0);
    expect(after.alarm.set - before.alarm.set).toBeLessThanOrEqual(1);
  });
});

describe('wallet mode: shared tables', () => {
  test("a wallet-mode session whose limits do not take the table's stakes is refused a seat (409 shared_table_currency); no transfer moves its money unasked", async () => {
    const wallet = new ScriptedWallet();
    // EUR at the default limits: Hall 1 is 0.10–10.00 EUR, the shared Hall 1 table's stakes read in cents 1.00–100.00.
    const s = await ready(wallet);
    const refused = await upgrade('/api/tables/hall-1/configured/ws', { Authorization: `Bearer ${s.token}` });
    expect(refused.status).toBe(409);
    expect((await refused.json<{ error: { code: string } }>()).error.code).toBe('shared_table_currency');
    const moved = await tableOf(s.id).sharedTransfer({ id: 'a'.repeat(64), table: 'hall-1/configured', shoe: 1, round: 1, kind: 'credit', amount: 100 });
    expect(moved.ok).toBe(false);
    expect((await state(s)).balance).toBe(100_000);
  });
});
