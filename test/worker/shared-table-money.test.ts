/**
 * A shared table's money off the round's path, inside workerd (worker/shared-table/transfers.ts):
 * one player's session object is made stuck, then unreachable, by a test hook on its transfer
 * calls. The other players' rounds still close and deal, and they are paid; what the table owes
 * the stuck one stays pending (its seat's `owed` says so), is never asked twice at once, and is
 * paid once, several owed transfers in one call, when the session answers again. The table's
 * books and every session's agree. And a round's beacon signature is checked once for its fetch and its deal.
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, test } from 'vitest';
import { beaconSignatureCheckInUse, useBeaconSignatureCheck } from '../../shared/beacon.ts';
import type { ServerMessageOf } from '../../shared/wire/shared-table-socket.ts';
import type { Table } from '../../worker/session/table.ts';
import type { SharedTable } from '../../worker/shared-table/shared-table.ts';
import type { WalletTransfer } from '../../worker/shared-table/wallet.ts';
import { api, createSession, type Session, state } from './helpers.ts';
import { join, type Player, reconciled } from './shared-helpers.ts';

/** A bet on both boxes: whatever the outcome, the round returns something (a win, or a tie's push of both). */
const BOTH = [
  { sector: 0, box: 'player' as const, amount: 500 },
  { sector: 0, box: 'banker' as const, amount: 500 },
];
/** An open message with time left to bet in (SHARED_WINDOW_MS is 700 here). */
const freshWindow = (m: ServerMessageOf<'open'>) => Date.parse(m.closesAt) - Date.now() > 350;
const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

type Hook = ((batch: WalletTransfer[]) => 'hold' | 'fail' | undefined) | undefined;
const hookSession = (id: string, hook: Hook) =>
  runInDurableObject(env.TABLES.getByName(id), (t: Table) => {
    t.sharedTransferHook = hook;
  });
const callsTo = (id: string) => runInDurableObject(env.TABLES.getByName(id), (t: Table) => ({ ...t.sharedTransferCalls }));

