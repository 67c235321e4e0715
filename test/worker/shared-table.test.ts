/**
 * Shared tables inside workerd: many players at one table, the betting window, the
 * beacon, voids, hibernation, reconnects, and money conserved across the table and the sessions.
 * Betting windows are short here (vitest.config.ts SHARED_WINDOW_MS); the beacon is the Worker's
 * own local one, reached through the same code path as a drand relay. Players sign their own
 * requests (pb-shared-1); the table's transcript is checked with the shared verifier.
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, test } from 'vitest';
import { type Jwks, sharedTransferId, type Signed, type Transfer, verifyFileText } from '../../shared/index.ts';
import { verifySharedTableText } from '../../shared/fairness/pb-shared-2/verify.ts';
import { outcomeCode, outcomeOfCode } from '../../shared/fairness/pb-shared-1/outcomes.ts';
import type { SharedTable } from '../../worker/shared-table/shared-table.ts';
import { api, bet as privateBet, createSession, readySession, reveal, type Session, state, tableFile } from './helpers.ts';
import type { ApiErrorBody } from '../../shared/api.ts';
import type { SharedSettlement, SignedShared } from '../../shared/fairness/pb-shared-1/records.ts';
import {
  checkBetCount,
  checkBetsCommitted,
  checkMyBet,
  checkMyStart,
  type MerkleClose,
  type MerkleStart,
  type Signed2,
  startsRoot,
} from '../../shared/fairness/pb-shared-2/index.ts';
import { join, type Player, upgrade } from './shared-helpers.ts';

const bet = (amount: number, box: 'player' | 'banker' | 'tie' = 'banker', sector = 1) => ({ sector, box, amount });

async function balance(s: Session): Promise<number> {
  return (await state(s)).balance;
}

function table(id: string) {
  return env.SHARED_TABLES.getByName(id);
}

/** Waits until the table owes nothing (every transfer answered). */
export async function settled(id: string) {
  for (let i = 0; i < 300; i++) {
    const books = await table(id).books();
    if (books && books.pending === 0) return books;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('transfers still pending');
}

/** Seats players: they join, send their start request for the committed shoe, and see the window open. */
async function seat(sessions: Session[], id: string) {
  const players = await Promise.all(sessions.map((s) => join(s, id)));
  const hello = await players[0]!.next('state');
  const starts = await Promise.all(players.map((p, i) => p.start(hello.shoe.commitment, `seed of seat ${i}`, 1 + i * 17)));
  await Promise.all(players.map((p) => p.next('start-ack')));
  const open = await players[0]!.next('open');
  return { players, open, starts };
}

async function verified(id: string) {
  const jwks = (await api('GET', '/.well-known/jwks.json')).body as Jwks;
  const t = await api('GET', `/api/tables/${id}/transcript`);
  return { records: t.body.records as SignedShared[], report: await verifySharedTableText(t.text, jwks) };
}

describe('the routes', () => {
  test('state of a table by id; malformed ids are 404; the socket needs the upgrade and a token of the room', async () => {
    const r = await api('GET', '/api/tables/hall-1/routes.reshuffle.fast');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ tableId: 'hall-1/routes.reshuffle.fast', room: 'hall-1', mode: 'reshuffle', speed: 'fast', phase: 'idle', round: 1 });
    expect(r.body.shoe.commitment.body.type).toBe('commitment');
    expect(r.body.shoe.params).toMatchObject({ algorithm: 'pb-shared-2', mode: 'reshuffle' });
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
    expect((await wrong.json<ApiErrorBody>()).error.code).toBe('wrong_room');
    expect((await api('POST', '/api/tables/hall-1/routes')).status).toBe(405);
  });

  test('a shoe-mode table commits the cut card in the middle of the stack, as rule text 000 and a private table do', async () => {
    const r = await api('GET', '/api/tables/hall-1/middle');
    expect(r.status).toBe(200);
    expect(r.body.shoe.params).toMatchObject({ algorithm: 'pb-shared-2', mode: 'shoe', decks: 6, cutCardFromEnd: 156 });
    expect(r.body.shoe.commitment.body.params.cutCardFromEnd).toBe(156);
  });
});

