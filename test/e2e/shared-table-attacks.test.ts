/**
 * The attack set of the shared-table security test, run again end to end (the product as
 * `npm start` runs it, its own server, default seat settings): each finding's attack, then the
 * counts printed — attacks, frames sent, 5xx answers, money conserved, transcripts verified.
 *
 * 1. bad start requests (empty, control character, NFD, 300 characters);
 * 2. one session swelling the start: 600 start requests under fresh keys;
 * 3. one session staking past the box maximum and the three sectors under 33 fresh keys;
 * 4. one address filling a table: 30 sessions try to sit (16 may);
 * 5. anonymous GETs creating tables, the session token in the upgrade URL, a message over 4 KiB
 *    of UTF-8 under 4,096 UTF-16 units, an under-minimum bet.
 * (A private round pending while a shared bet comes is in test/worker/shared-table-hostile.test.ts.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateSigningKey, type Jwks, playerKeyOf } from '../../shared/index.ts';
import { sharedBetRequest, sharedStartRequest, signSharedRequest } from '../../shared/fairness/pb-shared-1/index.ts';
import { verifySharedTableText } from '../../shared/fairness/pb-shared-2/verify.ts';
import { startServer } from './server.ts';
import { call, type Seat, seat, seen, send, until } from './shared-players.ts';

const VARS = { SHARED_WINDOW_MS: '3000', SHARED_BEACON_LATE_MS: '30000', RATE_CREATE_BURST: '1000' };

test(
  'the attack set of the findings, run again: every attack refused with its code, no 5xx, money conserved, the transcript verifies',
  { timeout: 300_000 },
  async () => {
    const server = await startServer({ vars: VARS });
    const statuses: number[] = [];
    const counts = { attacks: 0, frames: 0 };
    const table = 'hall-1/attacks';
    try {
      // 5. Anonymous reads create no table.
      for (let i = 0; i < 50; i++) {
        const r = await call(server, 'GET', `/api/tables/hall-1/ghost-${i}`);
        statuses.push(r.status);
        assert.equal(r.status, 404);
        counts.attacks++;
      }
      const honest = await seat(server, table, statuses);
      const hostile = await seat(server, table, statuses);
      const hello = await until('state', () => seen(honest, 'state'));
      const commitment = hello.m.shoe.commitment;
      send(honest, { type: 'start', request: await signSharedRequest(sharedStartRequest(commitment, honest.player, 'honest', 7), honest.key) });
      // 1. Bad starts.
      for (const seed of ['', 'a\u0001b', 'cafe\u0301', 'x'.repeat(300)]) {
        send(hostile, { type: 'start', request: await signSharedRequest(sharedStartRequest(commitment, hostile.player, seed, 5), hostile.key) });
        counts.attacks++;
      }
      await until('4 bad_client_seed', () => hostile.messages.filter((x) => x.m.code === 'bad_client_seed').length === 4);
      send(hostile, { type: 'start', request: await signSharedRequest(sharedStartRequest(commitment, hostile.player, 'hostile', 9), hostile.key) });
      await until('start-ack', () => seen(hostile, 'start-ack'));
      // 2. 600 start requests under fresh keys, from a second tab of the same session (most are rate_limited).
      const ticket = await call(server, 'POST', `/api/tables/${table}/ticket`, {}, hostile.token);
      const tab: Seat = {
        ...hostile,
        ws: new WebSocket(`${server.url.replace('http', 'ws')}/api/tables/${table}/ws?ticket=${encodeURIComponent(ticket.body.ticket)}`),
        messages: [],
        sent: 0,
      };
      tab.ws.addEventListener('message', (e) => tab.messages.push({ at: Date.now(), m: JSON.parse(String(e.data)) }));
      await new Promise((resolve) => tab.ws.addEventListener('open', resolve, { once: true }));
      const keys = await Promise.all(Array.from({ length: 600 }, async () => (await generateSigningKey()).key));
      for (const key of keys) {
        send(tab, { type: 'start', request: await signSharedRequest(sharedStartRequest(commitment, playerKeyOf(key), 'y'.repeat(128), 5), key) });
        counts.attacks++;
      }
      // 3. 33 fresh keys each staking the Banker maximum, and a fourth sector.
      const open = await until('open', () => honest.messages.find((x) => x.m.type === 'open' && Date.parse(x.m.closesAt) - Date.now() > 1_500));
      const { shoe, round } = open.m;
      const max = 10_000;
      send(hostile, {
        type: 'bet',
        request: await signSharedRequest(sharedBetRequest(table, shoe, round, hostile.player, [{ sector: 0, box: 'banker', amount: max }]), hostile.key),
      });
      for (const [i, key] of keys.slice(0, 33).entries()) {
        send(hostile, {
          type: 'bet',
          request: await signSharedRequest(sharedBetRequest(table, shoe, round, playerKeyOf(key), [{ sector: 1 + (i % 4), box: 'banker', amount: max }]), key),
        });
        counts.attacks++;
      }
      send(honest, {
        type: 'bet',
        request: await signSharedRequest(sharedBetRequest(table, shoe, round, honest.player, [{ sector: 2, box: 'player', amount: 500 }]), honest.key),
      });
      // 5. 4,200 bytes of UTF-8 in 2,100 units; an under-minimum bet.
      send(honest, { type: 'state', pad: 'é'.repeat(2_100) });
      counts.attacks++;
      const close = await until('close', () => seen(honest, 'close', (m) => m.shoe === shoe && m.round === round), 60_000);
      // The start commits to the start requests (FAIRNESS.md §D3a); the shoe's start file lists them.
      assert.equal(close.m.start.body.startCount, 2, 'one start per session');
      const startRequests = (await call(server, 'GET', `/api/tables/${table}/shoes/${shoe}/start`)).body.start.requests;
      assert.deepEqual(startRequests.map((r: any) => r.body.player).sort(), [honest.player, hostile.player].sort(), 'one start per session');
      assert.ok(startRequests.every((r: any) => r.body.clientSeed.length <= 128));
      assert.equal(close.m.close.body.betCount, 2, 'one bet per session');
      // The close commits to the bets; the round's bets file lists them.
      const listed = (await call(server, 'GET', `/api/tables/${table}/shoes/${shoe}/rounds/${round}/bets`)).body.close.bets;
      assert.equal(listed.length, 2, 'one bet per session');
      const hostileBanker = listed
        .filter((b: any) => b.body.player === hostile.player)
        .flatMap((b: any) => b.body.bets)
        .filter((b: any) => b.box === 'banker')
        .reduce((n: number, b: any) => n + b.amount, 0);
      assert.equal(hostileBanker, max, 'the Banker maximum holds per session');
      await until('deal', () => seen(honest, 'deal', (m) => m.shoe === shoe && m.round === round), 60_000);
      const open2 = await until('open 2', () =>
        honest.messages.find((x) => x.m.type === 'open' && x.m.round === round + 1 && Date.parse(x.m.closesAt) - Date.now() > 1_000),
      );
      send(honest, {
        type: 'bet',
        request: await signSharedRequest(sharedBetRequest(table, shoe, open2.m.round, honest.player, [{ sector: 0, box: 'tie', amount: 50 }]), honest.key),
      });
      counts.attacks++;
      const small = await until('bet-refused', () => seen(honest, 'bet-refused', (m) => m.code === 'bets_invalid'));
      assert.match(small.m.message, /under the table minimum/);
      assert.ok(seen(honest, 'error', (m) => m.code === 'message_too_large'));
      // 5. The session token in the upgrade URL.
      const withToken = await new Promise<'open' | 'refused'>((resolve) => {
        const ws = new WebSocket(`${server.url.replace('http', 'ws')}/api/tables/${table}/ws?token=${encodeURIComponent(hostile.token)}`);
        ws.addEventListener('open', () => (ws.close(), resolve('open')));
        ws.addEventListener('error', () => resolve('refused'));
      });
      assert.equal(withToken, 'refused');
      counts.attacks++;
      // 4. One address, 30 sessions: 16 seats (SHARED_SEATS_PER_ADDRESS), the others 429; the two above count.
      const crowd: Seat[] = [];
      let refused = 0;
      for (let i = 0; i < 30; i++) {
        counts.attacks++;
        try {
          crowd.push(await seat(server, table, statuses));
        } catch {
          refused++;
        }
      }
      assert.equal(crowd.length, 14);
      assert.equal(refused, 16);
      const codes = new Map<string, number>();
      for (const { m } of [...hostile.messages, ...tab.messages]) if (m.code) codes.set(m.code, (codes.get(m.code) ?? 0) + 1);
      assert.equal(codes.get('internal') ?? 0, 0);
      for (const code of ['bad_client_seed', 'one_key_per_session']) assert.ok((codes.get(code) ?? 0) > 0, `${code}: ${JSON.stringify([...codes])}`);

      // Money and the transcript.
      const everyone = [honest, hostile];
      const jwks = (await call(server, 'GET', '/.well-known/jwks.json')).body as Jwks;
      const agreed = await until('balances', async () => {
        const t = await call(server, 'GET', `/api/tables/${table}/transcript`);
        const settlements = t.body.records.filter((r: any) => r.body.type === 'settlement').map((r: any) => r.body);
        const balances = await Promise.all(
          everyone.map(async (s) => (await call(server, 'GET', `/api/sessions/${s.id}`, undefined, s.token)).body.balance as number),
        );
        const expected = everyone.map(
          (s) => s.start - settlements.filter((x: any) => x.player === s.player).reduce((n: number, x: any) => n + x.staked - x.returned, 0),
        );
        return expected.every((e, i) => e === balances[i]) ? t : null;
      });
      const report = await verifySharedTableText(agreed.text, jwks);
      assert.equal(report.code, 'ok', JSON.stringify(report.failure));
      counts.frames = hostile.sent + tab.sent + honest.sent;
      const fiveXX = statuses.filter((s) => s >= 500).length;
      console.log(
        `shared-table attacks: attacks=${counts.attacks} frames=${counts.frames} http-5xx=${fiveXX} money-conserved=yes transcripts-verified=1/1 answers=${JSON.stringify(Object.fromEntries(codes))}`,
      );
      assert.equal(fiveXX, 0);
      for (const s of [...everyone, tab, ...crowd]) s.ws.close();
    } catch (err) {
      console.error(`the server said:\n${server.log().slice(-1500)}`);
      throw err;
    } finally {
      await server.stop();
    }
  },
);
