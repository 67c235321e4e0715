/**
 * The typed HTTP client (shared/wire/http-client.ts) against the real Worker inside workerd: a
 * whole session played through its calls only (every path it writes is one the Worker answers),
 * a retry of the same call answered with the first answer, and the Worker's refusals read back
 * as error values with their codes.
 */
import { exports } from 'cloudflare:workers';
import { describe, expect, test } from 'vitest';
import {
  betRequest,
  endRequest,
  generateSigningKey,
  newRoundSecret,
  playerKeyOf,
  ROOMS,
  secretRequest,
  type Signed,
  signRequest,
  startRequest,
  verifyText,
} from '../../shared/index.ts';
import * as apiCalls from '../../shared/wire/http-calls.ts';
import { type FetchLike, sendApiCall, type WireResult } from '../../shared/wire/http-client.ts';
import { BASE, CLIENT_IP } from './helpers.ts';

/** The Worker's own fetch handler, as any client's fetch (one client address per file, for the rate limits). */
const workerFetch: FetchLike = (url, init) => {
  const headers = new Headers(init.headers);
  headers.set('CF-Connecting-IP', CLIENT_IP);
  return exports.default.fetch(new Request(url, { ...init, headers }));
};

const send = <T>(call: Parameters<typeof sendApiCall<T>>[2], token?: string): Promise<WireResult<T>> => sendApiCall(workerFetch, BASE, call, { token });

function value<T>(result: WireResult<T>): T {
  if (!result.ok) throw new Error(`${result.error.status} ${result.error.code}: ${result.error.message}`);
  return result.value;
}

const randomBytes = (n: number): Uint8Array => crypto.getRandomValues(new Uint8Array(n));

describe('a session played through the typed client alone', () => {
  test('create, start, bet, secret, end, state and the transcript: the file it gives verifies', async () => {
    const { key } = await generateSigningKey('player');
    const created = value(await send(apiCalls.createSession({ room: 'hall-2', playerKey: playerKeyOf(key) }, crypto.randomUUID())));
    expect(created).toMatchObject({ protocol: 'pb-fair-2', room: 'hall-2', playerKey: playerKeyOf(key), limits: ROOMS['hall-2'].limits });
    const { sessionId: id, token } = created;

    const start = await signRequest(startRequest(created.shoe.commitment, 'client seed', 100), key);
    const started = value(await send(apiCalls.startShoe(id, start, crypto.randomUUID()), token));
    expect(started.shoe.status).toBe('in-play');
    expect(started.shoe.start?.body.type).toBe('start');

    let head: Signed = started.shoe.start!;
    let balance = created.balance;
    for (let round = 1; round <= 3; round++) {
      const bets = [{ sector: 1, box: 'banker' as const, amount: ROOMS['hall-2'].limits.min }];
      const secret = newRoundSecret(randomBytes);
      const bet = await signRequest(betRequest(head, round, bets, secret), key);
      const accepted = value(await send(apiCalls.placeBet(id, bet, crypto.randomUUID()), token));
      expect(accepted.acceptance.body).toMatchObject({ type: 'acceptance', round });
      expect(accepted.balance).toBe(balance - ROOMS['hall-2'].limits.min);
      const reveal = await signRequest(secretRequest(accepted.acceptance, secret), key);
      const settled = value(await send(apiCalls.revealSecret(id, reveal, crypto.randomUUID()), token));
      const receipt = settled.receipt.body;
      expect(receipt.round).toBe(round);
      // Banco wins 19:20, Punto loses it, a tie returns it: whichever came out, the balance says so.
      expect(['player', 'banker', 'tie']).toContain(receipt.outcome);
      expect(settled.balance).toBe(balance - receipt.staked + receipt.returned);
      balance = settled.balance;
      head = settled.receipt;
    }

    const view = value(await send(apiCalls.sessionState(id), token));
    expect(view).toMatchObject({ sessionId: id, balance, pending: null, head: { hash: head.hash } });

    const end = await signRequest(endRequest(head), key);
    const ended = value(await send(apiCalls.endShoe(id, end, crypto.randomUUID()), token));
    expect(ended.reveal.body.type).toBe('reveal');
    expect(ended.nextShoe.status).toBe('awaiting-start');

    const file = value(await send(apiCalls.transcript(id), token));
    expect(file.version).toBe('pb-fair-2');
    const jwks = value(await send(apiCalls.jwks()));
    const report = await verifyText(JSON.stringify(file), jwks);
    expect(report.code).toBe('ok');
    expect(report.rounds).toHaveLength(3);
  });

  test('the same call sent again (its key, its body) gets the first answer: the stake is taken once', async () => {
    const { key } = await generateSigningKey('player');
    const created = value(await send(apiCalls.createSession({ room: 'hall-1', playerKey: playerKeyOf(key) }, crypto.randomUUID())));
    const { sessionId: id, token } = created;
    const started = value(await send(apiCalls.startShoe(id, await signRequest(startRequest(created.shoe.commitment, 'seed', 50), key), 'start-key'), token));
    const bets = [{ sector: 2, box: 'tie' as const, amount: ROOMS['hall-1'].limits.min }];
    const call = apiCalls.placeBet(id, await signRequest(betRequest(started.shoe.start!, 1, bets, newRoundSecret(randomBytes)), key), 'bet-key');
    const first = value(await send(call, token));
    const again = value(await send(call, token));
    expect(again).toEqual(first);
    expect(value(await send(apiCalls.sessionState(id), token)).balance).toBe(created.balance - ROOMS['hall-1'].limits.min);
  });
});

