/**
 * Money across objects survives kill -9: the product started as `npm start` does, with
 * persisted local state; a shared table with many players plays a round and the server is killed
 * (SIGKILL to wrangler and workerd) at each step of it, stopped there by the test-only
 * SHARED_TEST_HALT var: after the session applied a debit but before the table recorded it; after
 * the close; after the deal, before any credit; after a session applied a credit but before the
 * table recorded it. Then during a void (the beacon relay is down, so the round's beacon is late
 * past the deadline): after the void and its refunds are stored, before any refund is paid; after a
 * session applied a refund before the table recorded it. And during a reveal (a reshuffle table
 * whose shoe ends after one round, SHARED_TEST_ROUND_LIMIT): after the deal, the reveal and the next
 * shoe's commitment are stored, before any credit. The server is started again on the same state,
 * with no halt, and then every session's balance must be what the table's signed transcript says
 * (its settlement, or its stake back), the transcript must verify, and the house's result must be
 * exactly what the players lost.
 *
 * This file starts its own servers (it kills them), whatever PB_ENDPOINT says.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSigningKey, type Jwks, type SigningKey } from '../../shared/index.ts';
import { sharedBetRequest, sharedStartRequest, signSharedRequest } from '../../shared/fairness/pb-shared-1/index.ts';
import { verifySharedTableText } from '../../shared/fairness/pb-shared-2/verify.ts';
import { playerKeyOf } from '../../shared/fairness/pb-fair-2/records.ts';
import { freePort, type RunningServer, startServer } from './server.ts';

const PLAYERS = 8;
const VARS = { SHARED_WINDOW_MS: '3000', SHARED_BEACON_LATE_MS: '30000', RATE_CREATE_BURST: '1000' };

type Step = 'debit-applied' | 'closed' | 'dealt' | 'credit-applied' | 'voided' | 'refund-applied' | 'revealed';

/** How the round ends: dealt and settled, voided (every stake back), or dealt with the shoe's reveal. */
type Ending = 'settled' | 'void' | 'reveal';

interface Scenario {
  step: Step;
  ending: Ending;
  /** The table's name (its mode with it); vars for both starts of the server. */
  table: string;
  vars(): Promise<Record<string, string>>;
}

/** A beacon relay nobody answers at: every round of the table is late, and voids 1 s past its due time. */
async function deadRelay(): Promise<Record<string, string>> {
  return { BEACON_URL: `http://127.0.0.1:${await freePort()}`, SHARED_BEACON_LATE_MS: '1000' };
}

const SCENARIOS: Scenario[] = [
  ...(['debit-applied', 'closed', 'dealt', 'credit-applied'] as const).map((step): Scenario => ({
    step,
    ending: 'settled',
    table: `hall-1/crash-${step}`,
    vars: async () => ({}),
  })),
  ...(['voided', 'refund-applied'] as const).map((step): Scenario => ({ step, ending: 'void', table: `hall-1/crash-${step}`, vars: deadRelay })),
  { step: 'revealed', ending: 'reveal', table: 'hall-1/crash-revealed.reshuffle', vars: async () => ({ SHARED_TEST_ROUND_LIMIT: '1' }) },
];
const ONLY = process.env.PB_CRASH_STEPS?.split(',');

interface Seat {
  id: string;
  token: string;
  start: number;
  key: SigningKey;
  player: string;
  ws: WebSocket;
  messages: any[];
}

