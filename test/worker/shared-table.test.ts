/**
 * Shared tables (issue 13) inside workerd: many players at one table, the betting window, the
 * beacon, voids, hibernation, reconnects, and money conserved across the table and the sessions.
 * Betting windows are short here (vitest.config.ts SHARED_WINDOW_MS); the beacon is the Worker's
 * own local one, reached through the same code path as a drand relay.
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, test } from 'vitest';
import type { SharedTable } from '../../worker/shared-table.ts';
import { api, createSession, type Session, state } from './helpers.ts';
import { join, upgrade } from './shared-helpers.ts';

const bet = (amount: number, box: 'player' | 'banker' | 'tie' = 'banker', sector = 1) => ({ sector, box, amount });

async function balance(s: Session): Promise<number> {
  return (await state(s)).balance;
}

function table(id: string) {
  return env.SHARED_TABLES.getByName(id);
}

/** Waits until the table owes nothing (every transfer answered). */
async function settled(id: string): Promise<NonNullable<Awaited<ReturnType<SharedTable['books']>>>> {
  for (let i = 0; i < 200; i++) {
    const books = await table(id).books();
    if (books && books.pending === 0) return books;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('transfers still pending');
}

describe('the routes', () => {
  test('state of a table by id; malformed ids are 404; the socket needs the upgrade and a token', async () => {
    const r = await api('GET', '/api/tables/hall-1/routes.reshuffle.fast');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ tableId: 'hall-1/routes.reshuffle.fast', room: 'hall-1', mode: 'reshuffle', speed: 'fast', phase: 'idle', round: 1 });
    expect(r.body.shoe.commitment.body.type).toBe('shared-commitment');
    expect(r.text).not.toMatch(/serverSeed"/);
    for (const bad of ['/api/tables/hall-9/a', '/api/tables/hall-1/A', '/api/tables/hall-1/a.fast.reshuffle', '/api/tables/hall-1/a.slow']) {
      expect((await api('GET', bad)).status, bad).toBe(404);
    }
    expect((await api('GET', '/api/tables/hall-1/routes/ws')).status).toBe(426);
    expect((await upgrade('/api/tables/hall-1/routes/ws')).status).toBe(401);
    expect((await upgrade('/api/tables/hall-1/routes/ws', { Authorization: 'Bearer nonsense' })).status).toBe(401);
    const vip = await createSession({ room: 'vip' });
    const wrong = await upgrade('/api/tables/hall-1/routes/ws', { Authorization: `Bearer ${vip.token}` });
    expect(wrong.status).toBe(403);
    expect(((await wrong.json()) as any).error.code).toBe('wrong_room');
    expect((await api('POST', '/api/tables/hall-1/routes')).status).toBe(405);
  });
});