/** Until the table's books satisfy `test`. */
async function booksUntil(id: string, test: (books: NonNullable<Awaited<ReturnType<SharedTable['books']>>>) => boolean) {
  for (let i = 0; i < 300; i++) {
    const books = await env.SHARED_TABLES.getByName(id).books();
    if (books && test(books)) return books;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the books never got there');
}

/** One round: every player bets on both boxes; each gets its ack, the deal and its settlement. */
async function playRound(id: string, players: Player[], round: number) {
  const open = await players[0]!.next('open', (m) => m.round === round && freshWindow(m), 30_000);
  await Promise.all(players.map((p) => p.bet(id, open.shoe, open.round, BOTH)));
  await Promise.all(players.map((p) => p.next('bet-ack', (m) => m.round === round)));
  const close = await players[0]!.next('close', (m) => m.round === round, 30_000);
  const deals = await Promise.all(players.map((p) => p.next('deal', (m) => m.round === round, 30_000)));
  const settlements = await Promise.all(players.map((p) => p.next('settlement', (m) => m.round === round, 30_000)));
  return { open, close, deal: deals[0]!.deal, settlements: settlements.map((s) => s.settlement.body) };
}

describe('a slow session does not hold the round, and what it is owed is paid once when it answers', () => {
  test('stuck: the others close, deal and are paid; its credits stay owed; unreachable, then back: both credits in one call, once; the books agree', async () => {
    const id = 'hall-1/stuck-session';
    await api('GET', `/api/tables/${id}`);
    // One call waited for at a time, 300 ms each: a stuck call must not keep the others' credits waiting.
    await runInDurableObject(env.SHARED_TABLES.getByName(id), (t: SharedTable) => {
      t.transferConcurrency = 1;
      t.transferTimeoutMs = 300;
    });
    const sessions = await Promise.all(Array.from({ length: 4 }, () => createSession({ room: 'hall-1' })));
    const before = await Promise.all(sessions.map(async (s) => (await state(s)).balance as number));
    const slow = sessions[0]!;
    const others = sessions.slice(1);
    // Its bets' debits go through; whatever the table owes it is held: its session never answers.
    await hookSession(slow.id, (batch) => (batch.some((t) => t.kind !== 'debit') ? 'hold' : undefined));
    const inUse = beaconSignatureCheckInUse();
    const checked: string[] = [];
    useBeaconSignatureCheck((signature, message, key) => {
      checked.push(hex(signature));
      return inUse(signature, message, key);
    });
    const players = await Promise.all(sessions.map((s) => join(s, id)));
    try {
      const hello = await players[0]!.next('state');
      await Promise.all(players.map((p, i) => p.start(hello.shoe.commitment, `stuck seat ${i}`, 5 + i * 13)));
      await Promise.all(players.map((p) => p.next('start-ack')));

      const first = await playRound(id, players, 1);
      // The beacon round was verified once: by the Worker's fetch; the deal's own check found it verified.
      expect(checked.filter((s) => s === first.deal.body.beacon.signature)).toHaveLength(1);
      const paid = (books: { sessions: Record<string, { pending: number; credited: number }> }) =>
        others.every((s) => books.sessions[s.id]!.pending === 0 && books.sessions[s.id]!.credited > 0);
      const afterFirst = await booksUntil(id, paid);
      expect(afterFirst.sessions[slow.id]).toMatchObject({ pending: 1, credited: 0 });
      // The stuck player's seat says what it is owed.
      players[0]!.send({ type: 'state' });
      const seat = await players[0]!.next('state', (m) => (m.you.owed?.length ?? 0) > 0);
      expect(seat.you.owed).toEqual([{ transfer: expect.any(String), kind: 'credit', amount: first.settlements[0]!.returned, shoe: 1, round: 1 }]);

      // The next round closes and deals while the session still has not answered.
      const second = await playRound(id, players, 2);
      const afterSecond = await booksUntil(id, (books) => paid(books) && others.every((s) => books.sessions[s.id]!.debited === 2000));
      expect(afterSecond.sessions[slow.id]).toMatchObject({ pending: 2, credited: 0, debited: 2000 });
      // Asked once, never again while that call is out: its two debits, and the one held call with round 1's credit.
      expect(await callsTo(slow.id)).toEqual({ calls: 3, transfers: 3 });

      // The stuck call fails (the session is unreachable): both credits stay pending, asked again after a backoff.
      let failed = 0;
      await hookSession(slow.id, (batch) => {
        if (!batch.some((t) => t.kind !== 'debit')) return undefined;
        failed++;
        return 'fail';
      });
      for (let i = 0; i < 200 && failed === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(failed).toBe(1);
      await hookSession(slow.id, undefined);
      const books = await reconciled(id, sessions, before);
      // Back: one call with both credits, each applied once.
      expect(await callsTo(slow.id)).toEqual({ calls: 4, transfers: 5 });
      expect(books.sessions[slow.id]).toMatchObject({ credited: first.settlements[0]!.returned + second.settlements[0]!.returned, pending: 0 });
      const credits = (await env.TABLES.getByName(slow.id).sharedTransfers()).filter((t) => t.kind === 'credit');
      expect(credits.map((t) => t.round).sort()).toEqual([1, 2]);
      expect(books.houseNet).toBe(
        before.reduce((a, b) => a + b, 0) - (await Promise.all(sessions.map(async (s) => (await state(s)).balance as number))).reduce((a, b) => a + b, 0),
      );
    } finally {
      useBeaconSignatureCheck(inUse);
      await hookSession(slow.id, undefined);
      for (const p of players) p.close();
    }
  });
  test('a debit not answered before the close: the bet is not in the round; once the session answers, it is late and its stake comes back by one refund, nothing else', async () => {
    const id = 'hall-1/late-debit';
    await api('GET', `/api/tables/${id}`);
    await runInDurableObject(env.SHARED_TABLES.getByName(id), (t: SharedTable) => {
      t.transferTimeoutMs = 300;
    });
    const sessions = await Promise.all(Array.from({ length: 2 }, () => createSession({ room: 'hall-1' })));
    const before = await Promise.all(sessions.map(async (s) => (await state(s)).balance as number));
    const [slow, other] = sessions as [Session, Session];
    const players = await Promise.all(sessions.map((s) => join(s, id)));
    try {
      const hello = await players[0]!.next('state');
      await Promise.all(players.map((p, i) => p.start(hello.shoe.commitment, `late seat ${i}`, 7 + i * 19)));
      await Promise.all(players.map((p) => p.next('start-ack')));
      // Its session holds the debit: the table takes the other bet and closes without this one.
      await hookSession(slow.id, () => 'hold');
      const open = await players[0]!.next('open', freshWindow, 30_000);
      await Promise.all(players.map((p) => p.bet(id, open.shoe, open.round, BOTH)));
      await players[1]!.next('bet-ack', (m) => m.round === open.round);
      const close = await players[1]!.next('close', (m) => m.round === open.round, 30_000);
      expect((close.close.body as { betCount: number }).betCount).toBe(1);
      // The held call fails (unreachable), the debit is asked again later, and the session answers it then.
      let failed = 0;
      await hookSession(slow.id, () => {
        failed++;
        return 'fail';
      });
      for (let i = 0; i < 200 && failed === 0; i++) await new Promise((r) => setTimeout(r, 20));
      await hookSession(slow.id, undefined);
      const refused = await players[0]!.next('bet-refused', (m) => m.round === open.round, 30_000);
      expect(refused.code).toBe('betting_closed');
      const settlement = await players[1]!.next('settlement', (m) => m.round === open.round, 30_000);
      expect(settlement.settlement.body.player).toBe(players[1]!.player);
      const books = await reconciled(id, sessions, before);
      expect(books.sessions[slow.id]).toEqual({ debited: 1000, credited: 0, refunded: 1000, pending: 0 });
      expect((await state(slow)).balance).toBe(before[0]);
      expect(books.sessions[other.id]!.debited).toBe(1000);
      expect(players[0]!.messages.some((m) => m.type === 'settlement' || (m.type === 'balance' && m.kind === 'credit'))).toBe(false);
    } finally {
      await hookSession(slow.id, undefined);
      for (const p of players) p.close();
    }
  });
});
