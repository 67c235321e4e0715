/**
 * The typed HTTP client (shared/wire/http-client.ts) against a recording fetch: every endpoint's
 * method, path, headers and body, and how each kind of failure becomes an error value. The same
 * client against the real Worker is test/worker/http-client.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { generateSigningKey, playerKeyOf, signRequest } from '../../shared/index.ts';
import type { BetRequest, EndRequest, SecretRequest, StartRequest } from '../../shared/fairness/pb-fair-2/records.ts';
import * as apiCalls from '../../shared/wire/http-calls.ts';
import { type ApiCall, apiUrl, type FetchLike, sendApiCall } from '../../shared/wire/http-client.ts';

interface Seen {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

/** A fetch that records what it was sent and answers `answer` (a JSON body and a status). */
function recorder(status = 200, answer: unknown = { ok: 1 }, headers: Record<string, string> = {}): { fetch: FetchLike; seen: Seen[] } {
  const seen: Seen[] = [];
  const fetch: FetchLike = async (url, init) => {
    seen.push({
      url,
      method: String(init.method),
      headers: { ...(init.headers as Record<string, string>) },
      body: init.body === null || init.body === undefined ? null : JSON.parse(String(init.body)),
    });
    const text = typeof answer === 'string' ? answer : JSON.stringify(answer);
    return new Response(text, { status, headers: { 'content-type': typeof answer === 'string' ? 'text/html' : 'application/json', ...headers } });
  };
  return { fetch, seen };
}

const ENDPOINT = 'https://tables.example/casino';

async function signed() {
  const { key } = await generateSigningKey('player');
  const base = { table: 'sess/1', shoe: 2 };
  return {
    key,
    start: await signRequest<StartRequest>({ type: 'start', ...base, commitment: 'c'.repeat(64), clientSeed: 'seed', cut: 100 }, key),
    bet: await signRequest<BetRequest>(
      { type: 'bet', ...base, round: 7, prev: 'p'.repeat(64), bets: [{ sector: 1, box: 'banker', amount: 1000 }], lock: 'l'.repeat(64) },
      key,
    ),
    secret: await signRequest<SecretRequest>({ type: 'secret', ...base, round: 7, acceptance: 'a'.repeat(64), secret: 's'.repeat(64) }, key),
    end: await signRequest<EndRequest>({ type: 'end', ...base, prev: 'p'.repeat(64) }, key),
  };
}

describe('every endpoint: one method, one path, its body and its idempotency key', () => {
  test('the calls ask the paths of API.md, under the endpoint (with or without its final slash)', async () => {
    const r = await signed();
    const cases: [ApiCall<unknown>, string, string, unknown][] = [
      [apiCalls.createSession({ room: 'vip', playerKey: playerKeyOf(r.key) }, 'k1'), 'POST', 'api/sessions', { room: 'vip', playerKey: playerKeyOf(r.key) }],
      [apiCalls.sessionState('sess/1'), 'GET', 'api/sessions/sess%2F1', null],
      [apiCalls.startShoe('sess/1', r.start, 'k2'), 'POST', 'api/sessions/sess%2F1/shoe/start', { request: r.start }],
      [apiCalls.placeBet('sess/1', r.bet, 'k3'), 'POST', 'api/sessions/sess%2F1/rounds', { request: r.bet }],
      [apiCalls.revealSecret('sess/1', r.secret, 'k4'), 'POST', 'api/sessions/sess%2F1/rounds/7/secret', { request: r.secret }],
      [apiCalls.endShoe('sess/1', r.end, 'k5'), 'POST', 'api/sessions/sess%2F1/shoe/end', { request: r.end }],
      [apiCalls.transcript('sess/1'), 'GET', 'api/sessions/sess%2F1/transcript', null],
      [apiCalls.sharedTableTicket('hall-1/main'), 'POST', 'api/tables/hall-1/main/ticket', null],
      [apiCalls.jwks(), 'GET', '.well-known/jwks.json', null],
    ];
    for (const endpoint of [ENDPOINT, `${ENDPOINT}/`]) {
      for (const [call, method, path, body] of cases) {
        const { fetch, seen } = recorder();
        const answer = await sendApiCall(fetch, endpoint, call, { token: 'tok' });
        expect(answer).toEqual({ ok: true, value: { ok: 1 } });
        expect(seen).toHaveLength(1);
        const [one] = seen;
        expect(one).toMatchObject({ url: `${ENDPOINT}/${path}`, method, body });
        expect(one!.headers.accept).toBe('application/json');
        expect(one!.headers.authorization).toBe('Bearer tok');
        expect(one!.headers['content-type']).toBe(body === null ? undefined : 'application/json');
        // A state-changing call carries the key the caller passed in; a read carries none.
        expect(one!.headers['idempotency-key']).toBe(call.idempotencyKey);
        expect(call.idempotencyKey === undefined).toBe(method === 'GET' || path.endsWith('/ticket'));
      }
    }
  });

  test('the same call sent twice sends the same key and the same body (a retry can never pay twice)', async () => {
    const r = await signed();
    const call = apiCalls.placeBet('s1', r.bet, 'the-key');
    const { fetch, seen } = recorder();
    await sendApiCall(fetch, ENDPOINT, call, { token: 't' });
    await sendApiCall(fetch, ENDPOINT, call, { token: 't' });
    expect(seen[0]).toEqual(seen[1]);
    expect(seen[0]!.headers['idempotency-key']).toBe('the-key');
  });

  test('the paths read by links and sockets (transcripts, the shared table socket)', () => {
    expect(apiUrl(ENDPOINT, apiCalls.transcriptPath('abc'))).toBe(`${ENDPOINT}/api/sessions/abc/transcript`);
    expect(apiUrl(`${ENDPOINT}/`, apiCalls.sharedTableTranscriptPath('vip/high'))).toBe(`${ENDPOINT}/api/tables/vip/high/transcript`);
    expect(apiUrl('wss://tables.example', apiCalls.sharedTableSocketPath('vip/high'))).toBe('wss://tables.example/api/tables/vip/high/ws');
  });

  test('no token, no authorization', async () => {
    const { fetch, seen } = recorder();
    await sendApiCall(fetch, ENDPOINT, apiCalls.sessionState('x'));
    expect(seen[0]!.headers.authorization).toBeUndefined();
  });
});