describe('a round with many players', () => {
  test("bets are debited, the close commits to them (each player gets its proof; the round's bets file lists them), the round is dealt with the beacon and settled per player; money is conserved; the transcript verifies", async () => {
    const id = 'hall-1/many';
    const sessions = await Promise.all(Array.from({ length: 12 }, () => createSession({ room: 'hall-1' })));
    const before = await Promise.all(sessions.map(balance));
    const { players, open, starts } = await seat(sessions, id);
    const { shoe, round } = open;
    const stakes = players.map((_, i) => 500 * (i + 1));
    const signed = await Promise.all(players.map((p, i) => p.bet(id, shoe, round, [bet(stakes[i]!, (['player', 'banker', 'tie'] as const)[i % 3])])));
    const acks = await Promise.all(players.map((p) => p.next('bet-ack')));
    acks.forEach((a, i) => expect(a.stake).toBe(stakes[i]));
    const closeMsg = await players[0]!.next('close');
    const close = closeMsg.close;
    // pb-shared-2: the start every player gets commits to the 12 start requests (root, count, cut) and lists none of them.
    const start = closeMsg.start as Signed2<MerkleStart>;
    expect(start.body).toMatchObject({ type: 'start', startCount: 12 });
    expect(start).not.toHaveProperty('requests');
    expect(start.body).not.toHaveProperty('requests');
    expect(close.body.type).toBe('close');
    // pb-shared-2: the close every player gets commits to the bets (root, count, totals) and lists none of them.
    const merkle = close as Signed2<MerkleClose>;
    expect(merkle.body.betCount).toBe(12);
    expect(close).not.toHaveProperty('bets');
    expect(close.body).not.toHaveProperty('bets');
    expect(merkle.body.totals).toEqual({
      player: stakes.filter((_, i) => i % 3 === 0).reduce((a, b) => a + b, 0),
      banker: stakes.filter((_, i) => i % 3 === 1).reduce((a, b) => a + b, 0),
      tie: stakes.filter((_, i) => i % 3 === 2).reduce((a, b) => a + b, 0),
    });
    // Each player's socket gets the inclusion proof of its own bet, and it checks against the signed close.
    const jwks = (await api('GET', '/.well-known/jwks.json')).body as Jwks;
    const proofs = await Promise.all(players.map((p) => p.next('proof', (m) => m.round === round)));
    for (const [i, m] of proofs.entries()) {
      expect(m.player).toBe(players[i]!.player);
      const checked = await checkMyBet({ close: merkle, bet: signed[i]!, proof: m.proof, player: players[i]!.player, keys: jwks });
      expect(checked.ok, JSON.stringify(checked)).toBe(true);
      expect(m.proof.path.length).toBeLessThanOrEqual(4); // ⌈log2 12⌉
    }
    // The round's bets file: the close with every accepted request beside it, as the transcript holds it.
    const file = await api('GET', `/api/tables/${id}/shoes/${shoe}/rounds/${round}/bets`);
    expect(file.status).toBe(200);
    expect(file.body.version).toBe('pb-shared-2');
    expect(file.body.close.hash).toBe(close.hash);
    expect(file.body.close.bets).toHaveLength(12);
    expect(checkBetCount(merkle.body, file.body.close.bets)).toBeNull();
    expect(checkBetsCommitted(merkle.body, file.body.close.bets)).toBeNull();
    expect((await api('GET', `/api/tables/${id}/shoes/${shoe}/rounds/${round + 5}/bets`)).status).toBe(404);
    expect((await api('GET', `/api/tables/${id}/shoes/x/rounds/1/bets`)).status).toBe(400);
    // Each seated player gets the proof of its own start request: its seed and cut are in the shoe's start.
    const startProofs = await Promise.all(players.map((p) => p.next('start-proof', (m) => m.shoe === shoe)));
    for (const [i, m] of startProofs.entries()) {
      const checked = await checkMyStart({ start, request: starts[i]!, proof: m.proof, player: players[i]!.player, keys: jwks });
      expect(checked.ok, JSON.stringify(checked)).toBe(true);
    }
    // The shoe's start file: the start with every start request beside it, as the transcript holds it.
    const startFile = await api('GET', `/api/tables/${id}/shoes/${shoe}/start`);
    expect(startFile.body).toMatchObject({ version: 'pb-shared-2', start: { hash: start.hash } });
    expect(startsRoot(startFile.body.start.requests)).toBe(start.body.startsRoot);
    expect((await api('GET', `/api/tables/${id}/shoes/${shoe + 5}/start`)).status).toBe(404);
    // Pseudonymous: player keys, never session ids.
    const text = JSON.stringify(closeMsg) + file.text;
    for (const s of sessions) expect(text).not.toContain(s.id);
    // A bet after the close is refused.
    const fresh = await createSession({ room: 'hall-1' });
    const latecomer = await join(fresh, id);
    const joined = await latecomer.next('state');
    expect(joined.phase === 'awaiting-beacon' || joined.round > round).toBe(true);
    await latecomer.bet(id, shoe, round, [bet(1000)]);
    expect((await latecomer.next('bet-refused')).code).toBe('betting_closed');

    const deal = (await players[0]!.next('deal', (m) => m.round === round, 60_000)).deal;
    expect(deal.body.type).toBe('deal');
    expect(deal.body.beacon.round).toBe(close.body.beaconRound);
    expect(deal.body.prev).toBe(close.hash);
    const settlements = await Promise.all(players.map((p) => p.next('settlement', (m) => m.round === round)));
    settlements.forEach((m, i) => {
      expect(m.settlement.body.player).toBe(players[i]!.player);
      expect(m.settlement.body.staked).toBe(stakes[i]);
      expect(m.settlement.body.balanceBefore).toBe(before[i]);
    });
    const books = await settled(id);
    const after = await Promise.all(sessions.map(balance));
    sessions.forEach((s, i) => {
      const p = books.sessions[s.id]!;
      expect(after[i]).toBe(before[i]! - p.debited + p.credited + p.refunded);
      expect(after[i]).toBe(settlements[i]!.settlement.body.balanceAfter);
    });
    const moved = after.reduce((a, b) => a + b, 0) - before.reduce((a, b) => a + b, 0);
    expect(moved).toBe(-books.houseNet);
    // The session's side of the books holds the same transfers.
    const transfers = await env.TABLES.getByName(sessions[0]!.id).sharedTransfers();
    expect(transfers.filter((t) => t.kind === 'debit').map((t) => t.amount)).toEqual([stakes[0]]);
    // … and states each as a signed record of its private chain (FAIRNESS.md §B14), which still verifies:
    // the debit's id is the settlement's (table, shoe, round, player), its amount the stake, the credit the return.
    for (const [i, s] of sessions.entries()) {
      const file = await tableFile(s);
      expect((await verifyFileText(file, jwks, { playerKey: s.created.playerKey })).code).toBe('ok');
      const st = settlements[i]!.settlement.body;
      const records = (JSON.parse(file).records as Signed<Transfer>[]).filter((r) => r.body.type === 'transfer').map((r) => r.body);
      expect(records.find((t) => t.kind === 'debit')).toMatchObject({
        transfer: sharedTransferId(id, st.shoe, st.round, st.player, 'debit'),
        sharedTable: id,
        sharedShoe: st.shoe,
        sharedRound: st.round,
        amount: st.staked,
        balanceBefore: st.balanceBefore,
      });
      expect(records.filter((t) => t.kind === 'credit').map((t) => [t.transfer, t.amount])).toEqual(
        st.returned > 0 ? [[sharedTransferId(id, st.shoe, st.round, st.player, 'credit'), st.returned]] : [],
      );
    }
    // The transcript: commitment, start, close, deal and every settlement; the verifier accepts it.
    const { records, report } = await verified(id);
    expect(records.slice(0, 4).map((r) => r.body.type)).toEqual(['commitment', 'start', 'close', 'deal']);
    expect(records.filter((r) => r.body.type === 'settlement')).toHaveLength(12);
    expect(report.code).toBe('ok');
    for (const p of [...players, latecomer]) p.close();
  });
});

