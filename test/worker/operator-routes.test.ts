/**
 * The operator's signed routes (API.md "Operators"): every call is signed by the operator over its
 * method, path with query, timestamp, nonce and body; ending a player's sessions; the wallet calls
 * of its sessions with their states; a round's records; the daily summary per currency. The
 * sessions play through the reference wallet (vitest.config.ts) in wallet mode.
 */
import { describe, expect, test } from 'vitest';
import { bet, reveal, startShoe, state } from './helpers.ts';
import { DEMO, freshNonce, launchedSession, launchOf, minimumBet, operatorCall, OTHER } from './operator-helpers.ts';

const code = (r: { body: { error?: { code: string } } }) => r.body.error?.code;
const today = () => new Date().toISOString().slice(0, 10);
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

describe('every operator route is signed', () => {
  const routes: Array<['GET' | 'POST', string, string]> = [
    ['GET', `/api/operator/transactions?from=${today()}&to=${tomorrow()}`, ''],
    ['GET', `/api/operator/summary?day=${today()}`, ''],
    ['GET', '/api/operator/rounds/AAAAAAAAAAAAAAAAAAAAAA/1/1', ''],
    ['POST', '/api/operator/players/nobody/end', '{"code":"operator_ended"}'],
  ];

  test('an unsigned, forged, stale, replayed or unknown-operator call is refused with its code', async () => {
    for (const [method, path, body] of routes) {
      const unsigned = await operatorCall(method, path, body, { unsigned: true });
      expect([unsigned.status, code(unsigned)], path).toEqual([401, 'missing_signature']);
      const forged = await operatorCall(method, path, body, { secret: OTHER.secret });
      expect([forged.status, code(forged)], path).toEqual([401, 'bad_signature']);
      const stale = await operatorCall(method, path, body, { timestamp: Math.floor(Date.now() / 1000) - 600 });
      expect([stale.status, code(stale)], path).toEqual([401, 'stale_timestamp']);
      const unknown = await operatorCall(method, path, body, { operator: { id: 'no-such-casino', secret: DEMO.secret } });
      expect([unknown.status, code(unknown)], path).toEqual([401, 'unknown_operator']);
      const nonce = freshNonce();
      expect((await operatorCall(method, path, body, { nonce })).status, path).not.toBe(401);
      const replay = await operatorCall(method, path, body, { nonce });
      expect([replay.status, code(replay)], path).toEqual([401, 'nonce_reused']);
    }
  });

  test('the signature covers the query: a call signed for one range does not pass for another', async () => {
    const signedFor = `/api/operator/transactions?from=${today()}&to=${tomorrow()}`;
    const { api } = await import('./helpers.ts');
    const { signWalletMessage } = await import('../../shared/wallet/sign.ts');
    const headers = await signWalletMessage(DEMO.secret, {
      direction: 'request',
      method: 'GET',
      path: signedFor,
      timestamp: Math.floor(Date.now() / 1000),
      nonce: freshNonce(),
      body: '',
    });
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const r = await api('GET', `/api/operator/transactions?from=${yesterday}&to=${tomorrow()}`, { headers: { ...headers, 'PB-Operator': DEMO.id } });
    expect([r.status, code(r)]).toEqual([401, 'bad_signature']);
  });

  test('a bad query is 400 bad_query before anything else', async () => {
    for (const path of [
      '/api/operator/transactions?from=yesterday&to=today',
      `/api/operator/transactions?from=${tomorrow()}&to=${today()}`,
      '/api/operator/transactions?from=2026-01-01&to=2026-03-01',
      '/api/operator/summary?day=2026-02-30',
      '/api/operator/summary',
    ]) {
      const r = await operatorCall('GET', path);
      expect([r.status, code(r)], path).toEqual([400, 'bad_query']);
    }
  });
});

describe('POST /api/operator/players/:playerId/end', () => {
  test("ends every open session of the player at once (self-exclusion): bets refused, another player's session untouched", async () => {
    const bob1 = await launchedSession(launchOf({ playerId: 'bob-end' }));
    const bob2 = await launchedSession(launchOf({ playerId: 'bob-end', room: 'hall-2' }));
    const carol = await launchedSession(launchOf({ playerId: 'carol-end' }));
    for (const s of [bob1, bob2]) await startShoe(s);
    const r = await operatorCall('POST', '/api/operator/players/bob-end/end', JSON.stringify({ code: 'self_exclusion' }));
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({ playerId: 'bob-end', code: 'self_exclusion', ended: [bob1.id, bob2.id] });
    for (const s of [bob1, bob2]) {
      expect((await state(s)).wallet.ended.code).toBe('self_exclusion');
      const refused = await bet(s, minimumBet(s.limits));
      expect([refused.status, code(refused)]).toEqual([403, 'session_ended']);
    }
    expect((await state(carol)).wallet.ended).toBeNull();
    // Nothing left to end.
    const again = await operatorCall('POST', '/api/operator/players/bob-end/end', JSON.stringify({ code: 'operator_ended' }));
    expect(again.body.ended).toEqual([]);
  });

  test('a bad body is refused, once signed: 400', async () => {
    for (const body of ['{"code":"banned"}', '{"code":"self_exclusion","why":"x"}', '[]']) {
      const r = await operatorCall('POST', '/api/operator/players/bob-end/end', body);
      expect([r.status, code(r)], body).toEqual([400, 'invalid_body']);
    }
    const r = await operatorCall('POST', '/api/operator/players/bob-end/end', '{');
    expect([r.status, code(r)]).toEqual([400, 'bad_json']);
  });
});

