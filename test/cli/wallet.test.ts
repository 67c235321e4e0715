import { afterEach, describe, expect, test } from 'vitest';
import { reconcileLedger, type ProviderState } from '../../cli/wallet/reconcile.ts';
import { outboxDisposition, walletCallBody, type CreditCall, type RollbackCall } from '../../shared/wallet/calls.ts';
import { retryDelayMs } from '../../shared/wallet/outbox.ts';
import { seededPrng } from '../../shared/prng.ts';
import { signWalletMessage } from '../../shared/wallet/sign.ts';
import { roundCalls, startTestWallet, type TestWallet, PROVIDER_SECRET } from './wallet-fixtures.ts';

let wallet: TestWallet | undefined;
afterEach(async () => {
  await wallet?.close();
  wallet = undefined;
});

describe('the reference wallet over HTTP, called with callWallet', () => {
  test('balance, debit, credit (a win, and a zero credit closing a loss), rollback; the ledger reconciles', async () => {
    wallet = await startTestWallet();
    const balance = { kind: 'balance', playerId: 'alice', sessionId: 's-alice', currency: 'EUR' } as const;
    expect((await wallet.call(balance)).outcome).toMatchObject({ kind: 'applied', answer: { balance: 100_000, currency: 'EUR' } });
    const won = await roundCalls('alice', 1, 2_000, 3_900); // a Banker win of 20.00 pays 19.00
    expect((await wallet.call(won.debit)).outcome).toMatchObject({ kind: 'applied', answer: { balance: 98_000 }, duplicate: false });
    expect((await wallet.call(won.credit)).outcome).toMatchObject({ kind: 'applied', answer: { balance: 101_900 } });
    const lost = await roundCalls('alice', 2, 1_000, 0);
    await wallet.call(lost.debit);
    expect((await wallet.call(lost.credit)).outcome).toMatchObject({ kind: 'applied', answer: { balance: 100_900 } });
    const voided = await roundCalls('alice', 3, 500, 0);
    await wallet.call(voided.debit);
    expect((await wallet.call(voided.rollback)).outcome).toMatchObject({ kind: 'applied', answer: { balance: 100_900 } });
    // A round whose debit was rolled back pays nothing, ever.
    expect((await wallet.call(voided.credit)).outcome).toMatchObject({ kind: 'refused', code: 'rolled_back' });

    const view = await wallet.player('alice');
    expect(view).toEqual({
      playerId: 'alice',
      currency: 'EUR',
      balance: 100_900,
      transactions: [
        { id: won.debit.transactionId, kind: 'debit', amount: 2_000, state: 'applied' },
        { id: won.credit.transactionId, kind: 'credit', amount: 3_900, state: 'applied' },
        { id: lost.debit.transactionId, kind: 'debit', amount: 1_000, state: 'applied' },
        { id: lost.credit.transactionId, kind: 'credit', amount: 0, state: 'applied' },
        { id: voided.debit.transactionId, kind: 'debit', amount: 500, state: 'rolled_back' },
        { id: voided.rollback.transactionId, kind: 'rollback', amount: 500, state: 'applied' },
        { id: voided.credit.transactionId, kind: 'credit', amount: 0, state: 'refused' },
      ],
    });
    const provider = new Map<string, ProviderState>([
      [won.debit.transactionId, 'applied'],
      [won.credit.transactionId, 'applied'],
      [lost.debit.transactionId, 'applied'],
      [voided.debit.transactionId, 'rolled_back'],
    ]);
    expect(reconcileLedger(view!, 100_000, provider)).toEqual({ ok: true, expectedBalance: 100_900, problems: [] });
    // The helper sees a ledger that does not add up, and a provider that disagrees.
    expect(reconcileLedger({ ...view!, balance: 100_901 }, 100_000).problems).toEqual(['the balance is 100901, the transactions make it 100900']);
    expect(reconcileLedger(view!, 100_000, new Map([[voided.debit.transactionId, 'applied']])).ok).toBe(false);
    expect(await wallet.player('nobody')).toBeUndefined();
  });

  test('idempotent replays: the same id and body answer duplicate with the first answer, and apply once', async () => {
    wallet = await startTestWallet();
    const r = await roundCalls('bob', 1, 1_000, 2_000);
    const first = await wallet.call(r.debit);
    const again = await wallet.call(r.debit);
    expect(again.outcome).toEqual({ ...first.outcome, duplicate: true });
    await wallet.call(r.credit);
    expect((await wallet.call(r.credit)).outcome).toMatchObject({ kind: 'applied', answer: { balance: 101_000 }, duplicate: true });
    const view = await wallet.player('bob');
    expect(view?.balance).toBe(101_000);
    expect(view?.transactions).toHaveLength(2);
    // The same id with another body is a conflict, and changes nothing.
    expect((await wallet.call({ ...r.debit, amount: 1_001 })).outcome).toMatchObject({ kind: 'refused', code: 'transaction_conflict' });
    // A refusal is remembered too: the same debit refused again, even after the money is there.
    const big = await roundCalls('bob', 2, 500_000, 0);
    const refused = await wallet.call(big.debit);
    expect(refused.outcome).toMatchObject({ kind: 'refused', code: 'insufficient_funds', balance: 101_000 });
    expect((await wallet.call(big.debit)).outcome).toEqual({ ...refused.outcome, duplicate: true });
    expect((await wallet.player('bob'))?.balance).toBe(101_000);
  });

  test('insufficient funds, wrong currency, and a credit for a debit never made', async () => {
    wallet = await startTestWallet({}, 1_000);
    const r = await roundCalls('carol', 1, 1_001, 0, 'JPY');
    expect((await wallet.call(r.debit)).outcome).toMatchObject({ kind: 'refused', code: 'insufficient_funds', balance: 1_000 });
    const ok = await roundCalls('carol', 2, 1_000, 0, 'JPY');
    expect((await wallet.call(ok.debit)).outcome).toMatchObject({ kind: 'applied', answer: { balance: 0, currency: 'JPY' } });
    const eur = await roundCalls('carol', 3, 10, 0, 'EUR');
    expect((await wallet.call(eur.debit)).outcome).toMatchObject({ kind: 'refused', code: 'wrong_currency' });
    expect((await wallet.call({ kind: 'balance', playerId: 'carol', sessionId: 's', currency: 'BHD' })).outcome).toMatchObject({
      kind: 'refused',
      code: 'wrong_currency',
    });
    const orphan = await roundCalls('carol', 4, 10, 20, 'JPY');
    expect((await wallet.call(orphan.credit)).outcome).toMatchObject({ kind: 'refused', code: 'unknown_transaction' });
  });

  test('player_blocked, limit_reached, unknown_player: debits refused, owed credits and rollbacks still applied', async () => {
    wallet = await startTestWallet({}, 100_000, false);
    const put = async (playerId: string, body: unknown) => {
      const res = await fetch(`${wallet!.url}/players/${playerId}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return [res.status, await res.json()] as const;
    };
    const r1 = await roundCalls('lea', 1, 1_000, 2_000);
    expect((await wallet.call(r1.debit)).outcome).toMatchObject({ kind: 'refused', code: 'unknown_player' });
    expect((await wallet.call({ kind: 'balance', playerId: 'lea', sessionId: 's-lea', currency: 'EUR' })).outcome).toMatchObject({
      kind: 'refused',
      code: 'unknown_player',
    });
    // The refusal is kept under its id, like every answer.
    expect(await put('lea', { currency: 'EUR', balance: 5_000 })).toEqual([
      200,
      { playerId: 'lea', currency: 'EUR', balance: 5_000, transactions: [{ id: r1.debit.transactionId, kind: 'debit', amount: 1_000, state: 'refused' }] },
    ]);
    const r2 = await roundCalls('lea', 2, 1_000, 2_000);
    expect((await wallet.call(r2.debit)).outcome).toMatchObject({ kind: 'applied', answer: { balance: 4_000 } });
    expect((await put('lea', { currency: 'EUR', status: 'blocked' }))[1]).toMatchObject({ balance: 4_000 });
    const r3 = await roundCalls('lea', 3, 1_000, 0);
    expect((await wallet.call(r3.debit)).outcome).toMatchObject({ kind: 'refused', code: 'player_blocked', balance: 4_000 });
    expect((await wallet.call(r2.credit)).outcome).toMatchObject({ kind: 'applied', answer: { balance: 6_000 } });
    await put('lea', { currency: 'EUR', status: 'limit_reached' });
    const r4 = await roundCalls('lea', 4, 1_000, 0);
    expect((await wallet.call(r4.debit)).outcome).toMatchObject({ kind: 'refused', code: 'limit_reached' });
    await put('lea', { currency: 'EUR', status: 'active' });
    const r5 = await roundCalls('lea', 5, 1_000, 0);
    expect((await wallet.call(r5.debit)).outcome.kind).toBe('applied');
    expect((await wallet.call(r5.rollback)).outcome).toMatchObject({ kind: 'applied', answer: { balance: 6_000 } });
    expect(reconcileLedger((await wallet.player('lea'))!, 5_000).ok).toBe(true);
    expect((await put('lea', { currency: 'EUR', status: 'gone' }))[0]).toBe(400);
    expect((await put('lea', { currency: 'EUR', bonus: 1 }))[0]).toBe(400);
  });

  test('a rollback of a debit never seen is a success, and closes the id: the late debit is refused', async () => {
    wallet = await startTestWallet();
    const r = await roundCalls('dan', 1, 700, 0, 'BHD');
    expect((await wallet.call(r.rollback)).outcome).toMatchObject({ kind: 'applied', answer: { balance: 100_000, code: 'unknown_transaction' } });
    expect((await wallet.call(r.debit)).outcome).toMatchObject({ kind: 'refused', code: 'rolled_back' });
    expect((await wallet.call(r.rollback)).outcome).toMatchObject({ kind: 'applied', duplicate: true });
    const view = await wallet.player('dan');
    expect(view?.balance).toBe(100_000);
    expect(view?.transactions.map((t) => [t.kind, t.state])).toEqual([
      ['rollback', 'closed'],
      ['debit', 'refused'],
    ]);
    expect(reconcileLedger(view!, 100_000, new Map([[r.debit.transactionId, 'rolled_back']])).ok).toBe(true);
  });

  test('a bad signature is refused both ways', async () => {
    wallet = await startTestWallet();
    const r = await roundCalls('eve', 1, 100, 0);
    // The provider signs with a wrong secret: the wallet refuses (and signs its refusal properly).
    expect((await wallet.call(r.debit, { config: { providerSecret: 'wrong' } })).outcome).toMatchObject({ kind: 'refused', code: 'bad_signature' });
    // A timestamp ten minutes old: refused the same way.
    const body = walletCallBody(r.debit);
    const old = await signWalletMessage(PROVIDER_SECRET, {
      direction: 'request',
      method: 'POST',
      path: '/debit',
      timestamp: Math.floor(Date.now() / 1000) - 600,
      nonce: 'old-request-nonce-01',
      body,
    });
    const stale = await fetch(`${wallet.url}/debit`, { method: 'POST', headers: { ...old }, body });
    expect([stale.status, await stale.json()]).toMatchObject([
      401,
      { status: 'refused', code: 'bad_signature', message: expect.stringContaining('timestamp') as string },
    ]);
    expect(await wallet.player('eve')).toBeUndefined();
    // The wallet's answer checked with a wrong secret: not the wallet's, so the outcome is unknown (it WAS applied).
    expect((await wallet.call(r.debit, { config: { operatorSecret: 'wrong' } })).outcome).toMatchObject({ kind: 'unknown', reason: 'bad_answer_signature' });
    expect((await wallet.player('eve'))?.balance).toBe(99_900);
  });

  test('a replayed request (same nonce) is refused', async () => {
    wallet = await startTestWallet();
    const r = await roundCalls('fay', 1, 100, 0);
    const body = walletCallBody(r.debit);
    const headers = await signWalletMessage(PROVIDER_SECRET, {
      direction: 'request',
      method: 'POST',
      path: '/debit',
      timestamp: Math.floor(Date.now() / 1000),
      nonce: 'replayed-nonce-000001',
      body,
    });
    const send = () => fetch(`${wallet!.url}/debit`, { method: 'POST', headers: { ...headers }, body });
    expect((await send()).status).toBe(200);
    const replay = await send();
    expect(replay.status).toBe(401);
    expect(await replay.json()).toMatchObject({ status: 'refused', code: 'bad_signature', message: expect.stringContaining('already used') as string });
    expect((await wallet.player('fay'))?.balance).toBe(99_900);
  });
});

describe('fault injection, seeded', () => {
  test('--fail-rate 1: HTTP 500, unknown outcome, nothing applied', async () => {
    wallet = await startTestWallet({ failRate: 1 });
    const r = await roundCalls('gus', 1, 100, 0);
    expect((await wallet.call(r.debit)).outcome).toMatchObject({ kind: 'unknown', reason: 'http_status' });
    expect(await wallet.player('gus')).toBeUndefined();
  });

  test('--timeout-rate 1: applied, never answered; the caller times out with an unknown outcome; a rollback makes it whole', async () => {
    wallet = await startTestWallet({ timeoutRate: 1 });
    const r = await roundCalls('hal', 1, 100, 0);
    expect((await wallet.call(r.debit, { signal: AbortSignal.timeout(300) })).outcome).toMatchObject({ kind: 'unknown', reason: 'timeout' });
    expect((await wallet.player('hal'))?.balance).toBe(99_900);
    expect((await wallet.call(r.rollback, { signal: AbortSignal.timeout(300) })).outcome).toMatchObject({ kind: 'unknown', reason: 'timeout' });
    const view = await wallet.player('hal');
    expect(view?.balance).toBe(100_000);
    expect(reconcileLedger(view!, 100_000, new Map([[r.debit.transactionId, 'rolled_back']])).ok).toBe(true);
  });

  test('--duplicate-rate 1: applied once, answered as a duplicate of that', async () => {
    wallet = await startTestWallet({ duplicateRate: 1 });
    const r = await roundCalls('ida', 1, 100, 0);
    expect((await wallet.call(r.debit)).outcome).toMatchObject({ kind: 'applied', answer: { balance: 99_900 }, duplicate: true });
    expect((await wallet.player('ida'))?.transactions).toHaveLength(1);
  });

  test('--latency-ms: the call waits and is still answered', async () => {
    wallet = await startTestWallet({ latencyMs: [20, 40] });
    const r = await roundCalls('jo', 1, 100, 0);
    expect((await wallet.call(r.debit)).outcome).toMatchObject({ kind: 'applied', answer: { balance: 99_900 } });
  });

  test('--seed: the same seed replays the same faults; the ledger always reconciles with what the provider resolved', async () => {
    async function run(seed: string): Promise<string[]> {
      const w = await startTestWallet({ failRate: 0.3, duplicateRate: 0.4, seed });
      try {
        const kinds: string[] = [];
        const provider = new Map<string, 'applied' | 'rolled_back' | 'refused'>();
        for (let round = 1; round <= 12; round++) {
          const r = await roundCalls('kim', round, 100, round % 2 ? 195 : 0);
          const debit = (await w.call(r.debit)).outcome;
          kinds.push(debit.kind + (debit.kind === 'applied' && debit.duplicate ? '+dup' : ''));
          if (debit.kind === 'applied') {
            provider.set(r.debit.transactionId, 'applied');
            // The outbox: retry the credit until the wallet has it.
            for (let attempt = 0; attempt < 50; attempt++) {
              const credit = (await w.call(r.credit)).outcome;
              kinds.push(`credit ${credit.kind}${credit.kind === 'applied' && credit.duplicate ? '+dup' : ''}`);
              if (credit.kind === 'applied') break;
            }
            provider.set(r.credit.transactionId, 'applied');
          } else if (debit.kind === 'unknown') {
            for (let attempt = 0; attempt < 50; attempt++) if ((await w.call(r.rollback)).outcome.kind === 'applied') break;
            provider.set(r.debit.transactionId, 'rolled_back');
          }
        }
        const view = await w.player('kim');
        expect(reconcileLedger(view!, 100_000, provider)).toMatchObject({ ok: true });
        return kinds;
      } finally {
        await w.close();
      }
    }
    const a = await run('7');
    expect(await run('7')).toEqual(a);
    expect(a).toContain('unknown');
    expect(a.some((k) => k.endsWith('+dup'))).toBe(true);
    expect(await run('8')).not.toEqual(a);
  });

  test('every fault at once, 3 players × 30 rounds: after the outbox drains, each ledger equals the rounds the provider holds applied', async () => {
    wallet = await startTestWallet({ failRate: 0.1, timeoutRate: 0.1, duplicateRate: 0.1, latencyMs: [0, 20], seed: 'soak' });
    const w = wallet;
    const random = seededPrng('bets');
    const jitter = () => random.nextUint32() / 2 ** 32;
    const policy = { baseMs: 2, factor: 2, capMs: 32 };
    const call = (c: Parameters<TestWallet['call']>[0]) => w.call(c, { signal: AbortSignal.timeout(250) });
    /** The outbox: retried with backoff until the wallet has it. */
    async function owe(c: CreditCall | RollbackCall): Promise<void> {
      for (let attempt = 1; ; attempt++) {
        const disposition = outboxDisposition(c.kind, (await call(c)).outcome);
        if (disposition === 'done') return;
        expect(disposition).toBe('retry');
        await new Promise((r) => setTimeout(r, retryDelayMs(Math.min(attempt, 10), jitter(), policy)));
      }
    }
    const tally = { applied: 0, refused: 0, unknown: 0 };
    await Promise.all(
      ['p1', 'p2', 'p3'].map(async (playerId) => {
        const provider = new Map<string, ProviderState>();
        let expected = 100_000;
        for (let round = 1; round <= 30; round++) {
          const stake = 100 * (1 + random.below(20));
          // Player 1:1, Banker 19:20, Tie 8:1 (the bet on a tie also pays), or a loss.
          const payout = [0, 2 * stake, stake + (stake * 19) / 20, 9 * stake, stake][random.below(5)]!;
          const r = await roundCalls(playerId, round, stake, payout);
          const debit = (await call(r.debit)).outcome;
          tally[debit.kind]++;
          if (debit.kind === 'applied') {
            await owe(r.credit);
            provider.set(r.debit.transactionId, 'applied').set(r.credit.transactionId, 'applied');
            expected += payout - stake;
          } else if (debit.kind === 'unknown') {
            await owe(r.rollback);
            provider.set(r.debit.transactionId, 'rolled_back');
          } else provider.set(r.debit.transactionId, 'refused');
        }
        const view = (await w.player(playerId))!;
        expect(reconcileLedger(view, 100_000, provider)).toEqual({ ok: true, expectedBalance: expected, problems: [] });
        expect(view.balance).toBe(expected);
      }),
    );
    // The faults happened: some debits came back unknown and were rolled back.
    expect(tally.unknown).toBeGreaterThan(0);
    expect(tally.applied).toBeGreaterThan(0);
  });
});
