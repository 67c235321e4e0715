/** Concurrent requests on one table: serialized, consistent, exactly once. */
import { expect, test } from 'vitest';
import { api, play, readySession, state } from './helpers.ts';

const BETS = [
  { sector: 0, box: 'player' as const, amount: 1000 },
  { sector: 3, box: 'banker' as const, amount: 2000 },
];

/** Checks that the receipts, in round order, chain from `prev` and carry the balance on. */
function expectChained(receipts: any[], hashes: Map<number, string>, prev: string, balance: number): number {
  receipts.sort((a, b) => a.round - b.round);
  expect(receipts.map((r) => r.round)).toEqual(Array.from({ length: receipts.length }, (_, i) => i + 1));
  for (const r of receipts) {
    expect(r.balanceBefore).toBe(balance);
    expect(r.prev).toBe(prev);
    expect(r.balanceAfter).toBe(r.balanceBefore - r.staked + r.returned);
    balance = r.balanceAfter;
    prev = hashes.get(r.round)!;
  }
  return balance;
}

test('100 concurrent rounds on one session: all dealt one after another, balances consistent, receipts chained', async () => {
  // Reshuffle mode: no cut card, so all 100 are dealt; the 100th reaches the seed's round limit and reveals.
  const s = await readySession({ room: 'hall-1', mode: 'reshuffle' });
  const start = (await state(s)).shoe.start;
  const replies = await Promise.all(Array.from({ length: 100 }, () => play(s, BETS)));
  expect(replies.map((r) => r.status)).toEqual(Array(100).fill(200));
  const receipts = replies.map((r) => r.body.receipt.body);
  const hashes = new Map(replies.map((r) => [r.body.receipt.body.round, r.body.receipt.hash]));
  const balance = expectChained(receipts, hashes, start.hash, s.created.balance);
  const after = await state(s);
  expect(after.balance).toBe(balance);
  const stored = await api('GET', `/api/sessions/${s.id}/receipts?shoe=1`, { token: s.token });
  expect(stored.body.receipts).toHaveLength(100);
  expect(replies.filter((r) => r.body.reveal)).toHaveLength(1);
});

test('100 concurrent rounds on a 6-deck shoe: dealt in order up to the cut card, then refused without a trace', async () => {
  const s = await readySession({ room: 'hall-1' });
  const start = (await state(s)).shoe.start;
  const replies = await Promise.all(Array.from({ length: 100 }, () => play(s, BETS)));
  const dealt = replies.filter((r) => r.status === 200);
  const refused = replies.filter((r) => r.status !== 200);
  // A 6-deck shoe with the cut card 16 from the end holds about 60 rounds.
  expect(dealt.length).toBeGreaterThan(45);
  expect(dealt.length).toBeLessThan(80);
  expect(refused.every((r) => r.status === 409 && r.body.error.code === 'shoe_not_started')).toBe(true);
  const receipts = dealt.map((r) => r.body.receipt.body);
  const hashes = new Map(dealt.map((r) => [r.body.receipt.body.round, r.body.receipt.hash]));
  const balance = expectChained(receipts, hashes, start.hash, s.created.balance);
  // The cut card came out in the last dealt round, and only there: its answer reveals and commits shoe 2.
  const last = dealt.find((r) => r.body.receipt.body.round === dealt.length)!;
  expect(last.body.receipt.body.cutCardOut).toBe(true);
  expect(last.body.reveal.body).toMatchObject({ reason: 'cut-card', rounds: dealt.length });
  expect(dealt.filter((r) => r.body.reveal)).toHaveLength(1);
  const after = await state(s);
  expect(after.balance).toBe(balance);
  expect(after.shoe).toMatchObject({ number: 2, status: 'awaiting-start', rounds: 0 });
});

test('the same Idempotency-Key sent 50 times at once: exactly one round and one payout', async () => {
  const s = await readySession();
  const before = (await state(s)).balance;
  const key = crypto.randomUUID();
  const bets = [{ sector: 2, box: 'tie' as const, amount: 10_000 }];
  const replies = await Promise.all(Array.from({ length: 50 }, () => play(s, bets, key)));
  expect(replies.map((r) => r.status)).toEqual(Array(50).fill(200));
  expect(new Set(replies.map((r) => r.text)).size).toBe(1);
  expect(replies.filter((r) => r.headers.get('Idempotent-Replayed') === 'true')).toHaveLength(49);

  const after = await state(s);
  expect(after.shoe.rounds).toBe(1);
  const receipt = replies[0]!.body.receipt.body;
  expect(receipt.round).toBe(1);
  expect(after.balance).toBe(before - receipt.staked + receipt.returned);
  const stored = await api('GET', `/api/sessions/${s.id}/receipts`, { token: s.token });
  expect(stored.body.receipts).toHaveLength(1);
});

test('the same session creation sent 50 times at once: one session', async () => {
  const key = crypto.randomUUID();
  const replies = await Promise.all(Array.from({ length: 50 }, () => api('POST', '/api/sessions', { key, body: { room: 'vip' } })));
  expect(replies.map((r) => r.status)).toEqual(Array(50).fill(201));
  expect(new Set(replies.map((r) => r.body.sessionId)).size).toBe(1);
  // Every replay hands back the first answer's token: one session, one token.
  expect(new Set(replies.map((r) => r.text)).size).toBe(1);
});