describe('a round with many players', () => {
  test('bets are debited, the close lists them by seat, the round is dealt with the beacon and settled per player; money is conserved', async () => {
    const id = 'hall-1/many';
    const sessions = await Promise.all(Array.from({ length: 12 }, () => createSession({ room: 'hall-1' })));
    const before = await Promise.all(sessions.map(balance));
    const players = await Promise.all(sessions.map((s) => join(s, id)));
    const hello = await players[0]!.next('state');
    expect(hello.you.seat).toMatch(/^p-[0-9a-f]{10}$/);
    players[0]!.send({ type: 'seed', clientSeed: 'first player seed', cut: 200 });
    await players[0]!.next('seed-ack');
    const open = await players[0]!.next('open');
    const round = open.round;
    const stakes = players.map((_, i) => 500 * (i + 1));
    players.forEach((p, i) => p.send({ type: 'bet', round, betId: `b-${i}`, bets: [bet(stakes[i]!, (['player', 'banker', 'tie'] as const)[i % 3])] }));
    const acks = await Promise.all(players.map((p) => p.next('bet-ack')));
    acks.forEach((a, i) => expect(a.stake).toBe(stakes[i]));
    const close = (await players[0]!.next('close')).close;
    expect(close.body.type).toBe('shared-close');
    expect(close.body.bets).toHaveLength(12);
    // Pseudonymous: seats, never session ids.
    const text = JSON.stringify(close);
    for (const s of sessions) expect(text).not.toContain(s.id);
    // A bet after the close is refused.
    players[1]!.send({ type: 'bet', round, betId: 'late', bets: [bet(1000)] });
    // (the same player has a bet in the round: a new one is refused for that, or for the close)
    const refused = await players[1]!.next('bet-refused', (m) => m.betId === 'late');
    expect(['already_bet', 'betting_closed']).toContain(refused.code);
    const fresh = await createSession({ room: 'hall-1' });
    const latecomer = await join(fresh, id);
    const joined = await latecomer.next('state');
    expect(joined.phase === 'awaiting-beacon' || joined.round > round).toBe(true);
    latecomer.send({ type: 'bet', round, betId: 'late-2', bets: [bet(1000)] });
    expect((await latecomer.next('bet-refused')).code).toBe('betting_closed');

    const deal = (await players[0]!.next('deal', (m) => m.round === round, 60_000)).result;
    expect(deal.body.type).toBe('shared-result');
    expect(deal.body.beacon.round).toBe(close.body.beacon.round);
    expect(deal.body.close).toBe(close.hash);
    const settlements = await Promise.all(players.map((p) => p.next('settlement', (m) => m.round === round)));
    settlements.forEach((m, i) => {
      expect(m.settlement.body.seat).toBe(acks[i].seat);
      expect(m.settlement.body.staked).toBe(stakes[i]);
      expect(m.settlement.body.outcome).toBe(deal.body.dealt.outcome);
    });
    const books = await settled(id);
    const after = await Promise.all(sessions.map(balance));
    sessions.forEach((s, i) => {
      const p = books.players[s.id]!;
      expect(after[i]).toBe(before[i]! - p.debited + p.credited + p.refunded);
      expect(after[i]! - before[i]!).toBe(settlements[i].settlement.body.returned - stakes[i]!);
    });
    const moved = after.reduce((a, b) => a + b, 0) - before.reduce((a, b) => a + b, 0);
    expect(moved).toBe(-books.houseNet);
    // The transcript holds commitment, start, close, result and every settlement.
    const t = await api('GET', `/api/tables/${id}/transcript`);
    const kinds = t.body.records.map((r: any) => r.body.type);
    expect(kinds.slice(0, 4)).toEqual(['shared-commitment', 'shared-start', 'shared-close', 'shared-result']);
    expect(kinds.filter((k: string) => k === 'shared-settlement')).toHaveLength(12);
    expect(t.body.records[1].body.cut).toBe(200);
    for (const p of [...players, latecomer]) p.close();
  });
});