describe("the table's public state for the widget", () => {
  test("each box's bets show as they are taken; the state lists the shoe's outcomes, round by round", async () => {
    const id = 'hall-1/scoreboard';
    const sessions = await Promise.all([createSession({ room: 'hall-1' }), createSession({ room: 'hall-1' })]);
    const { players, open } = await seat(sessions, id);
    // Who is at the table comes with every window and close, not with every join (the window opened at the first one).
    expect(open.connections).toBeGreaterThanOrEqual(1);
    const mine = [bet(1000, 'player', 0), bet(500, 'tie', 2)];
    await players[0]!.bet(id, open.shoe, open.round, mine);
    await players[0]!.next('bet-ack');
    // Everyone sees the accepted bet with its boxes, not only its stake.
    const seen = await players[1]!.next('bet', (m) => m.player === players[0]!.player);
    expect(seen).toMatchObject({ stake: 1500, bets: mine });
    const during = await api('GET', `/api/tables/${id}`);
    expect(during.body.bets).toEqual([{ player: players[0]!.player, stake: 1500, bets: mine }]);
    expect(during.body.outcomes).toEqual([]);
    expect((await players[1]!.next('close')).connections).toBe(2);
    const deal = (await players[1]!.next('deal', (m) => m.round === open.round, 60_000)).deal.body;
    const after = await api('GET', `/api/tables/${id}`);
    expect(after.body.outcomes).toEqual([outcomeCode(deal)]);
    expect(outcomeOfCode(after.body.outcomes[0])).toEqual({
      outcome: deal.outcome,
      natural: deal.natural,
      playerPair: deal.playerPair,
      bankerPair: deal.bankerPair,
    });
    await settled(id);
    for (const p of players) p.close();
  });
});