describe("the Worker's refusals as error values", () => {
  test('a wrong token, a second start, a bet over the limit, a secret for no round, an unknown session: codes, statuses, details', async () => {
    const { key } = await generateSigningKey('player');
    const created = value(await send(apiCalls.createSession({ room: 'hall-1', playerKey: playerKeyOf(key) }, crypto.randomUUID())));
    const { sessionId: id, token } = created;

    const stranger = await send(apiCalls.sessionState(id), `${id}.${'A'.repeat(43)}`);
    expect(stranger).toMatchObject({ ok: false, error: { code: 'unauthorized', status: 401, retryable: false } });

    const start = await signRequest(startRequest(created.shoe.commitment, 'seed', 20), key);
    const started = value(await send(apiCalls.startShoe(id, start, crypto.randomUUID()), token));
    // The same start again, under a new key: the shoe is already started.
    const twice = await send(apiCalls.startShoe(id, start, crypto.randomUUID()), token);
    expect(twice).toMatchObject({ ok: false, error: { code: 'shoe_already_started', status: 409, retryable: false } });

    const max = ROOMS['hall-1'].limits.max;
    const over = await signRequest(
      betRequest(started.shoe.start!, 1, [{ sector: 3, box: 'player', amount: max + ROOMS['hall-1'].limits.min }], newRoundSecret(randomBytes)),
      key,
    );
    const refused = await send(apiCalls.placeBet(id, over, crypto.randomUUID()), token);
    expect(refused).toMatchObject({ ok: false, error: { code: 'over_maximum', status: 422, retryable: false, detail: { sector: 3, box: 'player' } } });

    // A secret for a round never accepted.
    const accepted = { body: { type: 'acceptance', table: id, shoe: 1, round: 1 }, hash: 'h'.repeat(64) } as unknown as Parameters<typeof secretRequest>[0];
    const lonely = await send(
      apiCalls.revealSecret(id, await signRequest(secretRequest(accepted, newRoundSecret(randomBytes)), key), crypto.randomUUID()),
      token,
    );
    expect(lonely).toMatchObject({ ok: false, error: { code: 'bad_request', status: 400, retryable: false } });

    const nobody = 'C'.repeat(22);
    const unknown = await send(apiCalls.sessionState(nobody), `${nobody}.${'A'.repeat(43)}`);
    expect(unknown).toMatchObject({ ok: false, error: { code: 'not_found', status: 404, retryable: false } });
  });
});