describe('refusals, duplicates and reconnects', () => {
  test('a bet sent twice counts once; a bad message is an error, not a crash; a reconnect resynchronises', async () => {
    const id = 'hall-1/dupes';
    const s = await createSession({ room: 'hall-1' });
    const before = await balance(s);
    const p = await join(s, id);
    const open = await p.next('open');
    p.ws.send('not json');
    expect((await p.next('error')).code).toBe('bad_json');
    p.ws.send(JSON.stringify({ v: 9, type: 'bet' }));
    expect((await p.next('error')).code).toBe('bad_version');
    p.send({ type: 'bet', round: open.round, betId: 'x', bets: [bet(7)] });
    expect((await p.next('bet-refused')).code).toBeTruthy();
    p.send({ type: 'bet', round: open.round, betId: 'once', bets: [bet(2000)] });
    p.send({ type: 'bet', round: open.round, betId: 'once', bets: [bet(2000)] });
    const first = await p.next('bet-ack');
    expect(first.stake).toBe(2000);
    // The copy that came while the stake was being taken is told so; one sent after the ack gets the ack again.
    expect(await p.next('bet-pending')).toMatchObject({ duplicate: true, betId: 'once' });
    p.send({ type: 'bet', round: open.round, betId: 'once', bets: [bet(2000)] });
    const again = await p.next('bet-ack', (m) => m.duplicate === true);
    expect(again.stake).toBe(2000);
    // Dropped: the player comes back on a new socket and sees their bet in the round.
    p.close();
    const back = await join(s, id);
    const resync = await back.next('state');
    expect(resync.round).toBe(open.round);
    if (resync.phase === 'betting') expect(resync.you.bet).toMatchObject({ betId: 'once', stake: 2000, status: 'accepted' });
    back.send({ type: 'bet', round: open.round, betId: 'once', bets: [bet(2000)] });
    const settlement = await back.next('settlement', (m) => m.round === open.round, 60_000);
    await settled(id);
    expect(await balance(s)).toBe(before - 2000 + settlement.settlement.body.returned);
    const books = (await table(id).books())!;
    expect(books.players[s.id]!.debited).toBe(2000);
    back.close();
  });

  test('a player who leaves mid-round is still settled', async () => {
    const id = 'hall-1/leaver';
    const s = await createSession({ room: 'hall-1' });
    const stay = await createSession({ room: 'hall-1' });
    const before = await balance(s);
    const p = await join(s, id);
    const q = await join(stay, id);
    const open = await p.next('open');
    p.send({ type: 'bet', round: open.round, betId: 'leave', bets: [bet(5000, 'player')] });
    await p.next('bet-ack');
    p.close();
    const deal = await q.next('deal', (m) => m.round === open.round, 60_000);
    await settled(id);
    const records = (await api('GET', `/api/tables/${id}/transcript`)).body.records;
    const mine = records.find((r: any) => r.body.type === 'shared-settlement' && r.body.round === open.round);
    expect(mine.body.outcome).toBe(deal.result.body.dealt.outcome);
    expect(await balance(s)).toBe(before - 5000 + mine.body.returned);
    q.close();
  });
});

describe('the beacon is late', () => {
  test('the round voids and every stake is returned, signed', async () => {
    const id = 'hall-1/late-beacon';
    const stub = table(id);
    await api('GET', `/api/tables/${id}`);
    await runInDurableObject(stub, (instance: SharedTable) => {
      instance.beaconFetch = async () => new Response('{"error":"down"}', { status: 503 });
    });
    const sessions = await Promise.all([createSession(), createSession(), createSession()]);
    const before = await Promise.all(sessions.map(balance));
    const players = await Promise.all(sessions.map((s) => join(s, id)));
    const open = await players[0]!.next('open');
    players.forEach((p, i) => p.send({ type: 'bet', round: open.round, betId: `v${i}`, bets: [bet(1000 * (i + 1))] }));
    await Promise.all(players.map((p) => p.next('bet-ack')));
    const voided = await players[0]!.next('void', (m) => m.round === open.round, 60_000);
    expect(voided.void.body.type).toBe('shared-void');
    expect(voided.void.body.reason).toMatch(/did not come/);
    const refunds = await Promise.all(players.map((p) => p.next('refund', (m) => m.round === open.round)));
    refunds.forEach((r, i) => expect(r.refund.body.returned).toBe(1000 * (i + 1)));
    await settled(id);
    expect(await Promise.all(sessions.map(balance))).toEqual(before);
    await runInDurableObject(stub, (instance: SharedTable) => {
      instance.beaconFetch = undefined;
    });
    players.forEach((p) => p.close());
  });
});

describe('hibernation', () => {
  test('a table with nobody connected and nothing owed holds no alarm', async () => {
    const id = 'hall-1/sleepy';
    const s = await createSession();
    const p = await join(s, id);
    await p.next('open');
    expect(await table(id).alarmAt()).not.toBeNull();
    p.close();
    // The window closes with no bets and nobody there: the table sleeps.
    for (let i = 0; i < 100 && (await table(id).alarmAt()) !== null; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await table(id).alarmAt()).toBeNull();
    expect((await api('GET', `/api/tables/${id}`)).body.phase).toBe('idle');
  });
});