describe('refusals, duplicates and reconnects', () => {
  test('a bet sent twice counts once; bad messages are errors, not crashes; a reconnect resynchronises', async () => {
    const id = 'hall-1/dupes';
    const s = await createSession({ room: 'hall-1' });
    const before = await balance(s);
    const { players, open } = await seat([s], id);
    const p = players[0]!;
    p.ws.send('not json');
    expect((await p.next('error')).code).toBe('bad_json');
    p.ws.send(JSON.stringify({ v: 9, type: 'bet' }));
    expect((await p.next('error')).code).toBe('bad_version');
    p.send({ type: 'bet', request: { body: { type: 'bet' }, signature: 'x' } });
    expect((await p.next('bet-refused')).code).toBe('bad_request');
    await p.bet(id, open.shoe, open.round, [bet(7)]);
    expect((await p.next('bet-refused')).code).toBe('bets_invalid');
    // Signed by a key that is not the one it names.
    const request = await p.bet(id, open.shoe, open.round, [bet(2000)]);
    const first = await p.next('bet-ack');
    expect(first.stake).toBe(2000);
    p.send({ type: 'bet', request: { ...request, body: { ...request.body, bets: [bet(9000)] } } });
    expect((await p.next('bet-refused')).code).toBe('bad_player_signature');
    p.send({ type: 'bet', request });
    expect(await p.next('bet-ack', (m) => m.duplicate === true)).toMatchObject({ stake: 2000 });
    // Dropped: the player comes back on a new socket, sees their bet, and resends it: it counts once.
    p.close();
    const back = await join(s, id, p.key);
    const resync = await back.next('state');
    expect(resync.you.started).toBe(true);
    if (resync.round === open.round) expect(resync.you.bets).toMatchObject([{ stake: 2000, status: 'accepted' }]);
    back.send({ type: 'bet', request });
    expect(await back.next('bet-ack', (m) => m.duplicate === true)).toMatchObject({ stake: 2000, round: open.round });
    const settlement = await back.next('settlement', (m) => m.round === open.round, 60_000);
    await settled(id);
    expect(await balance(s)).toBe(before - 2000 + settlement.settlement.body.returned);
    expect((await table(id).books())!.sessions[s.id]!.debited).toBe(2000);
    back.close();
  });

  test('a bettor who reconnects while its round awaits the beacon finds the close, the start and its proofs in the state', async () => {
    const id = 'hall-1/proof-resync';
    const stub = table(id);
    await api('GET', `/api/tables/${id}`);
    // The beacon is held back: the round stays closed and waiting while the player comes back.
    await runInDurableObject(stub, (instance: SharedTable) => {
      instance.beaconFetch = async () => new Response('{"error":"down"}', { status: 503 });
    });
    const sessions = await Promise.all([createSession({ room: 'hall-1' }), createSession({ room: 'hall-1' }), createSession({ room: 'hall-1' })]);
    const { players, open, starts } = await seat(sessions, id);
    const signed = await Promise.all(players.map((p, i) => p.bet(id, open.shoe, open.round, [bet(1000 * (i + 1), 'tie', i)])));
    await Promise.all(players.map((p) => p.next('bet-ack')));
    const live = await players[1]!.next('proof', (m) => m.round === open.round);
    const liveStart = await players[1]!.next('start-proof', (m) => m.shoe === open.shoe);
    const p = players[1]!;
    p.close();
    const back = await join(sessions[1], id, p.key);
    const resync = await back.next('state');
    expect(resync.phase).toBe('awaiting-beacon');
    expect(resync.close).not.toBeNull();
    expect(resync.close).not.toHaveProperty('bets');
    expect(resync.you.proof).toEqual(live.proof);
    const jwks = (await api('GET', '/.well-known/jwks.json')).body as Jwks;
    const checked = await checkMyBet({ close: resync.close as Signed2<MerkleClose>, bet: signed[1]!, proof: resync.you.proof!, player: p.player, keys: jwks });
    expect(checked).toEqual({ ok: true, value: { leaf: live.proof.leaf } });
    // The shoe's start, without its requests, and this session's start proof: its seed is in the shoe.
    expect(resync.shoe.start).not.toHaveProperty('requests');
    expect(resync.you.startProof).toEqual(liveStart.proof);
    expect(resync.you.startRequest).toEqual(starts[1]);
    const start = resync.shoe.start as Signed2<MerkleStart>;
    expect(await checkMyStart({ start, request: starts[1]!, proof: resync.you.startProof!, player: p.player, keys: jwks })).toMatchObject({ ok: true });
    // Another session's state carries no proof of someone else's bet; a watcher's, none at all.
    const watcher = await join(await createSession({ room: 'hall-1' }), id);
    const watched = await watcher.next('state');
    expect(watched.you.proof).toBeUndefined();
    expect(watched.you.startProof).toBeUndefined();
    await runInDurableObject(stub, (instance: SharedTable) => {
      instance.beaconFetch = undefined;
    });
    // Dealt, or voided if the held beacon passed the deadline meanwhile: either way the round ends and the transcript verifies.
    for (let i = 0; i < 600 && !back.messages.some((m) => (m.type === 'deal' || m.type === 'void') && m.round === open.round); i++)
      await new Promise((r) => setTimeout(r, 100));
    await settled(id);
    expect((await verified(id)).report.code).toBe('ok');
    [back, watcher, players[0]!, players[2]!].forEach((x) => x.close());
  });

  test('a player who leaves mid-round is still settled', async () => {
    const id = 'hall-1/leaver';
    const s = await createSession({ room: 'hall-1' });
    const stay = await createSession({ room: 'hall-1' });
    const before = await balance(s);
    const { players, open } = await seat([s, stay], id);
    const [p, q] = players as [Player, Player];
    await p.bet(id, open.shoe, open.round, [bet(5000, 'player')]);
    await p.next('bet-ack');
    p.close();
    const deal = await q.next('deal', (m) => m.round === open.round, 60_000);
    await settled(id);
    const { records } = await verified(id);
    const mine = records.find((r): r is SignedShared<SharedSettlement> => r.body.type === 'settlement' && r.body.player === p.player)!;
    expect(mine.body.deal).toBe(deal.deal.hash);
    expect(await balance(s)).toBe(before - 5000 + mine.body.returned);
    q.close();
  });

  test("a first bet in a shoe not started needs the player's start request", async () => {
    const id = 'hall-1/rules';
    const s = await createSession({ room: 'hall-1' });
    const p = await join(s, id);
    const hello = await p.next('state');
    const open = await p.next('open');
    await p.bet(id, open.shoe, open.round, [bet(1000)]);
    expect((await p.next('bet-refused')).code).toBe('start_required');
    await p.start(hello.shoe.commitment, 'mine', 100);
    await p.next('start-ack');
    const now = (await api('GET', `/api/tables/${id}`)).body;
    await p.bet(id, now.shoe.number, now.round, [bet(1000)]);
    expect((await p.next('bet-ack')).stake).toBe(1000);
    p.close();
  });
});

