/**
 * The fairness guarantees as the Worker keeps them (pb-fair-2): the seed stays secret until the
 * reveal; an acceptance holds no card; an accepted round is owed (settled, or voided with the
 * stake returned); a whole table's history verifies; a shoe opens with the last one's balance.
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { expect, test } from 'vitest';
import { bytesToBase64url, hexToBytes, type Jwks, owedRound, seedCommitment, verifyFileText, verifyText } from '../../shared/index.ts';
import { api, bet, createSession, insideTable, endShoe, play, randomBets, reveal, startShoe, state, tableFile, transcriptOfResponses } from './helpers.ts';

/** The spellings a leaked seed could take in a response. */
function spellings(seedHex: string): string[] {
  return [seedHex, seedHex.toUpperCase(), bytesToBase64url(hexToBytes(seedHex)!)];
}

async function storedSeed(sessionId: string, shoe: number): Promise<string> {
  return runInDurableObject(env.TABLES.getByName(sessionId), (_t, s) =>
    String(s.storage.sql.exec<{ server_seed: string }>('SELECT server_seed FROM shoes WHERE number = ?', shoe).one().server_seed),
  );
}

const jwks = async () => (await api('GET', '/.well-known/jwks.json')).body as Jwks;

/**
 * Moves the table's clock `ms` ahead and runs its alarm handler now, as the platform would at the
 * alarm's time (called directly: the ledger's own short alarm may be firing at this very moment).
 */
async function later(sessionId: string, ms: number): Promise<void> {
  await insideTable(sessionId, async (t) => {
    const base = t.clock;
    t.clock = () => base() + ms;
    await t.alarm();
  });
}

const CARD_MEMBERS = ['cards', 'playerTotal', 'bankerTotal', 'outcome', 'natural', 'playerPair', 'bankerPair', 'payouts', 'cutCardOut', 'position', 'offset'];

test('a shoe played to its cut card: no response before the reveal holds the seed; acceptances hold no card; the file verifies', async () => {
  const s = await createSession({ room: 'hall-2' });
  const seed1 = await storedSeed(s.id, 1);
  expect(seedCommitment(seed1)).toBe(s.created.shoe.commitment.body.serverSeedHash);
  await startShoe(s, 'fairness test', 123);

  let balance = s.created.balance;
  let revealAt = -1;
  let last: any = null;
  for (let i = 0; i < 120 && revealAt < 0; i++) {
    if (i % 10 === 0) {
      await state(s);
      await api('GET', `/api/sessions/${s.id}/receipts`, { token: s.token });
      await api('GET', `/api/sessions/${s.id}/shoes/1/transcript`, { token: s.token });
      await api('GET', `/api/sessions/${s.id}/transcript`, { token: s.token });
    }
    const accepted = await bet(s, randomBets(s.limits, balance));
    expect(accepted.status).toBe(200);
    // Phase 1's answer: the stake debited, and nothing about the cards.
    const body = accepted.body.acceptance.body;
    for (const member of CARD_MEMBERS) expect(member in body, `the acceptance holds ${member}`).toBe(false);
    expect(Object.keys(accepted.body).sort()).toEqual(['acceptance', 'balance', 'shoe', 'voidAt']);
    expect(accepted.body.balance).toBe(balance - body.request.body.bets.reduce((n: number, b: any) => n + b.amount, 0));
    expect((await state(s)).pending.acceptance.hash).toBe(accepted.body.acceptance.hash);
    const r = await reveal(s, accepted.body.acceptance);
    const answerAt = transcriptOfResponses.length - 1;
    expect(r.status).toBe(200);
    expect(r.body.receipt.body.prev).toBe(accepted.body.acceptance.hash);
    balance = r.body.balance;
    last = r.body;
    if (r.body.reveal) revealAt = answerAt;
  }
  expect(revealAt).toBeGreaterThan(0);

  expect(last.receipt.body.cutCardOut).toBe(true);
  expect(last.reveal.body).toMatchObject({
    type: 'reveal',
    shoe: 1,
    reason: 'cut-card',
    serverSeed: seed1,
    rounds: last.receipt.body.round,
    prev: last.receipt.hash,
    closingBalance: balance,
  });
  expect(last.nextShoe).toMatchObject({ number: 2, status: 'awaiting-start' });
  // History closes: shoe 2 opens with shoe 1's closing balance, chained to its reveal.
  expect(last.nextShoe.commitment.body).toMatchObject({ prev: last.reveal.hash, openingBalance: balance, playerKey: s.created.playerKey });

  const seed2 = await storedSeed(s.id, 2);
  for (const [i, text] of transcriptOfResponses.entries()) {
    for (const spelling of spellings(seed1)) if (i < revealAt) expect(text.includes(spelling), `response ${i} leaks shoe 1's seed`).toBe(false);
    for (const spelling of spellings(seed2)) expect(text.includes(spelling), `response ${i} leaks shoe 2's seed`).toBe(false);
  }
  expect(transcriptOfResponses[revealAt]).toContain(seed1);

  const early = await bet(s, randomBets(s.limits, balance), { last: last.nextShoe.commitment, round: 1 });
  expect(early.status).toBe(409);
  expect(early.body.error.code).toBe('shoe_not_started');

  // The table's file verifies, by either entry point; so does the shoe's excerpt.
  const keys = await jwks();
  const text = await tableFile(s);
  const report = await verifyText(text, keys, { playerKey: s.created.playerKey });
  expect(report.failure).toBeUndefined();
  expect(report.ok).toBe(true);
  expect(report.rounds.filter((r) => r.shoe === 1 && r.status === 'verified')).toHaveLength(last.receipt.body.round);
  expect((await verifyFileText(text, keys)).code).toBe('ok');
  const excerpt = await api('GET', `/api/sessions/${s.id}/shoes/1/transcript`, { token: s.token });
  expect((await verifyText(excerpt.text, keys)).ok).toBe(true);

  // A raised balance does not verify, and the failure names the round.
  const forged = JSON.parse(text);
  const i = forged.records.findIndex((x: any) => x.body.type === 'receipt' && x.body.round === 3);
  forged.records[i].body.balanceAfter += 1000;
  const bad = await verifyText(JSON.stringify(forged), keys);
  expect(bad.ok).toBe(false);
  expect(bad.failure!.round).toBe(3);
});

