/**
 * What the operator's ledger costs (DEPLOY.md "What a round costs"): Durable Object requests
 * (alarm runs, pushes to the ledger) and rows written (the ledger's, and each `setAlarm`) for 100
 * rounds at a player's pace, a round every 3 seconds of the table's clock (simulated: an alarm is
 * run when its time on that clock has come). Its own file: its own storage, so the ledger's
 * counters see only this file's tables.
 */
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { expect, test } from 'vitest';
import { DEFAULT_LEDGER_DELAY_MS } from '../../worker/config/env.ts';
import { type AffiliateReport, LEDGER_NAME } from '../../worker/ledger/ledger.ts';
import type { Table } from '../../worker/session/table.ts';
import { api, bet, insideTable, play, readySession, type Session, startShoe, state } from './helpers.ts';

const ROUND_EVERY_MS = 3000;
const ledger = () => env.LEDGER.getByName(LEDGER_NAME);

/** The table's armed alarm (ms), or null. */
const alarmAt = (s: Session) => runInDurableObject(env.TABLES.getByName(s.id), (_t: Table, st) => st.storage.getAlarm());

test('100 rounds at a round every 3 s: 10 pushes, each 2 Durable Object requests and 2 rows written; a wake adds one push, no row', async () => {
  const s = await readySession({ room: 'hall-1', affiliate: 'pace' });
  const table = env.TABLES.getByName(s.id);
  // The start's alarm (real time), run now: the ledger knows the session; from here on the
  // table's clock is simulated, far ahead, so no alarm falls due by itself.
  expect(await runDurableObjectAlarm(table)).toBe(true);
  let now = Date.now() + 24 * 3600_000;
  await insideTable(s.id, (t: Table) => {
    t.clock = () => now;
  });
  const [table0, ledger0] = [await table.stats(), await ledger().stats()];
  /** Runs the armed alarm when its time has come on the table's clock. */
  const alarmIfDue = async () => {
    const at = await alarmAt(s);
    if (at !== null && at <= now) expect(await runDurableObjectAlarm(table)).toBe(true);
  };
  let staked = 0;
  for (let round = 0; round < 100; round++) {
    now += ROUND_EVERY_MS;
    await alarmIfDue();
    const r = await play(s, [{ sector: 0, box: 'banker', amount: 1000 }]);
    expect(r.status).toBe(200);
    staked += r.body.receipt.body.staked;
    if (r.body.nextShoe) await startShoe(s);
  }
  now += DEFAULT_LEDGER_DELAY_MS;
  await alarmIfDue();
  expect(await alarmAt(s)).toBeNull();
  const [table1, ledger1] = [await table.stats(), await ledger().stats()];
  const pushes = table1.ledger.pushes - table0.ledger.pushes;
  // One push per LEDGER_DELAY_MS of play (30 s: 10 rounds), each carrying every round since the last.
  expect(pushes).toBe(100 / (DEFAULT_LEDGER_DELAY_MS / ROUND_EVERY_MS));
  expect(table1.ledger.failed).toBe(0);
  // Durable Object requests: an alarm run and a `record` per push, nothing else.
  expect(table1.alarm.runs - table0.alarm.runs).toBe(pushes);
  // Rows written: the ledger's row of the session per push, and one setAlarm per push (the bet
  // that follows a push arms the alarm for both its void deadline and the next push).
  expect(ledger1.records.applied - ledger0.records.applied).toBe(pushes);
  expect(ledger1.rowsWritten - ledger0.rowsWritten).toBe(pushes);
  expect(table1.alarm.set - table0.alarm.set).toBe(pushes);
  // The table writes nothing for the ledger: its rows are its rounds' and shoes' (changes).
  const changeRows = (st: typeof table0) => Object.values(st.changes).reduce((a, c) => a + c.rowsWritten, 0);
  expect(table1.rowsWritten - table0.rowsWritten).toBe(changeRows(table1) - changeRows(table0));
  // The figures are exact.
  const rep = (await api('GET', '/api/admin/affiliates', { headers: { Authorization: `Bearer ${env.ADMIN_TOKEN!}` } })).body as AffiliateReport;
  expect(rep.affiliates.find((a) => a.affiliate === 'pace')).toMatchObject({ sessions: 1, rounds: 100, turnover: staked });

  // After an eviction the table does not know what the ledger has (it wrote no acknowledgment):
  // its next wake sends the same totals once more, which the ledger ignores without writing.
  await evictDurableObject(table);
  expect((await state(s)).balance).toBeTypeOf('number');
  expect(await alarmAt(s)).not.toBeNull();
  expect(await runDurableObjectAlarm(table)).toBe(true);
  const [table2, ledger2] = [await table.stats(), await ledger().stats()];
  expect(table2.ledger).toEqual({ pushes: 1, failed: 0 });
  expect(table2.alarm).toEqual({ set: 1, runs: 1 });
  expect(ledger2.records.ignored - ledger1.records.ignored).toBe(1);
  expect(ledger2.rowsWritten).toBe(ledger1.rowsWritten);
  // Known again: nothing more to send, no alarm.
  expect(await alarmAt(s)).toBeNull();
});

