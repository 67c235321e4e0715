/**
 * A hostile player at a 20-player shared table, end to end: the product as `npm start` runs it
 * (wrangler dev, the local beacon), two tables in the same run, 20 honest players at each, and at
 * one of them a hostile player who, every round, sends every kind of bad start (empty, control
 * characters, NFD, over-long, bad cuts, a second start, another key's), bad bets (over the maximum,
 * a fourth sector, under the minimum, another key, another round, a forged signature, malformed
 * frames, too large a message) and a flood of messages. Every honest player's rounds are dealt at
 * both tables; close → deal is printed for each (p50 / p99: figures, never asserted); both
 * transcripts verify; every session's balance is what the transcript says; nothing answers
 * `internal`.
 *
 * This file starts its own server, whatever PB_ENDPOINT says. PB_HOSTILE_ROUNDS sets the rounds (20).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateSigningKey, type Jwks, type SigningKey } from '../../shared/index.ts';
import { sharedBetRequest, sharedStartRequest, signSharedRequest } from '../../shared/fairness/pb-shared-1/index.ts';
import { verifySharedTableText } from '../../shared/fairness/pb-shared-2/verify.ts';
import { playerKeyOf } from '../../shared/fairness/pb-fair-2/records.ts';
import { call, type Seat, seat, seen, send, until } from './shared-players.ts';
import { startServer } from './server.ts';

const HONEST = 20;
const ROUNDS = Number(process.env.PB_HOSTILE_ROUNDS ?? 20);
const VARS = { SHARED_WINDOW_MS: '2000', SHARED_BEACON_LATE_MS: '30000', RATE_CREATE_BURST: '1000', SHARED_SEATS_PER_ADDRESS: '100' };
const BOXES = ['player', 'banker', 'tie'] as const;

/** Every kind of bad start, bad bet and flood one hostile session can send in a round. */
async function attack(h: Seat, table: string, commitment: any, open: any, stranger: SigningKey): Promise<void> {
  const startOf = (seed: string, cut: number, key = h.key) => signSharedRequest(sharedStartRequest(commitment, playerKeyOf(key), seed, cut), key);
  for (const [seed, cut] of [
    ['', 5],
    ['a\u0001b', 5],
    ['cafe\u0301', 5],
    ['x'.repeat(300), 5],
    ['a\u0378', 5],
    ['fine', 0],
    ['fine', 312],
  ] as const)
    send(h, { type: 'start', request: await startOf(seed, cut) });
  send(h, { type: 'start', request: await startOf('another key', 9, stranger) });
  const max = 10_000;
  const betOf = (bets: { sector: number; box: (typeof BOXES)[number]; amount: number }[], round = open.round, key = h.key) =>
    signSharedRequest(sharedBetRequest(table, open.shoe, round, playerKeyOf(key), bets), key);
  send(h, { type: 'bet', request: await betOf([{ sector: 0, box: 'banker', amount: max + 100 }]) });
  send(h, {
    type: 'bet',
    request: await betOf([0, 1, 2, 3].map((sector) => ({ sector, box: 'player' as const, amount: 100 }))),
  });
  send(h, { type: 'bet', request: await betOf([{ sector: 0, box: 'banker', amount: 50 }]) });
  send(h, { type: 'bet', request: await betOf([{ sector: 1, box: 'banker', amount: max }], open.round, stranger) });
  send(h, { type: 'bet', request: await betOf([{ sector: 1, box: 'banker', amount: 100 }], open.round + 5) });
  const forged = await betOf([{ sector: 1, box: 'banker', amount: 100 }]);
  send(h, { type: 'bet', request: { ...forged, body: { ...forged.body, bets: [{ sector: 1, box: 'banker', amount: 5_000 }] } } });
  send(h, '{"v":1,"type":"bet","request":');
  send(h, { type: 'nonsense' });
  send(h, { v: 2, type: 'state' });
  send(h, { type: 'state', pad: 'é'.repeat(2_100) });
  h.ws.send(new Uint8Array([1, 2, 3]));
  h.sent++;
  for (let i = 0; i < 40; i++) send(h, { type: 'state' });
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

test(
  `a hostile player at a ${HONEST}-player table for ${ROUNDS} rounds: every honest round dealt, every transcript verifies, money conserved`,
  { timeout: 300_000 },
  async () => {
    const server = await startServer({ vars: VARS });
    const statuses: number[] = [];
    const tables = { with: 'hall-1/hostile-with', without: 'hall-1/hostile-without' };
    const honest: Record<keyof typeof tables, Seat[]> = { with: [], without: [] };
    try {
      for (const name of ['with', 'without'] as const) for (let i = 0; i < HONEST; i++) honest[name].push(await seat(server, tables[name], statuses));
      const hostile = await seat(server, tables.with, statuses);
      const stranger = (await generateSigningKey()).key;
      const latencies: Record<keyof typeof tables, number[]> = { with: [], without: [] };
      /** Honest bets that reached the table after its close (refunded): printed, as figures. */
      const late: Record<keyof typeof tables, number> = { with: 0, without: 0 };

      const play = async (name: keyof typeof tables, withHostile: boolean) => {
        const table = tables[name];
        const seats = honest[name];
        const hello = await until('state', () => seen(seats[0]!, 'state'));
        for (const [i, s] of seats.entries())
          send(s, {
            type: 'start',
            request: await signSharedRequest(sharedStartRequest(hello.m.shoe.commitment, s.player, `honest ${name} ${i}`, 1 + i * 13), s.key),
          });
        if (withHostile)
          send(hostile, {
            type: 'start',
            request: await signSharedRequest(sharedStartRequest(hello.m.shoe.commitment, hostile.player, 'hostile but legal', 77), hostile.key),
          });
        await until('start-acks', () => seats.every((s) => seen(s, 'start-ack')));
        let after = 0;
        for (let r = 0; r < ROUNDS; r++) {
          // The next window with time left in it (a window that closed with no bets opens again: bet again then).
          let close: { at: number; m: any } | undefined;
          let shoe = 0;
          let round = 0;
          while (!close) {
            const open = await until(`open ${r}`, () =>
              seats[0]!.messages.slice(after).find((x) => x.m.type === 'open' && Date.parse(x.m.closesAt) - Date.now() > 1_200),
            );
            after = seats[0]!.messages.indexOf(open) + 1;
            ({ shoe, round } = open.m);
            if (withHostile) {
              send(hostile, {
                type: 'bet',
                request: await signSharedRequest(sharedBetRequest(table, shoe, round, hostile.player, [{ sector: 4, box: 'tie', amount: 100 }]), hostile.key),
              });
              await attack(hostile, table, hello.m.shoe.commitment, open.m, stranger);
            }
            await Promise.all(
              seats.map(async (s, i) => {
                const bets = [{ sector: i % 5, box: BOXES[(i + r) % 3]!, amount: 100 * (1 + ((i + r) % 5)) }];
                send(s, { type: 'bet', request: await signSharedRequest(sharedBetRequest(table, shoe, round, s.player, bets), s.key) });
              }),
            );
            const [s, rnd] = [shoe, round];
            // The close of this round, or the window opening again for it (no bet was taken in time).
            await until(`close or a new window ${s}/${rnd}`, () =>
              seats[0]!.messages.slice(after).find((x) => (x.m.type === 'close' && x.m.shoe === s && x.m.round === rnd) || x.m.type === 'open'),
            );
            close = seen(seats[0]!, 'close', (m) => m.shoe === s && m.round === rnd);
          }
          const closedAt = Date.parse(close.m.close.body.issuedAt);
          // The close commits to its bets; the round's bets file lists them.
          const listed = (await call(server, 'GET', `/api/tables/${tables[name]}/shoes/${close.m.shoe}/rounds/${close.m.round}/bets`)).body.close.bets;
          const inClose = new Set(listed.map((b: any) => b.body.player));
          late[name] += seats.filter((s) => !inClose.has(s.player)).length;
          await Promise.all(
            seats.map(async (s) => {
              // Every honest player receives every deal; a bettor in the close, its settlement too.
              const deal = await until(`deal ${shoe}/${round}`, () => seen(s, 'deal', (m) => m.shoe === shoe && m.round === round), 60_000);
              latencies[name].push(deal.at - closedAt);
              if (inClose.has(s.player))
                await until(`settlement ${shoe}/${round}`, () => seen(s, 'settlement', (m) => m.shoe === shoe && m.round === round), 60_000);
            }),
          );
        }
      };
      await Promise.all([play('with', true), play('without', false)]);

      // The hostile player's answers: coded refusals, never `internal`.
      const codes = new Map<string, number>();
      for (const { m } of hostile.messages) if (m.code) codes.set(m.code, (codes.get(m.code) ?? 0) + 1);
      assert.equal(codes.get('internal') ?? 0, 0, 'no internal error');
      for (const code of ['bad_client_seed', 'bad_cut', 'one_key_per_session', 'bets_invalid', 'rate_limited', 'message_too_large'])
        assert.ok((codes.get(code) ?? 0) > 0, `the hostile player was told ${code}: ${JSON.stringify([...codes])}`);

      const jwks = (await call(server, 'GET', '/.well-known/jwks.json')).body as Jwks;
      let transcripts = 0;
      for (const name of ['with', 'without'] as const) {
        const everyone = name === 'with' ? [...honest[name], hostile] : honest[name];
        // Money: each session's balance is its start less what it staked plus what came back, by the signed settlements.
        const agreed = await until(`balances at ${name}`, async () => {
          const t = await call(server, 'GET', `/api/tables/${tables[name]}/transcript`);
          const settlements = t.body.records.filter((r: any) => r.body.type === 'settlement').map((r: any) => r.body);
          const balances = await Promise.all(
            everyone.map(async (s) => (await call(server, 'GET', `/api/sessions/${s.id}`, undefined, s.token)).body.balance as number),
          );
          const expected = everyone.map(
            (s) => s.start - settlements.filter((x: any) => x.player === s.player).reduce((n: number, x: any) => n + x.staked - x.returned, 0),
          );
          const pending = t.body.records.at(-1).body.type === 'close';
          return !pending && expected.every((e, i) => e === balances[i]) ? { t, settlements, balances } : null;
        });
        const house = agreed.settlements.reduce((n: number, x: any) => n + x.staked - x.returned, 0);
        const lost = everyone.reduce((n, s, i) => n + s.start - agreed.balances[i]!, 0);
        assert.equal(lost, house, `${name}: what the players lost is what the house won`);
        // Ties: the Player and Banker bets of a tied round come back whole (RULES.md), and the settlements say so.
        const report = await verifySharedTableText(agreed.t.text, jwks);
        assert.equal(report.code, 'ok', JSON.stringify(report.failure));
        transcripts++;
        const starts = agreed.t.body.records.filter((r: any) => r.body.type === 'start');
        // A pb-shared-2 start lists its requests beside its body (FAIRNESS.md §D1).
        for (const st of starts)
          for (const r of st.requests ?? st.body.requests) assert.ok(r.body.player !== playerKeyOf(stranger), 'no stranger key in a start');
      }
      const figure = (xs: number[]) => `p50=${percentile(xs, 50)} p99=${percentile(xs, 99)} n=${xs.length}`;
      const fiveXX = statuses.filter((s) => s >= 500).length;
      console.log(
        `shared-table hostile: rounds=${ROUNDS} honest=${HONEST} close-deal-ms with hostile ${figure(latencies.with)} late-bets=${late.with}; without ${figure(latencies.without)} late-bets=${late.without}`,
      );
      console.log(
        `shared-table hostile: hostile frames=${hostile.sent} answers=${JSON.stringify(Object.fromEntries(codes))} http-5xx=${fiveXX} transcripts-verified=${transcripts}/2 money-conserved=yes`,
      );
      assert.equal(fiveXX, 0);
      for (const s of [...honest.with, ...honest.without, hostile]) s.ws.close();
    } catch (err) {
      console.error(`the server said:\n${server.log().slice(-1500)}`);
      for (const name of ['with', 'without'] as const) {
        const m = honest[name][0]?.messages.map((x) => x.m) ?? [];
        console.error(`${name}: ${m.map((x) => `${x.type}${x.code ? `:${x.code}` : ''}${x.round ? `@${x.round}` : ''}`).join(' ')}`);
      }
      throw err;
    } finally {
      await server.stop();
    }
  },
);