describe('errors are values', () => {
  test("an error answer keeps the Worker's code, message and status, and its extra fields as detail", async () => {
    const { fetch } = recorder(400, { error: { code: 'bet_above_max', message: 'too much', sector: 2, box: 'tie' } });
    const answer = await sendApiCall(fetch, ENDPOINT, apiCalls.sessionState('s'));
    expect(answer).toEqual({
      ok: false,
      error: { code: 'bet_above_max', message: 'too much', status: 400, retryable: false, detail: { sector: 2, box: 'tie' } },
    });
  });

  test('401 and 404 keep their codes (what a session that is gone means is the caller’s to say)', async () => {
    for (const [status, code] of [
      [401, 'unauthorized'],
      [404, 'not_found'],
      [409, 'round_pending'],
    ] as const) {
      const { fetch } = recorder(status, { error: { code, message: 'm' } });
      const answer = await sendApiCall(fetch, ENDPOINT, apiCalls.sessionState('s'));
      expect(answer).toEqual({ ok: false, error: { code, message: 'm', status, retryable: false } });
    }
  });

  test('no answer: unreachable, worth retrying, status 0; an abort is not retried', async () => {
    const down: FetchLike = async () => {
      throw new TypeError('Failed to fetch');
    };
    expect(await sendApiCall(down, ENDPOINT, apiCalls.sessionState('s'))).toEqual({
      ok: false,
      error: { code: 'unreachable', message: 'Failed to fetch', status: 0, retryable: true },
    });
    const aborter = new AbortController();
    aborter.abort();
    const honest: FetchLike = (url, init) => {
      init.signal?.throwIfAborted();
      return Promise.resolve(new Response('{}'));
    };
    const aborted = await sendApiCall(honest, ENDPOINT, apiCalls.sessionState('s'), { signal: aborter.signal });
    expect(aborted.ok).toBe(false);
    if (!aborted.ok) expect(aborted.error).toMatchObject({ code: 'aborted', status: 0, retryable: false });
  });

  test('a rate limit is retryable and says how long to wait (Retry-After, default 1 s)', async () => {
    const limited = recorder(429, { error: { code: 'rate_limited', message: 'slow down' } }, { 'retry-after': '2' });
    expect(await sendApiCall(limited.fetch, ENDPOINT, apiCalls.sessionState('s'))).toEqual({
      ok: false,
      error: { code: 'rate_limited', message: 'slow down', status: 429, retryable: true, retryAfterMs: 2000 },
    });
    const bare = recorder(429, 'busy');
    const answer = await sendApiCall(bare.fetch, ENDPOINT, apiCalls.sessionState('s'));
    expect(answer.ok === false && answer.error).toMatchObject({ code: 'rate_limited', retryable: true, retryAfterMs: 1000 });
  });

  test('a server failure is retryable: its code when it has one, else http_<status>', async () => {
    const coded = recorder(503, { error: { code: 'unavailable', message: 'later' } }, { 'retry-after': '3' });
    expect(await sendApiCall(coded.fetch, ENDPOINT, apiCalls.sessionState('s'))).toEqual({
      ok: false,
      error: { code: 'unavailable', message: 'later', status: 503, retryable: true, retryAfterMs: 3000 },
    });
    const bare = recorder(502, 'Bad Gateway');
    const answer = await sendApiCall(bare.fetch, ENDPOINT, apiCalls.sessionState('s'));
    expect(answer.ok === false && answer.error).toMatchObject({ code: 'http_502', status: 502, retryable: true });
  });

  test('what is not a table server (a page, JSON of another API, a 200 that is not JSON) is wrong_endpoint, naming the endpoint', async () => {
    for (const [status, body] of [
      [404, '<!doctype html><h1>Not found</h1>'],
      [405, { message: 'Method Not Allowed' }],
      [200, '<!doctype html><p>a page'],
      [401, { error: 'nope' }],
    ] as const) {
      const { fetch } = recorder(status, body);
      const answer = await sendApiCall(fetch, ENDPOINT, apiCalls.sessionState('s'));
      expect(answer).toEqual({
        ok: false,
        error: {
          code: 'wrong_endpoint',
          message: `no table server answers at ${ENDPOINT}/ (HTTP ${status}): the table's endpoint is missing or wrong`,
          status,
          retryable: false,
          endpoint: `${ENDPOINT}/`,
        },
      });
    }
  });
});
