/**
 * The operator's report (`GET /api/admin/affiliates`) and the ledger behind it, inside workerd.
 * Each test uses its own affiliate ids, so the figures it checks are exactly its own rounds.
 */
import { createExecutionContext, evictDurableObject, runDurableObjectAlarm, runInDurableObject, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, test } from 'vitest';
import type { Bet } from '../../shared/index.ts';
import { type Env, ledgerDelayMs } from '../../worker/config/env.ts';
import worker from '../../worker/index.ts';
import { type AffiliateFigures, type AffiliateReport, type AttributedFigures, type Figures, LEDGER_NAME } from '../../worker/ledger/ledger.ts';
import { migrate, MIGRATIONS } from '../../worker/session/schema.ts';
import type { Table } from '../../worker/session/table.ts';
import { api, BASE, createSession, insideTable, play, type Session, startShoe, PLAYER_KEY, sessionOf, bet, reveal, state as stateOf } from './helpers.ts';

const ADMIN = env.ADMIN_TOKEN!;

let serial = 0;
/** An affiliate id no other test uses. */
const affiliateId = (name: string) => `${name}-${++serial}-${crypto.randomUUID().slice(0, 8)}`;

async function report(): Promise<AffiliateReport> {
  const r = await api('GET', '/api/admin/affiliates', { headers: { Authorization: `Bearer ${ADMIN}` } });
  expect(r.status).toBe(200);
  return r.body as AffiliateReport;
}

function entry(rep: AffiliateReport, affiliate: string | null): AffiliateFigures | undefined {
  return rep.affiliates.find((a) => a.affiliate === affiliate);
}

/** Sends every table's totals to the ledger now (what each table's alarm does on its own). */
async function settle(sessions: Session[]): Promise<void> {
  for (const s of sessions) expect(await env.TABLES.getByName(s.id).syncLedger()).toBe(true);
}

/** Plays `rounds` rounds of `bets`; returns what the receipts say was staked and returned. */
async function playRounds(s: Session, rounds: number, bets: Bet[]): Promise<{ staked: number; returned: number }> {
  let staked = 0;
  let returned = 0;
  for (let i = 0; i < rounds; i++) {
    const r = await play(s, bets);
    expect(r.status).toBe(200);
    staked += r.body.receipt.body.staked;
    returned += r.body.receipt.body.returned;
  }
  return { staked, returned };
}

const fig = (sessions: number, rounds: number, staked: number, returned: number): Figures => ({
  sessions,
  rounds,
  turnover: staked,
  returned,
  houseResult: staked - returned,
});
const NONE = fig(0, 0, 0, 0);
/** Figures of sessions created without proof of their affiliate (no Origin, no Affiliate-Token): all of them `claimed`. */
const claimed = (sessions: number, rounds: number, staked: number, returned: number): AttributedFigures => ({
  ...fig(sessions, rounds, staked, returned),
  attribution: { signed: NONE, origin: NONE, claimed: fig(sessions, rounds, staked, returned) },
});