describe("the session's side of a transfer", () => {
  test('a transfer id is applied once; a refused debit stays refused on retry', async () => {
    const s = await createSession({ room: 'hall-1' });
    const wallet = env.TABLES.getByName(s.id);
    const start = await balance(s);
    const t = { id: 'a'.repeat(64), table: 'hall-1/x', shoe: 1, round: 1, kind: 'debit' as const, amount: 700 };
    const first = await wallet.sharedTransfer(t);
    const again = await wallet.sharedTransfer(t);
    expect(first).toMatchObject({ ok: true, balance: start - 700, replayed: false });
    expect(again).toMatchObject({ ok: true, balance: start - 700, replayed: true });
    const big = { ...t, id: 'b'.repeat(64), amount: start };
    expect(await wallet.sharedTransfer(big)).toMatchObject({ ok: false, code: 'insufficient_funds' });
    await wallet.sharedTransfer({ ...t, id: 'c'.repeat(64), kind: 'credit', amount: 5000 });
    // Now the balance would cover it, but the refusal was recorded: a retry never turns into a debit.
    expect(await wallet.sharedTransfer(big)).toMatchObject({ ok: false, code: 'insufficient_funds', replayed: true });
    expect(await balance(s)).toBe(start - 700 + 5000);
    expect(await wallet.sharedTransfer({ ...t, id: 'nothex' })).toMatchObject({ ok: false, code: 'bad_transfer' });
    expect((await wallet.sharedTransfers()).map((x) => [x.kind, x.applied])).toEqual([
      ['debit', true],
      ['debit', false],
      ['credit', true],
    ]);
  });
});