describe('what the sessions did: transactions, a round, the summary', () => {
  test("lists each round's debit and credit with their states; the summary adds them up per currency", async () => {
    // BHD is this test's own currency: the summary's BHD line is these rounds alone.
    const s = await launchedSession(launchOf({ playerId: 'dave-report', currency: 'BHD' }));
    await startShoe(s);
    const from = new Date(Date.now() - 1000).toISOString();
    const rounds: Array<{ debit: { transaction: string; amount: number }; credit: { transaction: string; amount: number } }> = [];
    for (let i = 0; i < 3; i++) {
      const accepted = await bet(s, minimumBet(s.limits));
      expect(accepted.status, accepted.text).toBe(200);
      const settled = await reveal(s, accepted.body.acceptance);
      expect(settled.status, settled.text).toBe(200);
      // Win, loss or tie: the credit is what the round returned (0 for a loss, the stake back on a tie).
      const receipt = settled.body.receipt.body;
      expect(['player', 'banker', 'tie']).toContain(receipt.outcome);
      rounds.push({ debit: accepted.body.acceptance.body.debit, credit: receipt.credit });
    }

    const listed = await operatorCall('GET', `/api/operator/transactions?from=${from}&to=${tomorrow()}`);
    expect(listed.status, listed.text).toBe(200);
    const mine = (listed.body.transactions as Array<Record<string, unknown>>).filter((t) => t.playerId === 'dave-report');
    expect(mine).toHaveLength(6);
    for (const [i, round] of rounds.entries()) {
      const debit = mine.find((t) => t.transaction === round.debit.transaction);
      expect(debit).toMatchObject({ kind: 'debit', currency: 'BHD', amount: round.debit.amount, state: 'acknowledged', roundId: `${s.id}/1/${i + 1}` });
      const credit = mine.find((t) => t.transaction === round.credit.transaction);
      expect(credit).toMatchObject({ kind: 'credit', currency: 'BHD', amount: round.credit.amount, roundId: `${s.id}/1/${i + 1}` });
      expect(['acknowledged', 'pending']).toContain(credit!.state);
    }
    // A range before the rounds lists none of them.
    const before = await operatorCall('GET', `/api/operator/transactions?from=${today()}&to=${from}`);
    expect((before.body.transactions as Array<{ playerId: string }>).filter((t) => t.playerId === 'dave-report')).toEqual([]);

    const summary = await operatorCall('GET', `/api/operator/summary?day=${today()}`);
    expect(summary.status, summary.text).toBe(200);
    const staked = rounds.reduce((n, r) => n + r.debit.amount, 0);
    const returned = rounds.reduce((n, r) => n + r.credit.amount, 0);
    const pending = mine.filter((t) => t.state === 'pending').length;
    expect(summary.body.currencies.find((c: { currency: string }) => c.currency === 'BHD')).toEqual({
      currency: 'BHD',
      rounds: 3,
      staked,
      returned,
      houseResult: staked - returned,
      pending,
      refused: 0,
    });

    const round = await operatorCall('GET', `/api/operator/rounds/${s.id}/1/2`);
    expect(round.status, round.text).toBe(200);
    expect(round.body).toMatchObject({ sessionId: s.id, roundId: `${s.id}/1/2`, playerId: 'dave-report', currency: 'BHD' });
    expect(round.body.records.map((r: { body: { type: string } }) => r.body.type)).toEqual(['acceptance', 'receipt']);
    expect(round.body.records[0].body.debit).toEqual(rounds[1]!.debit);
    const missing = await operatorCall('GET', `/api/operator/rounds/${s.id}/1/9`);
    expect([missing.status, code(missing)]).toEqual([404, 'not_found']);
    // Another operator cannot look this session up.
    const other = await operatorCall('GET', `/api/operator/rounds/${s.id}/1/2`, '', { operator: OTHER });
    expect([other.status, code(other)]).toEqual([404, 'not_found']);
  });
});