test("the ledger's rows per push: 1 (a new session's row, or its update); a repeat writes none", async () => {
  const before = await ledger().stats();
  const totals = { sessionId: 'r'.repeat(22), affiliate: 'rows', room: 'hall-1' as const, rounds: 0, staked: 0, returned: 0 };
  expect(await ledger().record(totals)).toEqual({ applied: true });
  const created = await ledger().stats();
  expect(created.rowsWritten - before.rowsWritten).toBe(1);
  expect(await ledger().record({ ...totals, rounds: 10, staked: 10_000, returned: 9000 })).toEqual({ applied: true });
  const updated = await ledger().stats();
  expect(updated.rowsWritten - created.rowsWritten).toBe(1);
  expect(await ledger().record({ ...totals, rounds: 10, staked: 10_000, returned: 9000 })).toEqual({ applied: false });
  expect(await ledger().record({ ...totals, rounds: 5, staked: 5000, returned: 4000 })).toEqual({ applied: false });
  expect((await ledger().stats()).rowsWritten).toBe(updated.rowsWritten);
});

test('a void is never delayed by the ledger: the alarm is armed no later than the void deadline, and by then the ledger has the rounds', async () => {
  const s = await readySession({ room: 'hall-1', affiliate: 'void-first' });
  const table = env.TABLES.getByName(s.id);
  expect(await runDurableObjectAlarm(table)).toBe(true);
  const vas = (await state(s)).shoe.params.voidAfterSeconds as number;
  // A ledger delay longer than the void deadline (an operator's choice).
  await insideTable(s.id, (t) => {
    t.env = { ...t.env, LEDGER_DELAY_MS: String(2 * vas * 1000) };
  });
  const banker = [{ sector: 0, box: 'banker' as const, amount: 1000 }];
  for (let i = 0; i < 2; i++) expect((await play(s, banker)).status).toBe(200);
  const accepted = await bet(s, banker); // never followed by its secret
  expect(accepted.status).toBe(200);
  const voidAt = Date.parse(accepted.body.voidAt);
  expect(await alarmAt(s)).toBeLessThanOrEqual(voidAt);
  const pushes = (await table.stats()).ledger.pushes;
  await insideTable(s.id, (t: Table) => {
    t.clock = () => voidAt;
  });
  // Alarms up to the deadline (an earlier one may be armed: round 1's deadline): the last one
  // voids; every alarm run also sends the ledger what it lacks.
  while ((await state(s)).pending !== null) expect(await runDurableObjectAlarm(table)).toBe(true);
  const after = await table.stats();
  expect(after.changes.void).toEqual({ count: 1, rowsWritten: 1 });
  expect(after.ledger.pushes).toBe(pushes + 1);
  const rep = (await api('GET', '/api/admin/affiliates', { headers: { Authorization: `Bearer ${env.ADMIN_TOKEN!}` } })).body as AffiliateReport;
  expect(rep.affiliates.find((a) => a.affiliate === 'void-first')).toMatchObject({ sessions: 1, rounds: 2 });
});