test('a round whose secret never comes: the file names it unsettled; at voidAt the alarm voids it, returns the stake, and the idle shoe is revealed; the owed result follows from the secret', async () => {
  const s = await createSession({ room: 'hall-1' });
  await startShoe(s);
  await play(s, [{ sector: 0, box: 'banker', amount: 1000 }]);
  const before = (await state(s)).balance;
  const accepted = await bet(s, [{ sector: 1, box: 'player', amount: 5000 }]);
  expect(accepted.status).toBe(200);
  const acceptance = accepted.body.acceptance;
  const keys = await jwks();

  // The player's copy stops here: the round is accepted and owed.
  const copy = JSON.parse(await tableFile(s));
  const pending = await verifyText(JSON.stringify(copy), keys);
  expect(pending.ok).toBe(false);
  expect(pending.code).toBe('unsettled_acceptance');
  expect(pending.unsettled).toEqual([expect.objectContaining({ shoe: 1, round: 2, acceptance: acceptance.hash })]);
  expect((await endShoe(s)).body.error.code).toBe('round_pending');

  // Past voidAt: the void, signed, the stake returned.
  await later(s.id, 601_000);
  const voided = await state(s);
  expect(voided.balance).toBe(before);
  expect(voided.pending).toBeNull();
  expect(voided.head.body).toMatchObject({ type: 'void', round: 2, balanceBefore: before, balanceAfter: before, prev: acceptance.hash });
  const late = await reveal(s, acceptance);
  expect(late.status).toBe(409);
  expect(late.body.error.code).toBe('round_voided');
  expect(late.body.error.void.hash).toBe(voided.head.hash);

  // Idle after the void for voidAfterSeconds: the shoe is revealed ("void-timeout"), shoe 2 committed.
  await later(s.id, 601_000);
  const after = await state(s);
  expect(after.shoe).toMatchObject({ number: 2, status: 'awaiting-start' });
  expect(after.shoe.commitment.body.openingBalance).toBe(before);
  const text = await tableFile(s);
  const report = await verifyText(text, keys, { playerKey: s.created.playerKey });
  expect(report.failure).toBeUndefined();
  expect(report.ok).toBe(true);
  expect(report.rounds.find((r) => r.round === 2)!.status).toBe('voided');
  const reveal1 = JSON.parse(text).records.find((x: any) => x.body.type === 'reveal');
  expect(reveal1.body).toMatchObject({ reason: 'void-timeout', rounds: 2, closingBalance: before });

  // With the seed revealed, the player's copy and its secret give the owed result of round 2.
  const owed = owedRound(copy, acceptance.hash, s.secrets.get(acceptance.hash)!, reveal1.body.serverSeed);
  expect(owed.ok).toBe(true);
  if (owed.ok) {
    expect(owed.value).toMatchObject({ shoe: 1, round: 2, staked: 5000, balanceBefore: before });
    expect(owed.value.cards.length).toBeGreaterThanOrEqual(4);
  }
});

test('the player ends the shoe: the reveal embeds the signed end request; the next shoe opens with the closing balance', async () => {
  const s = await createSession({ room: 'hall-1', mode: 'reshuffle' });
  await startShoe(s);
  const r = await play(s, [{ sector: 0, box: 'tie', amount: 1000 }]);
  const ended = await endShoe(s);
  expect(ended.status).toBe(200);
  expect(ended.body.reveal.body).toMatchObject({ reason: 'player', rounds: 1, closingBalance: r.body.balance });
  expect(ended.body.reveal.body.request.body).toMatchObject({ type: 'end', shoe: 1, prev: r.body.receipt.hash });
  expect(ended.body.nextShoe.commitment.body.openingBalance).toBe(r.body.balance);
  await startShoe(s);
  await play(s, [{ sector: 0, box: 'tie', amount: 1000 }]);
  const report = await verifyText(await tableFile(s), await jwks());
  expect(report.failure).toBeUndefined();
  expect(report.pending).toBe(true);
});