describe('a private round in flight', () => {
  test('the session answers session_busy and records nothing until the private round is settled; then the transfer applies once', async () => {
    const s = await readySession({ room: 'hall-1' });
    const wallet = env.TABLES.getByName(s.id);
    const accepted = await privateBet(s, [bet(1000, 'player')]);
    expect(accepted.status).toBe(200);
    const t = { id: 'd'.repeat(64), table: 'hall-1/x', shoe: 1, round: 1, kind: 'credit' as const, amount: 3000 };
    expect(await wallet.sharedTransfer(t)).toMatchObject({ ok: false, code: 'session_busy' });
    expect(await wallet.sharedTransfers()).toEqual([]);
    const settledRound = await reveal(s, accepted.body.acceptance);
    expect(settledRound.status).toBe(200);
    const afterPrivate = await balance(s);
    expect(settledRound.body.balance).toBe(afterPrivate);
    expect(await wallet.sharedTransfer(t)).toMatchObject({ ok: true, balance: afterPrivate + 3000, replayed: false });
    expect(await wallet.sharedTransfer(t)).toMatchObject({ ok: true, balance: afterPrivate + 3000, replayed: true });
    expect(await balance(s)).toBe(afterPrivate + 3000);
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
    const { players, open } = await seat(sessions, id);
    await Promise.all(players.map((p, i) => p.bet(id, open.shoe, open.round, [bet(1000 * (i + 1))])));
    await Promise.all(players.map((p) => p.next('bet-ack')));
    const voided = await players[0]!.next('void', (m) => m.round === open.round, 60_000);
    expect(voided.void.body.type).toBe('void');
    expect(voided.refunds.map((r) => r.returned).sort()).toEqual([1000, 2000, 3000]);
    await settled(id);
    expect(await Promise.all(sessions.map(balance))).toEqual(before);
    const books = (await table(id).books())!;
    expect(books.houseNet).toBe(0);
    await runInDurableObject(stub, (instance: SharedTable) => {
      instance.beaconFetch = undefined;
    });
    expect((await verified(id)).report.code).toBe('ok');
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
