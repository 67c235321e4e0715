/**
 * Findings of an outside security audit, inside workerd: framing headers on the Worker's
 * answers, an upload dropped half way, replayed session creations, affiliate attribution (signed /
 * origin / claimed) and the scope of an Idempotency-Key. Test vars: test/worker/vitest.config.ts
 * (acme: https://acme.example and a key in AFFILIATE_KEYS; "*": https://casino.example; DEV on).
 */
import { createExecutionContext, runDurableObjectAlarm, runInDurableObject, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { MAX_AFFILIATE_TOKEN_LIFETIME_S, mintAffiliateToken } from '../../worker/embed/attribution.ts';
import { CREATION_KEY_TTL_MS } from '../../worker/session/client.ts';
import worker from '../../worker/index.ts';
import { type AffiliateReport, type Figures, type Ledger, LEDGER_MIGRATIONS, LEDGER_NAME } from '../../worker/ledger/ledger.ts';
import { migrate } from '../../worker/session/schema.ts';
import {
  api,
  BASE,
  CLIENT_IP,
  createSession,
  play,
  type Reply,
  type Session,
  startShoe,
  PLAYER_KEY,
  sessionOf,
  startBody,
  betBody,
  endBody,
} from './helpers.ts';

const ACME_KEY = (JSON.parse(env.AFFILIATE_KEYS!) as Record<string, string>).acme!;
const now = () => Math.floor(Date.now() / 1000);

afterEach(() => {
  vi.restoreAllMocks();
});

function asSession(r: Reply): Session {
  expect(r.status, r.text).toBe(201);
  return sessionOf(r);
}

describe('framing', () => {
  test('the API, the JWKS and unknown paths may not be framed; the embed frame keeps its own frame-ancestors', async () => {
    const s = await createSession();
    for (const r of [
      await api('GET', `/api/sessions/${s.id}`, { token: s.token }),
      await api('GET', '/api/sessions/nope', { token: s.token }),
      await api('GET', '/.well-known/jwks.json'),
      await api('GET', '/no/such/page.html'),
      await api('GET', '/embed?room=nowhere'), // a refused query is no frame
    ]) {
      expect(r.headers.get('X-Frame-Options')).toBe('DENY');
      expect(r.headers.get('Content-Security-Policy')).toBe("frame-ancestors 'none'");
    }
    const frame = await api('GET', '/embed?room=hall-1&affiliate=acme');
    expect(frame.status).toBe(200);
    expect(frame.headers.get('X-Frame-Options')).toBeNull();
    expect(frame.headers.get('Content-Security-Policy')).toMatch(/frame-ancestors [^;]*https:\/\/acme\.example/);
  });
});

describe('an upload dropped half way', () => {
  /** A request whose body sends a first chunk and then fails, as when the client goes away. */
  function droppingRequest(path: string, headers: Record<string, string>): Request {
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) {
          sent = true;
          controller.enqueue(new TextEncoder().encode('{"room": "hall'));
        } else {
          controller.error(new Error('the client went away'));
        }
      },
    });
    return new Request(`${BASE}${path}`, {
      method: 'POST',
      headers: { 'CF-Connecting-IP': CLIENT_IP, 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID(), ...headers },
      body,
    });
  }

  test('creation and a round: a quiet 400 body_aborted, nothing logged, nothing changed', async () => {
    const s = await createSession();
    await startShoe(s);
    const logged = vi.spyOn(console, 'error');
    for (const req of [droppingRequest('/api/sessions', {}), droppingRequest(`/api/sessions/${s.id}/rounds`, { Authorization: `Bearer ${s.token}` })]) {
      const ctx = createExecutionContext();
      const res = await worker.fetch(req, env, ctx);
      await waitOnExecutionContext(ctx);
      expect(res.status).toBe(400);
      expect(((await res.json()) as any).error.code).toBe('body_aborted');
    }
    expect(logged).not.toHaveBeenCalled();
    const after = await api('GET', `/api/sessions/${s.id}`, { token: s.token });
    expect(after.body.shoe.rounds).toBe(0);
  });
});