describe('the operator report', () => {
  test('after rounds across two affiliates: exact sessions, rounds, turnover and house result, per room too', async () => {
    const a = affiliateId('alpha');
    const b = affiliateId('beta');
    const a1 = await createSession({ room: 'hall-1', affiliate: a });
    const a2 = await createSession({ room: 'hall-2', affiliate: a });
    const a3 = await createSession({ room: 'hall-1', affiliate: a }); // never plays: a session, no rounds
    const b1 = await createSession({ room: 'vip', affiliate: b });
    for (const s of [a1, a2, b1]) await startShoe(s);

    const pa1 = await playRounds(a1, 3, [
      { sector: 0, box: 'banker', amount: 1000 },
      { sector: 1, box: 'tie', amount: 100 },
    ]);
    const pa2 = await playRounds(a2, 2, [{ sector: 2, box: 'player', amount: 5000 }]);
    const pb1 = await playRounds(b1, 4, [
      { sector: 0, box: 'player', amount: 25_000 },
      { sector: 4, box: 'banker', amount: 50_000 },
    ]);
    expect(pa1.staked).toBe(3 * 1100);
    expect(pa2.staked).toBe(2 * 5000);
    expect(pb1.staked).toBe(4 * 75_000);
    await settle([a1, a2, a3, b1]);

    const rep = await report();
    expect(entry(rep, a)).toEqual({
      affiliate: a,
      ...claimed(3, 5, pa1.staked + pa2.staked, pa1.returned + pa2.returned),
      rooms: [
        { room: 'hall-1', ...claimed(2, 3, pa1.staked, pa1.returned) },
        { room: 'hall-2', ...claimed(1, 2, pa2.staked, pa2.returned) },
      ],
    });
    expect(entry(rep, b)).toEqual({
      affiliate: b,
      ...claimed(1, 4, pb1.staked, pb1.returned),
      rooms: [{ room: 'vip', ...claimed(1, 4, pb1.staked, pb1.returned) }],
    });
    // The total is the sum of the affiliates (and of the sessions without one).
    const sum = (k: keyof Figures) => rep.affiliates.reduce((x, f) => x + f[k], 0);
    expect(rep.total).toMatchObject({
      sessions: sum('sessions'),
      rounds: sum('rounds'),
      turnover: sum('turnover'),
      returned: sum('returned'),
      houseResult: sum('houseResult'),
    });
    expect(Date.parse(rep.generatedAt)).not.toBeNaN();
  });

  test('retries never double count: replayed rounds and creations, repeated and stale pushes', async () => {
    const a = affiliateId('retry');
    const createKey = crypto.randomUUID();
    const first = await api('POST', '/api/sessions', { key: createKey, body: { playerKey: PLAYER_KEY, room: 'hall-1', affiliate: a } });
    const again = await api('POST', '/api/sessions', { key: createKey, body: { playerKey: PLAYER_KEY, room: 'hall-1', affiliate: a } });
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    const s: Session = sessionOf(first);
    await startShoe(s);
    const key = crypto.randomUUID();
    const bets: Bet[] = [{ sector: 3, box: 'banker', amount: 2000 }];
    // Both phases sent again with their keys: replays, never a second round or payout.
    const accepted = await bet(s, bets, { key: `${key}/bet`, secret: 'cd'.repeat(32) });
    const r1 = await reveal(s, accepted.body.acceptance, `${key}/secret`);
    for (let i = 0; i < 3; i++) {
      const head = r1.body.receipt;
      const replayBet = await bet(s, bets, { key: `${key}/bet`, secret: 'cd'.repeat(32), last: (await stateOf(s)).shoe.start, round: 1 });
      expect(replayBet.headers.get('Idempotent-Replayed')).toBe('true');
      const replay = await reveal(s, accepted.body.acceptance, `${key}/secret`);
      expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
      expect(replay.body.receipt.hash).toBe(head.hash);
    }
    const r2 = await play(s, bets);
    const staked = r1.body.receipt.body.staked + r2.body.receipt.body.staked;
    const returned = r1.body.receipt.body.returned + r2.body.receipt.body.returned;
    await settle([s, s, s]);
    const table = env.TABLES.getByName(s.id);
    await runDurableObjectAlarm(table); // whatever alarm is left finds nothing new
    const expected = { affiliate: a, ...claimed(1, 2, staked, returned), rooms: [{ room: 'hall-1', ...claimed(1, 2, staked, returned) }] };
    expect(entry(await report(), a)).toEqual(expected);

    // The ledger itself: the same totals twice, or older ones late, change nothing.
    const ledger = env.LEDGER.getByName(LEDGER_NAME);
    const totals = { sessionId: s.id, affiliate: a, room: 'hall-1' as const, rounds: 2, staked, returned };
    expect(await ledger.record(totals)).toEqual({ applied: false });
    expect(await ledger.record({ ...totals, rounds: 1, staked: r1.body.receipt.body.staked, returned: r1.body.receipt.body.returned })).toEqual({
      applied: false,
    });
    expect(await ledger.record({ ...totals, rounds: 3, staked: staked - 1 })).toEqual({ applied: false }); // backwards money: refused
    expect(entry(await report(), a)).toEqual(expected);

    // A session that went on while its pushes were lost catches up with one push of absolute totals.
    const r3 = await play(s, bets);
    const r4 = await play(s, bets);
    await settle([s]);
    const more = r3.body.receipt.body.staked + r4.body.receipt.body.staked;
    const moreBack = r3.body.receipt.body.returned + r4.body.receipt.body.returned;
    expect(entry(await report(), a)).toMatchObject(fig(1, 4, staked + more, returned + moreBack));
  });

  test('the tables send their totals on their own: the alarm, armed at most LEDGER_DELAY_MS after the first round the ledger lacks', async () => {
    const a = affiliateId('auto');
    const s = await createSession({ room: 'hall-2', affiliate: a });
    await startShoe(s);
    const before = Date.now();
    const { staked, returned } = await playRounds(s, 3, [{ sector: 0, box: 'tie', amount: 1000 }]);
    const table = env.TABLES.getByName(s.id);
    const armed = await runInDurableObject(table, (_t, state) => state.storage.getAlarm());
    expect(armed).not.toBeNull();
    expect(armed!).toBeGreaterThanOrEqual(before);
    expect(armed!).toBeLessThanOrEqual(Date.now() + ledgerDelayMs(env));
    // Its time come (run now rather than waited for): one push carries the three rounds.
    expect(await runDurableObjectAlarm(table)).toBe(true);
    expect(entry(await report(), a)).toMatchObject(fig(1, 3, staked, returned));
    expect((await table.stats()).ledger).toEqual({ pushes: 1, failed: 0 });
  });

  test('no round lost: the ledger unreachable, the table evicted meanwhile, then the ledger back', async () => {
    const a = affiliateId('outage');
    const s = await createSession({ room: 'hall-1', affiliate: a });
    await startShoe(s);
    const bets: Bet[] = [{ sector: 1, box: 'player', amount: 2000 }];
    const first = await playRounds(s, 2, bets);
    const table = env.TABLES.getByName(s.id);
    await insideTable(s.id, (t) => {
      t.env = { ...t.env, LEDGER: { getByName: () => ({ record: () => Promise.reject(new Error('ledger unreachable')) }) } };
    });
    expect(await runDurableObjectAlarm(table)).toBe(true);
    expect((await table.stats()).ledger).toEqual({ pushes: 1, failed: 1 });
    // The retry is armed; rounds go on meanwhile; the instance (and what it knew) is lost.
    const retry = await runInDurableObject(table, (_t, state) => state.storage.getAlarm());
    expect(retry).not.toBeNull();
    const more = await playRounds(s, 1, bets);
    expect(entry(await report(), a)).toBeUndefined();
    await evictDurableObject(table);
    // A fresh instance (with the real ledger) runs the retry: every round arrives, once.
    expect(await runDurableObjectAlarm(table)).toBe(true);
    expect(entry(await report(), a)).toMatchObject(fig(1, 3, first.staked + more.staked, first.returned + more.returned));
    await settle([s, s]);
    expect(entry(await report(), a)).toMatchObject(fig(1, 3, first.staked + more.staked, first.returned + more.returned));
  });

  test('a table from before the ledger: its totals are rebuilt from its receipts by the schema migration', async () => {
    const id = 'L'.repeat(22);
    const stub = env.TABLES.getByName(id);
    await runInDurableObject(stub, (_t, state) => {
      const sql = state.storage.sql;
      state.storage.transactionSync(() => {
        migrate(sql, MIGRATIONS.slice(0, 1));
        sql.exec(
          `INSERT INTO session (id, session_id, room, affiliate, balance, current_shoe, head, created_at) VALUES (1, ?, 'hall-1', 'legacy', 1000, 1, 'h', 'now')`,
          id,
        );
        for (const [round, staked, returned] of [
          [1, 300, 0],
          [2, 500, 950],
          [3, 100, 100],
        ]) {
          sql.exec(`INSERT INTO receipts (shoe, round, hash, record) VALUES (1, ?, 'x', ?)`, round, JSON.stringify({ body: { staked, returned } }));
        }
        migrate(sql);
      });
      expect(sql.exec(`SELECT rounds_total, staked_total, returned_total, ledger_rounds FROM session`).one()).toEqual({
        rounds_total: 3,
        staked_total: 900,
        returned_total: 1050,
        ledger_rounds: -1,
      });
    });
    expect(await stub.syncLedger()).toBe(true);
    expect(entry(await report(), 'legacy')).toMatchObject(fig(1, 3, 900, 1050));
    expect(entry(await report(), 'legacy')!.houseResult).toBe(-150);
  });
});