async function call(server: RunningServer, method: string, path: string, body?: unknown, token?: string): Promise<any> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (method === 'POST') headers['Idempotency-Key'] = crypto.randomUUID();
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(`${server.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text);
}

async function until<T>(what: string | (() => string), get: () => Promise<T | null | undefined | false>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await get().catch(() => null);
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function sit(server: RunningServer, table: string, s: Omit<Seat, 'ws' | 'messages'>): Promise<Seat> {
  const { ticket } = await call(server, 'POST', `/api/tables/${table}/ticket`, {}, s.token);
  const ws = new WebSocket(`${server.url.replace('http', 'ws')}/api/tables/${table}/ws?ticket=${encodeURIComponent(ticket)}`);
  const messages: any[] = [];
  ws.addEventListener('message', (e) => messages.push(JSON.parse(String(e.data))));
  await new Promise((resolve, reject) => {
    ws.addEventListener('open', resolve, { once: true });
    ws.addEventListener('error', reject, { once: true });
  });
  return { ...s, ws, messages };
}

const got = (seat: Seat, type: string) => until(`${type} for ${seat.player}`, async () => seat.messages.find((m) => m.type === type));

for (const { step, ending, table, vars } of SCENARIOS.filter((x) => !ONLY || ONLY.includes(x.step))) {
  test(`killed at "${step}" with ${PLAYERS} players, restarted: every balance and the table's books agree`, { timeout: 240_000 }, async () => {
    const persistTo = mkdtempSync(join(tmpdir(), 'pb-crash-'));
    const tableVars = { ...VARS, ...(await vars()) };
    let server = await startServer({ persistTo, vars: { ...tableVars, SHARED_TEST_HALT: step } });
    try {
      const seats: Seat[] = [];
      for (let i = 0; i < PLAYERS; i++) {
        const key = (await generateSigningKey()).key;
        const created = await call(server, 'POST', '/api/sessions', { room: 'hall-1', playerKey: playerKeyOf(key) });
        seats.push(await sit(server, table, { id: created.sessionId, token: created.token, start: created.balance, key, player: playerKeyOf(key) }));
      }
      const hello = await got(seats[0]!, 'state');
      for (const [i, s] of seats.entries()) {
        const request = await signSharedRequest(sharedStartRequest(hello.shoe.commitment, s.player, `crash seed ${i}`, 1 + i * 31), s.key);
        s.ws.send(JSON.stringify({ v: 1, type: 'start', request }));
      }
      await Promise.all(seats.map((s) => got(s, 'start-ack')));
      const open = await got(seats[0]!, 'open');
      for (const [i, s] of seats.entries()) {
        const bets = [{ sector: i % 5, box: (['player', 'banker', 'tie'] as const)[i % 3]!, amount: 1000 * (1 + (i % 4)) }];
        const request = await signSharedRequest(sharedBetRequest(table, open.shoe, open.round, s.player, bets), s.key);
        s.ws.send(JSON.stringify({ v: 1, type: 'bet', request }));
      }
      await until(`the halt at ${step}`, async () => server.log().includes(`halted at ${step}`));
      await server.kill();

      server = await startServer({ persistTo, vars: tableVars });
      // Any request wakes the table, which re-arms what its state needs.
      await call(server, 'GET', `/api/tables/${table}`);
      const jwks = (await call(server, 'GET', '/.well-known/jwks.json')) as Jwks;
      let seen = '';
      const agreed = await until(
        () =>
          `balances that agree with the transcript (${seen}); the server said:\n${server
            .log()
            .split('\n')
            .filter((l) => !l.includes('wrangler:info'))
            .join('\n')
            .slice(-4000)}`,
        async () => {
          const state = await call(server, 'GET', `/api/tables/${table}`);
          if (state.phase === 'awaiting-beacon') return null;
          const transcript = await call(server, 'GET', `/api/tables/${table}/transcript`);
          const settlements = new Map<string, any>(
            transcript.records.filter((r: any) => r.body.type === 'settlement').map((r: any) => [r.body.player, r.body]),
          );
          const balances = await Promise.all(
            seats.map(async (s) => (await call(server, 'GET', `/api/sessions/${s.id}`, undefined, s.token)).balance as number),
          );
          const expected = seats.map((s) => settlements.get(s.player)?.balanceAfter ?? s.start);
          seen = `phase ${state.phase}, balances ${balances.join(' ')}, expected ${expected.join(' ')}`;
          return expected.every((e, i) => e === balances[i]) ? { transcript, settlements, balances } : null;
        },
      );
      // Settled players started from their real balance; the others have their stake back.
      for (const s of seats) {
        const settled = agreed.settlements.get(s.player);
        if (settled) assert.equal(settled.balanceBefore, s.start);
      }
      const house = [...agreed.settlements.values()].reduce((n, b) => n + b.staked - b.returned, 0);
      const lost = seats.reduce((n, s, i) => n + s.start - agreed.balances[i]!, 0);
      assert.equal(lost, house, 'what the players lost is what the house won');
      const report = await verifySharedTableText(JSON.stringify(agreed.transcript), jwks);
      assert.equal(report.code, 'ok', JSON.stringify(report.failure));
      // The round ended as the scenario has it, in the signed records.
      const types = agreed.transcript.records.map((r: any) => `${r.body.type}:${r.body.shoe}`);
      if (ending === 'void') {
        assert.ok(types.includes('void:1'), `a void record: ${types.join(' ')}`);
        assert.equal(agreed.settlements.size, 0);
        assert.deepEqual(
          agreed.balances,
          seats.map((s) => s.start),
          'every stake is back',
        );
      }
      if (ending === 'reveal') {
        assert.equal(agreed.settlements.size, PLAYERS, 'every bettor is settled');
        const reveal = agreed.transcript.records.find((r: any) => r.body.type === 'reveal');
        assert.equal(reveal?.body.reason, 'reshuffle-limit');
        assert.ok(types.includes('commitment:2'), `the next shoe is committed after the reveal: ${types.join(' ')}`);
        assert.equal((await call(server, 'GET', `/api/tables/${table}`)).shoe.number, 2);
      }
      // Nothing is paid twice later either: a while on, the balances have not moved.
      await new Promise((r) => setTimeout(r, 3000));
      const later = await Promise.all(seats.map(async (s) => (await call(server, 'GET', `/api/sessions/${s.id}`, undefined, s.token)).balance as number));
      assert.deepEqual(later, agreed.balances);
      for (const s of seats) s.ws.close();
    } finally {
      await server.stop();
    }
  });
}
