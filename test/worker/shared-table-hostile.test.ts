/**
 * Shared tables against a hostile player, inside workerd: start requests checked by the
 * verifier's own rules, one key and one start per session, bounded records and messages, seats
 * capped per address and per session, and the low findings (an immediate answer while a private
 * round is pending, a byte limit, a ticket for the upgrade). Every transcript still verifies.
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, test } from 'vitest';
import { generateSigningKey, type Jwks, playerKeyOf, ROOMS } from '../../shared/index.ts';
import { sharedBetRequest, sharedStartRequest, signSharedRequest } from '../../shared/fairness/pb-shared-1/index.ts';
import { verifySharedTableText } from '../../shared/fairness/pb-shared-2/verify.ts';
import type { MerkleClose, MerkleStart, StartEntry } from '../../shared/fairness/pb-shared-2/records.ts';
import type { SharedBetRequest, SignedSharedRequest } from '../../shared/fairness/pb-shared-1/records.ts';
import { api, bet as privateBet, createSession, readySession, type Session, state } from './helpers.ts';
import type { SharedTable } from '../../worker/shared-table/shared-table.ts';
import type { ApiErrorBody } from '../../shared/api.ts';
import type { SignedShared } from '../../shared/fairness/pb-shared-1/records.ts';
import type { ServerMessageOf } from '../../shared/wire/shared-table-socket.ts';
import { join, upgrade } from './shared-helpers.ts';

const bet = (amount: number, box: 'player' | 'banker' | 'tie' = 'banker', sector = 1) => ({ sector, box, amount });

async function verified(id: string) {
  const jwks = (await api('GET', '/.well-known/jwks.json')).body as Jwks;
  const t = await api('GET', `/api/tables/${id}/transcript`);
  return { records: t.body.records as SignedShared[], report: await verifySharedTableText(t.text, jwks) };
}

/** Waits until the table owes nothing (every transfer answered). */
async function settled(id: string) {
  for (let i = 0; i < 300; i++) {
    const books = await env.SHARED_TABLES.getByName(id).books();
    if (books && books.pending === 0) return books;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('transfers still pending');
}

/** A betting window with time left to bet in. */
const freshWindow = (m: ServerMessageOf<'open'>) => Date.parse(m.closesAt) - Date.now() > 350;

async function sessions(n: number): Promise<Session[]> {
  return Promise.all(Array.from({ length: n }, () => createSession({ room: 'hall-1' })));
}

describe('start requests are checked by the verifier’s rules before anything is signed', () => {
  test('an empty seed, a control character, NFD text, an over-long seed and a bad cut are refused with their code; the shoe verifies', async () => {
    const id = 'hall-1/bad-starts';
    const [hostileSession, honestSession] = await sessions(2);
    const hostile = await join(hostileSession!, id);
    const honest = await join(honestSession!, id);
    const hello = await hostile.next('state');
    const commitment = hello.shoe.commitment;
    await honest.start(commitment, 'an honest seed', 7);
    await honest.next('start-ack');
    const bad: [string, number, string][] = [
      ['', 5, 'bad_client_seed'],
      ['a\u0001b', 5, 'bad_client_seed'],
      ['cafe\u0301', 5, 'bad_client_seed'],
      ['x'.repeat(300), 5, 'bad_client_seed'],
      ['x'.repeat(129), 5, 'bad_client_seed'],
      ['a\u0378', 5, 'bad_client_seed'],
      ['fine', 0, 'bad_cut'],
      ['fine', 312, 'bad_cut'],
    ];
    for (const [seed, cut, code] of bad) {
      await hostile.start(commitment, seed, cut);
      const refused = await hostile.next('start-refused');
      expect(refused.code, JSON.stringify(seed)).toBe(code);
      expect(refused.message.length).toBeGreaterThan(0);
    }
    // A lone surrogate has no canonical form, so no signature can cover it: a coded refusal, not an internal error.
    hostile.ws.send(
      `{"v":1,"type":"start","request":{"body":{"type":"start","table":"${id}","shoe":1,"commitment":"${commitment.hash}","player":"${hostile.player}","clientSeed":"a\\ud800","cut":5},"signature":"${'A'.repeat(86)}"}}`,
    );
    expect((await hostile.next('start-refused')).code).toBe('bad_player_signature');
    // Nothing of it entered the table: the hostile session has no start, and may not bet in the shoe's first round.
    const open = await honest.next('open', freshWindow);
    await hostile.bet(id, open.shoe, open.round, [bet(100)]);
    expect((await hostile.next('bet-refused')).code).toBe('start_required');
    // The honest player plays the round; the start holds only its seed; the shoe verifies.
    await honest.bet(id, open.shoe, open.round, [bet(100, 'player')]);
    await honest.next('bet-ack');
    const close = await honest.next('close');
    const startFile = (await api('GET', `/api/tables/${id}/shoes/${open.shoe}/start`)).body.start as StartEntry;
    expect(startFile.requests.map((r) => r.body.clientSeed)).toEqual(['an honest seed']);
    expect(close.start!.hash).toBe(startFile.hash);
    await honest.next('deal', (m) => m.round === open.round, 60_000);
    await settled(id);
    const { report } = await verified(id);
    expect(report.code).toBe('ok');
    hostile.close();
    honest.close();
  });
});

describe('one key and one start per session; the limits hold per session', () => {
  test('a session with many fresh keys cannot pass the box maximum or the three-sector rule, nor send a second start', async () => {
    const id = 'hall-1/many-keys';
    const [hostileSession, honestSession] = await sessions(2);
    const hostile = await join(hostileSession!, id);
    const honest = await join(honestSession!, id);
    const hello = await hostile.next('state');
    const commitment = hello.shoe.commitment;
    await honest.start(commitment, 'honest', 9);
    await honest.next('start-ack');
    await hostile.start(commitment, 'first key', 11);
    await hostile.next('start-ack');
    // A second start of the same session and key: refused, one per shoe.
    await hostile.start(commitment, 'again', 12);
    expect((await hostile.next('start-refused')).code).toBe('already_started');
    // Fresh keys of the same session: their starts and bets are refused.
    const fresh = await Promise.all(Array.from({ length: 5 }, async () => (await generateSigningKey()).key));
    for (const key of fresh) {
      const request = await signSharedRequest(sharedStartRequest(commitment, playerKeyOf(key), 'another key', 13), key);
      hostile.send({ type: 'start', request });
      expect((await hostile.next('start-refused')).code).toBe('one_key_per_session');
    }
    const open = await hostile.next('open', freshWindow);
    const max = ROOMS['hall-1'].limits.max;
    await hostile.bet(id, open.shoe, open.round, [bet(max, 'banker', 0), bet(max, 'player', 1), bet(max, 'tie', 2)]);
    expect((await hostile.next('bet-ack')).stake).toBe(3 * max);
    for (const [i, key] of fresh.entries()) {
      // More Banker, and a fourth sector, each under another key: all refused.
      const request = await signSharedRequest(sharedBetRequest(id, open.shoe, open.round, playerKeyOf(key), [bet(max, 'banker', 3 + (i % 2))]), key);
      hostile.send({ type: 'bet', request });
      expect((await hostile.next('bet-refused')).code).toBe('one_key_per_session');
    }
    await honest.bet(id, open.shoe, open.round, [bet(100, 'player')]);
    await honest.next('bet-ack');
    const close = await honest.next('close');
    // The session is in the start once and in the close once: Banker at the maximum, three sectors.
    const startFile = (await api('GET', `/api/tables/${id}/shoes/${open.shoe}/start`)).body.start as StartEntry;
    expect(startFile.requests.filter((r) => r.body.player === hostile.player)).toHaveLength(1);
    expect((close.start!.body as MerkleStart).startCount).toBe(2);
    // The close commits to the two bets; the round's bets file lists them.
    expect((close.close.body as MerkleClose).betCount).toBe(2);
    const listed = (await api('GET', `/api/tables/${id}/shoes/${open.shoe}/rounds/${open.round}/bets`)).body.close
      .bets as SignedSharedRequest<SharedBetRequest>[];
    expect(listed).toHaveLength(2);
    const mine = listed.find((b) => b.body.player === hostile.player)!;
    expect(mine.body.bets.filter((b) => b.box === 'banker').reduce((a, b) => a + b.amount, 0)).toBe(max);
    expect(new Set(mine.body.bets.map((b) => b.sector)).size).toBe(3);
    await honest.next('deal', (m) => m.round === open.round, 60_000);
    const books = await settled(id);
    expect(books.sessions[hostileSession!.id]!.debited).toBe(3 * max);
    expect((await verified(id)).report.code).toBe('ok');
    hostile.close();
    honest.close();
  });
});

describe('seats: per address, idle ones released on a full table; tables are not created by reads', () => {
  test('a GET of an unknown table writes nothing; the first seated player creates it; a configured table exists on its first GET', async () => {
    const id = 'hall-1/nobody-yet';
    const r = await api('GET', `/api/tables/${id}`);
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('not_found');
    expect((await api('GET', `/api/tables/${id}/transcript`)).status).toBe(404);
    // No state and no signed commitment behind the 404s.
    expect(await env.SHARED_TABLES.getByName(id).books()).toBeNull();
    const [s] = await sessions(1);
    const p = await join(s!, id);
    expect((await p.next('state')).shoe.commitment.body.type).toBe('commitment');
    expect((await api('GET', `/api/tables/${id}`)).status).toBe(200);
    p.close();
    expect((await api('GET', '/api/tables/hall-1/configured')).status).toBe(200);
  });

  test('one address seats 16 sessions at a table, not 17; another address still sits', async () => {
    const id = 'hall-1/one-address';
    const all = await sessions(18);
    const players = [];
    for (const s of all.slice(0, 16)) players.push(await join(s, id));
    const refused = await upgrade(`/api/tables/${id}/ws`, { Authorization: `Bearer ${all[16]!.token}` });
    expect(refused.status).toBe(429);
    expect((await refused.json<ApiErrorBody>()).error.code).toBe('too_many_seats');
    // A session already seated may open more tabs (up to 4 sockets, the oldest giving way).
    const tab = await upgrade(`/api/tables/${id}/ws`, { Authorization: `Bearer ${all[0]!.token}` });
    expect(tab.status).toBe(101);
    tab.webSocket!.accept();
    const other = await upgrade(`/api/tables/${id}/ws`, { Authorization: `Bearer ${all[17]!.token}`, 'CF-Connecting-IP': '192.0.2.7' });
    expect(other.status).toBe(101);
    other.webSocket!.accept();
    for (const p of players) p.close();
    tab.webSocket!.close(1000);
    other.webSocket!.close(1000);
  });

  test('a full table takes a newcomer in place of the seat idle the longest, never in place of one that is betting', async () => {
    const id = 'hall-1/full';
    await api('GET', `/api/tables/${id}`); // wakes the object (a 404: nobody sat yet)
    const stub = env.SHARED_TABLES.getByName(id);
    await runInDurableObject(stub, (t: SharedTable) => {
      t.seatCap = 3;
    });
    const [a, b, c, d, e] = await sessions(5);
    const seated = [await join(a!, id), await join(b!, id), await join(c!, id)];
    const closedWith = seated.map(() => null as number | null);
    seated.forEach((p, i) => p.ws.addEventListener('close', (ev) => (closedWith[i] = ev.code)));
    // Nobody idle yet: the fourth is refused.
    const full = await upgrade(`/api/tables/${id}/ws`, { Authorization: `Bearer ${d!.token}` });
    expect(full.status).toBe(503);
    expect((await full.json<ApiErrorBody>()).error.code).toBe('table_full');
    // The first seat bets; then every seat without a bet counts as idle.
    const hello = await seated[0]!.next('state');
    await seated[0]!.start(hello.shoe.commitment, 'betting seat', 5);
    await seated[0]!.next('start-ack');
    const open = await seated[0]!.next('open', freshWindow);
    await seated[0]!.bet(id, open.shoe, open.round, [bet(100)]);
    await seated[0]!.next('bet-ack');
    await runInDurableObject(stub, (t: SharedTable) => {
      t.idleMs = 0;
    });
    const p4 = await join(d!, id);
    await p4.next('state');
    const p5 = await join(e!, id);
    await p5.next('state');
    for (let i = 0; i < 50 && closedWith.filter((x) => x !== null).length < 2; i++) await new Promise((r) => setTimeout(r, 100));
    // The two idle seats gave way (4001); the betting one stayed.
    expect(closedWith.slice(1)).toEqual([4001, 4001]);
    expect(closedWith[0]).toBeNull();
    await seated[0]!.next('deal', (m) => m.round === open.round, 60_000);
    await settled(id);
    expect((await verified(id)).report.code).toBe('ok');
    for (const p of [seated[0]!, p4, p5]) p.close();
  });
});

describe('the low findings', () => {
  test('a shared bet from a session with a private round pending is refused at once (session_busy), and nothing is taken', async () => {
    const id = 'hall-1/busy';
    const s = await readySession({ room: 'hall-1' });
    const accepted = await privateBet(s, [bet(1000, 'player')]);
    expect(accepted.status).toBe(200);
    const before = (await state(s)).balance;
    const p = await join(s, id);
    const hello = await p.next('state');
    await p.start(hello.shoe.commitment, 'busy seat', 9);
    await p.next('start-ack');
    const open = await p.next('open', freshWindow);
    await p.bet(id, open.shoe, open.round, [bet(500)]);
    // Answered while the private round is still unsettled (it is never revealed in this test).
    const refused = await p.next('bet-refused');
    expect(refused.code).toBe('session_busy');
    expect(refused.message).toMatch(/private round/);
    expect((await state(s)).balance).toBe(before);
    const books = await settled(id);
    expect(books.sessions[s.id]?.debited ?? 0).toBe(0);
    p.close();
  });

  test('the 4 KiB message limit counts UTF-8 bytes; an under-minimum bet is told the minimum', async () => {
    const id = 'hall-1/bytes';
    const [s] = await sessions(1);
    const p = await join(s!, id);
    const hello = await p.next('state');
    // 2,100 UTF-16 units, 4,2xx bytes of UTF-8.
    p.ws.send(JSON.stringify({ v: 1, type: 'state', pad: 'é'.repeat(2_100) }));
    expect((await p.next('error')).code).toBe('message_too_large');
    // The same in ASCII under the limit is fine.
    p.ws.send(JSON.stringify({ v: 1, type: 'state', pad: 'e'.repeat(2_100) }));
    await p.next('state', (m) => m !== hello);
    await p.start(hello.shoe.commitment, 'small bettor', 9);
    await p.next('start-ack');
    const open = await p.next('open', freshWindow);
    await p.bet(id, open.shoe, open.round, [bet(50)]);
    const refused = await p.next('bet-refused');
    expect(refused.code).toBe('bets_invalid');
    expect(refused.message).toMatch(/is 0\.05, under the table minimum of 0\.10?\b/);
    p.close();
  });
});

describe('a ticket for the WebSocket upgrade, never the session token in the URL', () => {
  test('a ticket opens one socket at its table, once; the token in the query is refused', async () => {
    const id = 'hall-1/tickets';
    const [s] = await sessions(1);
    expect((await upgrade(`/api/tables/${id}/ws?token=${encodeURIComponent(s!.token)}`)).status).toBe(401);
    const ticketOf = async (table: string) => (await api('POST', `/api/tables/${table}/ticket`, { token: s!.token, body: {} })).body.ticket as string;
    expect((await api('POST', `/api/tables/${id}/ticket`, { body: {} })).status).toBe(401);
    const ticket = await ticketOf(id);
    expect(ticket).not.toContain(s!.token.split('.')[1]);
    const first = await upgrade(`/api/tables/${id}/ws?ticket=${encodeURIComponent(ticket)}`);
    expect(first.status).toBe(101);
    first.webSocket!.accept();
    // Used once: refused the second time.
    expect((await upgrade(`/api/tables/${id}/ws?ticket=${encodeURIComponent(ticket)}`)).status).toBe(401);
    // A ticket for another table does not open this one.
    const other = await ticketOf('hall-1/tickets-other');
    expect((await upgrade(`/api/tables/${id}/ws?ticket=${encodeURIComponent(other)}`)).status).toBe(401);
    first.webSocket!.close(1000);
  });
});
