/**
 * A shared table's relays inside workerd (worker/shared-table/relay.ts, relays.ts): the table holds
 * no socket; each relay holds a bounded number (a few here), one message from the table reaches
 * every player through them, bets come in through them in batches, a relay that restarts loses
 * only its sockets (the players reconnect, resynchronise and their bets count once), and a player
 * who comes back may sit at another relay.
 */
import type { MerkleClose } from '../../shared/fairness/pb-shared-2/records.ts';
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, test } from 'vitest';
import type { SharedTable } from '../../worker/shared-table/shared-table.ts';
import type { SharedTableRelay } from '../../worker/shared-table/relay.ts';
import type { ServerMessageOf } from '../../shared/wire/shared-table-socket.ts';
import { api, createSession, type Session } from './helpers.ts';
import { join, type Player } from './shared-helpers.ts';

const bet = (amount: number, box: 'player' | 'banker' | 'tie' = 'banker', sector = 1) => ({ sector, box, amount });
/** An open message with time left to bet in (SHARED_WINDOW_MS is 700 here). */
const freshWindow = (m: ServerMessageOf<'open'>) => Date.parse(m.closesAt) - Date.now() > 350;

function relayOf(id: string, n: number) {
  return env.SHARED_TABLE_RELAYS.getByName(`${id}@${n}`);
}

/** A table whose relays hold `perRelay` sockets each (the object woken by a GET, as the hostile tests do). */
async function tableWithRelaysOf(id: string, perRelay: number) {
  await api('GET', `/api/tables/${id}`);
  const stub = env.SHARED_TABLES.getByName(id);
  await runInDurableObject(stub, (t: SharedTable) => {
    t.relaySockets = perRelay;
  });
  return stub;
}

async function sessions(n: number): Promise<Session[]> {
  return Promise.all(Array.from({ length: n }, () => createSession({ room: 'hall-1' })));
}

/** Players join one by one (so that each relay fills before the next), send their start request and ack it. */
async function seatAll(ss: Session[], id: string): Promise<Player[]> {
  const players: Player[] = [];
  for (const s of ss) players.push(await join(s, id));
  const hello = await players[0]!.next('state');
  await Promise.all(players.map((p, i) => p.start(hello.shoe.commitment, `relay seat ${i}`, 3 + i * 11)));
  await Promise.all(players.map((p) => p.next('start-ack')));
  return players;
}

async function seatsAt(id: string, relays: number): Promise<string[][]> {
  return Promise.all(Array.from({ length: relays }, async (_, i) => (await relayOf(id, i).seats()).map((s) => s.session)));
}