describe('replaying a session creation', () => {
  test('N replays: the same session and the same token each time, and the table holds that one token', async () => {
    const key = crypto.randomUUID();
    const body = { playerKey: PLAYER_KEY, room: 'hall-2' };
    const first = await api('POST', '/api/sessions', { key, body });
    expect(first.status).toBe(201);
    expect(first.headers.get('Idempotent-Replayed')).toBeNull();
    for (let i = 0; i < 5; i++) {
      const again = await api('POST', '/api/sessions', { key, body });
      expect(again.status).toBe(201);
      expect(again.headers.get('Idempotent-Replayed')).toBe('true');
      expect(again.body).toEqual(first.body);
    }
    await runInDurableObject(env.TABLES.getByName(first.body.sessionId), (_t, state) => {
      expect(state.storage.sql.exec(`SELECT COUNT(*) AS n FROM tokens`).one().n).toBe(1);
    });
    expect((await api('GET', `/api/sessions/${first.body.sessionId}`, { token: first.body.token })).status).toBe(200);
    // A well-formed token for this session that was never handed out opens nothing.
    const forged = `${first.body.sessionId}.${'A'.repeat(43)}`;
    expect((await api('GET', `/api/sessions/${first.body.sessionId}`, { token: forged })).status).toBe(401);
  });

  test('the kept answer and its token are deleted when the replay window closes', async () => {
    const key = crypto.randomUUID();
    const first = await api('POST', '/api/sessions', { key, body: { playerKey: PLAYER_KEY, room: 'hall-1' } });
    const client = env.CLIENTS.getByName(`ip:${CLIENT_IP}`);
    const count = () =>
      runInDurableObject(client, (_c, state) => state.storage.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM creations WHERE key = ?`, key).one().n);
    expect(await count()).toBe(1);
    // Age the row past the TTL, then let the alarm run.
    await runInDurableObject(client, (_c, state) => {
      state.storage.sql.exec(`UPDATE creations SET created_at = ? WHERE key = ?`, Date.now() - CREATION_KEY_TTL_MS - 1, key);
    });
    expect(await runDurableObjectAlarm(client)).toBe(true);
    expect(await count()).toBe(0);
    // The same key now makes a new session: the old token was never given out twice.
    const later = await api('POST', '/api/sessions', { key, body: { playerKey: PLAYER_KEY, room: 'hall-1' } });
    expect(later.body.sessionId).not.toBe(first.body.sessionId);
  });

  test('a creation kept by an older version (no token kept): its replay is a 409, never a second token', async () => {
    const key = crypto.randomUUID();
    const first = await api('POST', '/api/sessions', { key, body: { playerKey: PLAYER_KEY, room: 'vip' } });
    await runInDurableObject(env.CLIENTS.getByName(`ip:${CLIENT_IP}`), (_c, state) => {
      state.storage.sql.exec(`UPDATE creations SET token = NULL WHERE key = ?`, key);
    });
    const again = await api('POST', '/api/sessions', { key, body: { playerKey: PLAYER_KEY, room: 'vip' } });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('idempotency_conflict');
    await runInDurableObject(env.TABLES.getByName(first.body.sessionId), (_t, state) => {
      expect(state.storage.sql.exec(`SELECT COUNT(*) AS n FROM tokens`).one().n).toBe(1);
    });
  });
});

describe('affiliate attribution', () => {
  async function create(opts: { affiliate?: string; origin?: string; token?: string; key?: string }): Promise<Reply> {
    const headers: Record<string, string> = {};
    if (opts.origin) headers.Origin = opts.origin;
    if (opts.token) headers['Affiliate-Token'] = opts.token;
    const body =
      opts.affiliate === undefined ? { playerKey: PLAYER_KEY, room: 'hall-1' } : { playerKey: PLAYER_KEY, room: 'hall-1', affiliate: opts.affiliate };
    return api('POST', '/api/sessions', { key: opts.key, body, headers });
  }

  test('the token format of DEPLOY.md: a fixed vector (computed with node:crypto createHmac)', () => {
    const token = mintAffiliateToken('acme-test-affiliate-key-0123456789abcdef', 'acme', 1_800_000_000, 'k-1');
    expect(token).toBe('v1.1800000000.g4qks-bRzuqlxh1StWv48__e4E_NM-Gqiv8g2DpgtJ8');
  });

  test('signed, origin or claimed: kept on the session and shown in its view', async () => {
    const key = crypto.randomUUID();
    const cases: Array<[string, Parameters<typeof create>[0]]> = [
      ['signed', { affiliate: 'acme', key, token: mintAffiliateToken(ACME_KEY, 'acme', now() + 300, key) }],
      ['signed', { affiliate: 'acme', origin: 'https://acme.example', key: 'k2', token: mintAffiliateToken(ACME_KEY, 'acme', now() + 300, 'k2') }],
      ['origin', { affiliate: 'acme', origin: 'https://acme.example' }],
      ['origin', { affiliate: 'acme', origin: 'https://www.acme-partners.example' }],
      ['origin', { origin: 'https://casino.example' }], // no affiliate: the "*" origins are the operator's own
      ['claimed', { affiliate: 'acme' }], // a server or a script, no proof
      ['claimed', { affiliate: 'acme', origin: 'https://casino.example' }], // allowed only through "*"
      ['claimed', { affiliate: 'acme', origin: 'http://localhost:5173' }], // allowed only by DEV
      ['claimed', { affiliate: 'acme', origin: BASE }], // the Worker's own page
      ['claimed', {}],
    ];
    for (const [expected, opts] of cases) {
      const r = await create(opts);
      expect(r.status, JSON.stringify(opts)).toBe(201);
      expect(r.body.attribution, JSON.stringify(opts)).toBe(expected);
      const s = asSession(r);
      expect((await api('GET', `/api/sessions/${s.id}`, { token: s.token, headers: opts.origin ? { Origin: opts.origin } : {} })).body.attribution).toBe(
        expected,
      );
    }
    // A replay without the token is the same creation: still signed.
    const again = await create({ affiliate: 'acme', key });
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body.attribution).toBe('signed');
  });

  test('a bad signed token is refused with its code, and creates nothing', async () => {
    const key = 'attribution-bad-1';
    const t = now();
    const cases: Array<[number, string, Parameters<typeof create>[0]]> = [
      [403, 'bad_affiliate_token', { affiliate: 'acme', key, token: mintAffiliateToken('another key of 32 characters or more', 'acme', t + 300, key) }],
      [403, 'bad_affiliate_token', { affiliate: 'acme', key, token: mintAffiliateToken(ACME_KEY, 'acme', t + 300, 'another key') }],
      [403, 'bad_affiliate_token', { affiliate: 'beta', key, token: mintAffiliateToken(ACME_KEY, 'beta', t + 300, key) }], // beta has no key
      [403, 'bad_affiliate_token', { affiliate: 'acme', key, token: mintAffiliateToken(ACME_KEY, 'acme', t + MAX_AFFILIATE_TOKEN_LIFETIME_S + 120, key) }],
      [403, 'affiliate_token_expired', { affiliate: 'acme', key, token: mintAffiliateToken(ACME_KEY, 'acme', t - 1, key) }],
      [400, 'bad_affiliate_token', { affiliate: 'acme', key, token: 'v1.123.short' }],
      [400, 'bad_affiliate_token', { key, token: mintAffiliateToken(ACME_KEY, 'acme', t + 300, key) }], // no affiliate to attribute to
    ];
    for (const [status, code, opts] of cases) {
      const r = await create(opts);
      expect(r.status, opts.token).toBe(status);
      expect(r.body.error.code, opts.token).toBe(code);
    }
    // None of them used the key: the good token for it still creates a session.
    const good = await create({ affiliate: 'acme', key, token: mintAffiliateToken(ACME_KEY, 'acme', t + 300, key) });
    expect(good.status).toBe(201);
    expect(good.headers.get('Idempotent-Replayed')).toBeNull();
  });

  test('the operator report splits every affiliate and room by attribution', async () => {
    // An affiliate of this test alone (its origin and key set for these creations only), so the
    // figures are exactly its sessions'; the rounds are played without Origin, which any affiliate allows.
    const id = `split-${crypto.randomUUID().slice(0, 8)}`;
    const key = 'split-key-of-this-test-0123456789abcdef';
    const vars = {
      EMBED_ORIGINS: JSON.stringify({ '*': ['https://casino.example'], [id]: ['https://split.example'] }),
      AFFILIATE_KEYS: JSON.stringify({ [id]: key }),
    };
    async function createAs(headers: Record<string, string>, idem = crypto.randomUUID()): Promise<Session> {
      const ctx = createExecutionContext();
      const req = new Request(`${BASE}/api/sessions`, {
        method: 'POST',
        headers: { 'CF-Connecting-IP': CLIENT_IP, 'Content-Type': 'application/json', 'Idempotency-Key': idem, ...headers },
        body: JSON.stringify({ playerKey: PLAYER_KEY, room: 'hall-2', affiliate: id }),
      });
      const res = await worker.fetch(req, { ...env, ...vars }, ctx);
      await waitOnExecutionContext(ctx);
      const body = (await res.json()) as any;
      expect(res.status, JSON.stringify(body)).toBe(201);
      return sessionOf({ status: res.status, body, text: JSON.stringify(body), headers: res.headers });
    }
    const idem = crypto.randomUUID();
    const signed = await createAs({ 'Affiliate-Token': mintAffiliateToken(key, id, now() + 60, idem) }, idem);
    const origin = await createAs({ Origin: 'https://split.example' });
    const claimed = [await createAs({}), await createAs({ Origin: 'https://casino.example' })];
    expect([signed, origin, ...claimed].map((s) => s.created.attribution)).toEqual(['signed', 'origin', 'claimed', 'claimed']);
    const sessions: Array<[Session, number]> = [
      [signed, 3],
      [origin, 2],
      [claimed[0]!, 1],
      [claimed[1]!, 0],
    ];
    const played = new Map<Session, Figures>();
    for (const [s, rounds] of sessions) {
      await startShoe(s);
      let staked = 0;
      let returned = 0;
      for (let i = 0; i < rounds; i++) {
        const r = await play(s, [{ sector: 0, box: 'banker', amount: 1000 }]);
        expect(r.status).toBe(200);
        staked += r.body.receipt.body.staked;
        returned += r.body.receipt.body.returned;
      }
      played.set(s, fig(1, rounds, staked, returned));
      expect(await env.TABLES.getByName(s.id).syncLedger()).toBe(true);
    }
    const rep = (await api('GET', '/api/admin/affiliates', { headers: { Authorization: `Bearer ${env.ADMIN_TOKEN}` } })).body as AffiliateReport;
    const mine = rep.affiliates.find((a) => a.affiliate === id)!;
    const total = (list: Figures[]) =>
      list.reduce((a, f) => fig(a.sessions + f.sessions, a.rounds + f.rounds, a.turnover + f.turnover, a.returned + f.returned), fig(0, 0, 0, 0));
    const attribution = { signed: played.get(signed)!, origin: played.get(origin)!, claimed: total(claimed.map((s) => played.get(s)!)) };
    const whole = { ...total([...played.values()]), attribution };
    expect(mine).toEqual({ affiliate: id, ...whole, rooms: [{ room: 'hall-2', ...whole }] });
    expect(whole.attribution.claimed.sessions).toBe(2);
    // The report's total is split the same way, and its parts add up.
    for (const k of ['sessions', 'rounds', 'turnover', 'returned', 'houseResult'] as const) {
      expect(rep.total.attribution.signed[k] + rep.total.attribution.origin[k] + rep.total.attribution.claimed[k]).toBe(rep.total[k]);
    }
    await runInDurableObject(env.LEDGER.getByName(LEDGER_NAME), (_l, state) => {
      expect(state.storage.sql.exec(`SELECT attribution FROM sessions WHERE session_id = ?`, signed.id).one().attribution).toBe('signed');
    });
  });

  test('figures recorded before attribution existed are carried over as claimed', async () => {
    // A ledger of its own, rebuilt at the first schema version with figures in the old `totals`.
    const stub = env.LEDGER.getByName('ledger-before-attribution');
    const rep = await runInDurableObject(stub, async (ledger: Ledger, state) => {
      const sql = state.storage.sql;
      state.storage.transactionSync(() => {
        for (const t of ['attributed_totals', 'sessions', 'meta']) sql.exec(`DROP TABLE IF EXISTS ${t}`);
        migrate(sql, LEDGER_MIGRATIONS.slice(0, 1));
        sql.exec(
          `INSERT INTO sessions (session_id, affiliate, room, rounds, staked, returned, updated_at) VALUES ('old', 'acme', 'vip', 2, 5000, 4000, 'then')`,
        );
        sql.exec(`INSERT INTO totals (affiliate, room, sessions, rounds, staked, returned) VALUES ('acme', 'vip', 1, 2, 5000, 4000)`);
        migrate(sql, LEDGER_MIGRATIONS);
      });
      expect(sql.exec(`SELECT attribution FROM sessions WHERE session_id = 'old'`).one().attribution).toBe('claimed');
      // The old session goes on: its later totals add to the claimed figures.
      expect(await ledger.record({ sessionId: 'old', affiliate: 'acme', attribution: 'signed', room: 'vip', rounds: 3, staked: 6000, returned: 4000 })).toEqual(
        { applied: true },
      );
      return ledger.report();
    });
    const old = fig(1, 3, 6000, 4000);
    expect(rep.affiliates).toEqual([
      {
        affiliate: 'acme',
        ...old,
        attribution: { signed: fig(0, 0, 0, 0), origin: fig(0, 0, 0, 0), claimed: old },
        rooms: [{ room: 'vip', ...old, attribution: { signed: fig(0, 0, 0, 0), origin: fig(0, 0, 0, 0), claimed: old } }],
      },
    ]);
  });
});

const fig = (sessions: number, rounds: number, staked: number, returned: number): Figures => ({
  sessions,
  rounds,
  turnover: staked,
  returned,
  houseResult: staked - returned,
});

describe('Idempotency-Key scope: one key names one request per table session', () => {
  test('a key used for a start, sent again for a round on the same session: 409 idempotency_conflict, nothing played', async () => {
    const s = await createSession();
    const key = crypto.randomUUID();
    const start = await api('POST', `/api/sessions/${s.id}/shoe/start`, { token: s.token, key, body: await startBody(s, 'scope', 30) });
    expect(start.status).toBe(200);
    const round = await api('POST', `/api/sessions/${s.id}/rounds`, {
      token: s.token,
      key,
      body: await betBody(s, [{ sector: 0, box: 'player', amount: 100 }]),
    });
    expect(round.status).toBe(409);
    expect(round.body.error.code).toBe('idempotency_conflict');
    const end = await api('POST', `/api/sessions/${s.id}/shoe/end`, { token: s.token, key, body: await endBody(s) });
    expect(end.status).toBe(409);
    expect((await api('GET', `/api/sessions/${s.id}`, { token: s.token })).body.shoe.rounds).toBe(0);
  });

  test('the same key on another session, or for a creation, is another scope: no conflict', async () => {
    const key = crypto.randomUUID();
    const a = asSession(await api('POST', '/api/sessions', { key, body: { playerKey: PLAYER_KEY, room: 'hall-1' } }));
    const b = await createSession();
    await startShoe(a);
    await startShoe(b);
    expect((await play(a, [{ sector: 0, box: 'player', amount: 100 }], key)).status).toBe(200);
    expect((await play(b, [{ sector: 0, box: 'player', amount: 100 }], key)).status).toBe(200);
  });
});