describe('the operator token', () => {
  /** The fetch handler with some vars changed. */
  async function adminWith(vars: Partial<Env>, headers: Record<string, string>): Promise<Response> {
    const ctx = createExecutionContext();
    const res = await worker.fetch(new Request(`${BASE}/api/admin/affiliates`, { headers }), { ...env, ...vars }, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  }

  test('missing, malformed or wrong: 401 and no figures', async () => {
    const cases: Array<Record<string, string>> = [
      {},
      { Authorization: `Bearer ${ADMIN}x` },
      { Authorization: `Bearer ${ADMIN.slice(0, -1)}` },
      { Authorization: 'Bearer ' },
      { Authorization: `Basic ${ADMIN}` },
      { Authorization: ADMIN },
    ];
    for (const headers of cases) {
      const r = await api('GET', '/api/admin/affiliates', { headers });
      expect(r.status, JSON.stringify(headers)).toBe(401);
      expect(r.body.error.code).toBe('unauthorized');
      expect(r.text).not.toContain('affiliates');
    }
    // A table's own token opens no report either.
    const s = await createSession();
    expect((await api('GET', '/api/admin/affiliates', { token: s.token })).status).toBe(401);
  });

  test('without an ADMIN_TOKEN (or with a short one) the report is off: 404, whatever is sent', async () => {
    for (const vars of [{ ADMIN_TOKEN: undefined }, { ADMIN_TOKEN: '' }, { ADMIN_TOKEN: 'short' }]) {
      const res = await adminWith(vars, { Authorization: `Bearer ${vars.ADMIN_TOKEN ?? ''}`, 'CF-Connecting-IP': '10.9.9.9' });
      expect(res.status).toBe(404);
      expect(((await res.json()) as any).error.code).toBe('not_found');
    }
  });

  test("not for pages on other origins, even with the token; fine from the Worker's own page", async () => {
    const r = await api('GET', '/api/admin/affiliates', { headers: { Authorization: `Bearer ${ADMIN}`, Origin: 'https://casino.example' } });
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('origin_not_allowed');
    expect(r.headers.get('Access-Control-Allow-Origin')).toBeNull();
    const own = await api('GET', '/api/admin/affiliates', { headers: { Authorization: `Bearer ${ADMIN}`, Origin: BASE } });
    expect(own.status).toBe(200);
    expect(own.headers.get('Cache-Control')).toBe('no-store');
  });

  test('only GET', async () => {
    const r = await api('POST', '/api/admin/affiliates', { headers: { Authorization: `Bearer ${ADMIN}` }, body: {} });
    expect(r.status).toBe(405);
    expect(r.headers.get('Allow')).toBe('GET');
  });
});

test('Table.syncLedger on a name never created does nothing', async () => {
  const stub = env.TABLES.getByName('N'.repeat(22));
  expect(await stub.syncLedger()).toBe(true);
  await runInDurableObject(stub, (_t: Table, state) => {
    expect(state.storage.sql.exec(`SELECT name FROM sqlite_master WHERE type = 'table'`).toArray()).toEqual([]);
  });
});