/** Waits until the table owes nothing. */
async function settled(id: string) {
  for (let i = 0; i < 300; i++) {
    const books = await env.SHARED_TABLES.getByName(id).books();
    if (books && books.pending === 0) return books;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('transfers still pending');
}

describe('relays', () => {
  test('fan-out: five players over three relays of two sockets get the same close and deal, each its own ack and settlement, round after round', async () => {
    const id = 'hall-1/relay-fanout';
    const stub = await tableWithRelaysOf(id, 2);
    const ss = await sessions(5);
    const players = await seatAll(ss, id);
    // The table chose the relays: two, two and one sockets; it holds none itself.
    const at = await seatsAt(id, 3);
    expect(at.map((r) => r.length)).toEqual([2, 2, 1]);
    expect(at.flat().sort()).toEqual(ss.map((s) => s.id).sort());
    expect(await runInDurableObject(stub, (_t: SharedTable, state) => state.getWebSockets().length)).toBe(0);
    for (let round = 0; round < 2; round++) {
      const open = await players[0]!.next('open', freshWindow, 30_000);
      await Promise.all(players.map((p, i) => p.bet(id, open.shoe, open.round, [bet(100 * (i + 1), i % 2 ? 'player' : 'banker')])));
      const acks = await Promise.all(players.map((p) => p.next('bet-ack', (m) => m.round === open.round)));
      // Each ack went to its own player only.
      acks.forEach((a, i) => expect(a.player).toBe(players[i]!.player));
      const closes = await Promise.all(players.map((p) => p.next('close', (m) => m.round === open.round, 30_000)));
      const deals = await Promise.all(players.map((p) => p.next('deal', (m) => m.round === open.round, 30_000)));
      const settlements = await Promise.all(players.map((p) => p.next('settlement', (m) => m.round === open.round, 30_000)));
      for (const c of closes) expect(c.close.signature).toBe(closes[0]!.close.signature);
      for (const d of deals) expect(d.deal.signature).toBe(deals[0]!.deal.signature);
      settlements.forEach((s, i) => expect(s.settlement.body.player).toBe(players[i]!.player));
      // Every bet is in the close, whatever its relay (a tie pays or pushes: the settlement says which, and it is checked above).
      expect((closes[0]!.close.body as MerkleClose).betCount).toBe(5);
    }
    await settled(id);
    for (const p of players) p.close();
  });

  test('batching: bets sent at once through one relay reach the table in fewer calls than bets, each answered to its own socket', async () => {
    const id = 'hall-1/relay-batch';
    const stub = await tableWithRelaysOf(id, 100);
    const players = await seatAll(await sessions(6), id);
    const open = await players[0]!.next('open', freshWindow, 30_000);
    const before = await runInDurableObject(stub, (t: SharedTable) => ({ ...t.relayCalls }));
    // Signed first, then sent in one go: the relay gathers them in one tick.
    const requests = await Promise.all(players.map((p, i) => p.bet(id, open.shoe, open.round, [bet(100 * (i + 1))]).then(() => p)));
    const acks = await Promise.all(requests.map((p) => p.next('bet-ack', (m) => m.round === open.round)));
    acks.forEach((a, i) => expect(a.player).toBe(players[i]!.player));
    const after = await runInDurableObject(stub, (t: SharedTable) => ({ ...t.relayCalls }));
    expect(after.items - before.items).toBe(6);
    expect(after.batches - before.batches).toBeLessThan(6);
    await Promise.all(players.map((p) => p.next('settlement', (m) => m.round === open.round, 30_000)));
    await settled(id);
    for (const p of players) p.close();
  });

  test('a relay that restarts loses only its sockets: the players reconnect to it, resynchronise, and a bet sent again counts once', async () => {
    const id = 'hall-1/relay-restart';
    await tableWithRelaysOf(id, 2);
    const ss = await sessions(3);
    const players = await seatAll(ss, id);
    const open = await players[0]!.next('open', freshWindow, 30_000);
    const sent = await Promise.all(players.map((p, i) => p.bet(id, open.shoe, open.round, [bet(200 * (i + 1))])));
    await Promise.all(players.map((p) => p.next('bet-ack', (m) => m.round === open.round)));
    // Relay 0 (the first two players) is reset: its sockets close, its memory is gone.
    const closed = [0, 1].map((i) => new Promise<void>((resolve) => players[i]!.ws.addEventListener('close', () => resolve())));
    await runInDurableObject(relayOf(id, 0), (_r: SharedTableRelay, state) => {
      try {
        state.abort('a test restarts the relay');
      } catch {
        // abort throws in the caller by design
      }
    }).catch(() => undefined);
    await Promise.all(closed);
    // They come back: the same relay (their seats are there), the state first, then their bets resent.
    const back = [await join(ss[0]!, id, players[0]!.key), await join(ss[1]!, id, players[1]!.key)];
    for (const p of back) expect((await p.next('state')).you.bets.length).toBe(1);
    expect((await seatsAt(id, 1))[0]!.sort()).toEqual([ss[0]!.id, ss[1]!.id].sort());
    for (const [i, p] of back.entries()) p.send({ type: 'bet', request: sent[i] });
    for (const p of back) expect((await p.next('bet-ack', (m) => m.round === open.round)).duplicate).toBe(true);
    // The round goes on for all three; each stake was taken once.
    const deals = await Promise.all([back[0]!, back[1]!, players[2]!].map((p) => p.next('deal', (m) => m.round === open.round, 30_000)));
    expect(new Set(deals.map((d) => d.deal.signature)).size).toBe(1);
    const books = await settled(id);
    expect(books.sessions[ss[0]!.id]!.debited).toBe(200);
    expect(books.sessions[ss[1]!.id]!.debited).toBe(400);
    expect(books.sessions[ss[2]!.id]!.debited).toBe(600);
    for (const p of [...back, players[2]!]) p.close();
  });

  test('a player who comes back after a seat freed up sits at another relay, and plays there', async () => {
    const id = 'hall-1/relay-move';
    await tableWithRelaysOf(id, 1);
    const ss = await sessions(2);
    const [a, b] = await seatAll(ss, id);
    expect(await seatsAt(id, 2)).toEqual([[ss[0]!.id], [ss[1]!.id]]);
    // A leaves: relay 0 is free. B drops and reconnects: the table sends it to relay 0.
    a!.close();
    for (let i = 0; i < 50 && (await seatsAt(id, 1))[0]!.length > 0; i++) await new Promise((r) => setTimeout(r, 50));
    b!.close();
    await new Promise((r) => setTimeout(r, 200));
    const moved = await join(ss[1]!, id, b!.key);
    await moved.next('state');
    expect((await seatsAt(id, 2)).map((r) => r.length)).toEqual([1, 0]);
    expect((await seatsAt(id, 1))[0]).toEqual([ss[1]!.id]);
    const open = await moved.next('open', freshWindow, 30_000);
    await moved.bet(id, open.shoe, open.round, [bet(300, 'player')]);
    expect((await moved.next('bet-ack', (m) => m.round === open.round)).stake).toBe(300);
    expect((await moved.next('settlement', (m) => m.round === open.round, 30_000)).settlement.body.player).toBe(moved.player);
    await settled(id);
    moved.close();
  });
});
