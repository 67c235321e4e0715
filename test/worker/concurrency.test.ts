/** Concurrent requests on one table: serialized, consistent, exactly once — for both phases of a round. */
import { expect, test } from 'vitest';
import { TokenBucket } from '../../worker/http/limits.ts';

/** Lifts the session's rate limit (its bucket is public for tests). */
async function unlimited(sessionId: string): Promise<void> {
  await insideTable(sessionId, (t) => {
    t.bucket = new TokenBucket({ burst: 100_000, perSecond: 100_000 }, Date.now());
  });
}
import { type Jwks, verifyText } from '../../shared/index.ts';
import { api, bet, insideTable, play, readySession, reveal, state, tableFile } from './helpers.ts';

const BETS = [
  { sector: 0, box: 'player' as const, amount: 1000 },
  { sector: 3, box: 'banker' as const, amount: 2000 },
];

test('100 concurrent bets on one head: one acceptance, one debit; the other 99 refused without a trace', async () => {
  const s = await readySession({ room: 'hall-1', mode: 'reshuffle' });
  const before = await state(s);
  const replies = await Promise.all(Array.from({ length: 100 }, () => bet(s, BETS, { last: before.head, round: 1 })));
  const accepted = replies.filter((r) => r.status === 200);
  expect(accepted).toHaveLength(1);
  // Each bet has its own lock: the first is pending, the others find it so.
  expect(replies.filter((r) => r.status === 409).every((r) => r.body.error.code === 'round_pending')).toBe(true);
  const after = await state(s);
  expect(after.balance).toBe(before.balance - 3000);
  expect(after.pending.acceptance.hash).toBe(accepted[0]!.body.acceptance.hash);
  expect((await reveal(s, accepted[0]!.body.acceptance)).status).toBe(200);
});

test('100 concurrent two-phase rounds: all dealt one after another up to the round limit, balances chained, the file verifies', async () => {
  // Reshuffle mode: no cut card, so all 100 are dealt; the 100th reaches the seed's round limit and reveals.
  const s = await readySession({ room: 'hall-1', mode: 'reshuffle' });
  // Players taking turns read the table's head again and again: more requests than the session's rate limit allows.
  await unlimited(s.id);
  const replies = await Promise.all(Array.from({ length: 100 }, () => play(s, BETS)));
  expect(replies.map((r) => r.status)).toEqual(Array(100).fill(200));
  const receipts = replies.map((r) => r.body.receipt.body).sort((a, b) => a.round - b.round);
  expect(receipts.map((r) => r.round)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
  let balance = s.created.balance;
  for (const r of receipts) {
    expect(r.balanceBefore).toBe(balance);
    expect(r.balanceAfter).toBe(r.balanceBefore - r.staked + r.returned);
    balance = r.balanceAfter;
  }
  expect(replies.filter((r) => r.body.reveal)).toHaveLength(1);
  expect(replies.find((r) => r.body.reveal)!.body.reveal.body.reason).toBe('reshuffle-limit');
  const after = await state(s);
  expect(after.balance).toBe(balance);
  expect(after.shoe).toMatchObject({ number: 2, status: 'awaiting-start' });
  const jwks = (await api('GET', '/.well-known/jwks.json')).body as Jwks;
  const report = await verifyText(await tableFile(s), jwks);
  expect(report.failure).toBeUndefined();
  expect(report.ok).toBe(true);
});

test('the same Idempotency-Key sent 50 times at once, for each phase: one acceptance, one debit, one payout', async () => {
  const s = await readySession();
  const before = (await state(s)).balance;
  const head = (await state(s)).head;
  const bets = [{ sector: 2, box: 'tie' as const, amount: 10_000 }];
  const betKey = crypto.randomUUID();
  const secret = 'ab'.repeat(32);
  const phase1 = await Promise.all(Array.from({ length: 50 }, () => bet(s, bets, { key: betKey, last: head, round: 1, secret })));
  expect(phase1.map((r) => r.status)).toEqual(Array(50).fill(200));
  expect(new Set(phase1.map((r) => r.text)).size).toBe(1);
  expect(phase1.filter((r) => r.headers.get('Idempotent-Replayed') === 'true')).toHaveLength(49);
  expect((await state(s)).balance).toBe(before - 10_000);

  const secretKey = crypto.randomUUID();
  const acceptance = phase1[0]!.body.acceptance;
  const phase2 = await Promise.all(Array.from({ length: 50 }, () => reveal(s, acceptance, secretKey)));
  expect(phase2.map((r) => r.status)).toEqual(Array(50).fill(200));
  expect(new Set(phase2.map((r) => r.text)).size).toBe(1);
  expect(phase2.filter((r) => r.headers.get('Idempotent-Replayed') === 'true')).toHaveLength(49);

  const after = await state(s);
  expect(after.shoe.rounds).toBe(1);
  const receipt = phase2[0]!.body.receipt.body;
  expect(after.balance).toBe(before - receipt.staked + receipt.returned);
  const stored = await api('GET', `/api/sessions/${s.id}/receipts`, { token: s.token });
  expect(stored.body.receipts).toHaveLength(1);
  // The same signed secret under a new key: the same receipt, nothing dealt again.
  const again = await reveal(s, acceptance);
  expect(again.status).toBe(200);
  expect(again.body.receipt.hash).toBe(phase2[0]!.body.receipt.hash);
  // The key of phase 1 with another body: refused.
  const other = await bet(s, [{ sector: 2, box: 'tie', amount: 20_000 }], { key: betKey, last: phase2[0]!.body.receipt, round: 2 });
  expect(other.status).toBe(409);
  expect(other.body.error.code).toBe('idempotency_conflict');
});

test('the same session creation sent 50 times at once: one session', async () => {
  const key = crypto.randomUUID();
  const body = { room: 'vip', playerKey: 'PUAXw-hDiVqStwqnTRt-vJyYLM8uxJaMwM1V8Sr0Zgw' };
  const replies = await Promise.all(Array.from({ length: 50 }, () => api('POST', '/api/sessions', { key, body })));
  expect(replies.map((r) => r.status)).toEqual(Array(50).fill(201));
  expect(new Set(replies.map((r) => r.body.sessionId)).size).toBe(1);
  // Every replay hands back the first answer's token: one session, one token.
  expect(new Set(replies.map((r) => r.text)).size).toBe(1);
});
