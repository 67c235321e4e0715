/** The fairness guarantees as the Worker keeps them: the seed stays secret until the reveal; a whole shoe verifies. */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { expect, test } from 'vitest';
import { hexToBytes, bytesToBase64url, type Jwks, seedCommitment, verifyTranscript } from '../../shared/index.ts';
import { api, createSession, play, randomBets, startShoe, state, transcriptOfResponses } from './helpers.ts';

/** The spellings a leaked seed could take in a response. */
function spellings(seedHex: string): string[] {
  return [seedHex, seedHex.toUpperCase(), bytesToBase64url(hexToBytes(seedHex)!)];
}

async function storedSeed(sessionId: string, shoe: number): Promise<string> {
  return runInDurableObject(env.TABLES.getByName(sessionId), (_t, s) =>
    String(s.storage.sql.exec<{ server_seed: string }>('SELECT server_seed FROM shoes WHERE number = ?', shoe).one().server_seed),
  );
}

test('a shoe played to its cut card: no response before the reveal holds the seed; the reveal comes with the next shoe; the transcript verifies', async () => {
  const s = await createSession({ room: 'hall-2' });
  const seed1 = await storedSeed(s.id, 1);
  expect(seedCommitment(seed1)).toBe(s.created.shoe.commitment.body.serverSeedHash);
  await startShoe(s, 'fairness test', 123);

  let balance = s.created.balance;
  let revealAt = -1;
  let last: any = null;
  for (let i = 0; i < 120 && revealAt < 0; i++) {
    // Read everything there is to read while the shoe is in play (before the round: after the
    // reveal round a start would begin shoe 2, and the transcript would rightly hold the seed).
    if (i % 10 === 0) {
      await state(s);
      await api('GET', `/api/sessions/${s.id}/receipts`, { token: s.token });
      await api('GET', `/api/sessions/${s.id}/shoes/1/transcript`, { token: s.token });
      const again = await api('POST', `/api/sessions/${s.id}/shoe/start`, { token: s.token, body: { clientSeed: 'again', cut: 5 } });
      expect(again.status).toBe(409); // a shoe in play cannot be started (nor re-cut) again
    }
    const r = await play(s, randomBets(s.limits, balance));
    const answerAt = transcriptOfResponses.length - 1;
    expect(r.status).toBe(200);
    balance = r.body.balance;
    last = r.body;
    if (r.body.reveal) revealAt = answerAt;
  }
  expect(revealAt).toBeGreaterThan(0);

  // The cut card came out in the last round: that answer holds the reveal and commits shoe 2.
  expect(last.receipt.body.cutCardOut).toBe(true);
  expect(last.reveal.body).toMatchObject({ type: 'reveal', shoe: 1, reason: 'cut-card', serverSeed: seed1, rounds: last.receipt.body.round, prev: last.receipt.hash });
  expect(last.shoe).toMatchObject({ number: 1, status: 'ended' });
  expect(last.nextShoe).toMatchObject({ number: 2, status: 'awaiting-start' });
  expect(last.nextShoe.commitment.body.prev).toBe(last.reveal.hash);
  expect(last.nextShoe.commitment.body.serverSeedHash).not.toBe(s.created.shoe.commitment.body.serverSeedHash);

  // No response before the reveal holds the seed, in any spelling; shoe 2's seed appears nowhere.
  const seed2 = await storedSeed(s.id, 2);
  expect(seedCommitment(seed2)).toBe(last.nextShoe.commitment.body.serverSeedHash);
  for (const [i, text] of transcriptOfResponses.entries()) {
    for (const spelling of spellings(seed1)) if (i < revealAt) expect(text.includes(spelling), `response ${i} leaks shoe 1's seed`).toBe(false);
    for (const spelling of spellings(seed2)) expect(text.includes(spelling), `response ${i} leaks shoe 2's seed`).toBe(false);
  }
  expect(transcriptOfResponses[revealAt]).toContain(seed1);

  // A round now needs shoe 2 to be started.
  const early = await play(s, randomBets(s.limits, balance));
  expect(early.status).toBe(409);
  expect(early.body.error.code).toBe('shoe_not_started');

  // The transcript verifies with the shared verifier: every card, total, payout and balance.
  const jwks = (await api('GET', '/.well-known/jwks.json')).body as Jwks;
  const t = await api('GET', `/api/sessions/${s.id}/shoes/1/transcript`, { token: s.token });
  expect(t.body.reveal.body.serverSeed).toBe(seed1);
  const report = await verifyTranscript(t.body, jwks);
  expect(report.failure).toBeUndefined();
  expect(report.ok).toBe(true);
  expect(report.pending).toBe(false);
  expect(report.rounds).toHaveLength(last.receipt.body.round);
  expect(report.rounds.every((r) => r.status === 'verified')).toBe(true);

  // And a tampered copy does not.
  const forged = structuredClone(t.body);
  forged.receipts[3].body.balanceAfter += 1000;
  expect((await verifyTranscript(forged, jwks)).ok).toBe(false);
});
