/**
 * What a round costs in storage (SQLite-backed Durable Objects are billed per row written,
 * indexes included): each of its two phases writes its record and the session row. Writing
 * little keeps every guarantee: idempotent replays of either phase of any recent round answer
 * exactly as the first time, also after the table's instance is gone; tables written before
 * pb-fair-2 stay readable (and verifiable) and refuse changes.
 */
import { evictDurableObject, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, test } from 'vitest';
import vectors from '../vectors/fairness.json';
import { DEFAULT_LEDGER_DELAY_MS, type Env, ledgerDelayMs, voidAfterSeconds } from '../../worker/env.ts';
import { MIGRATIONS, migrate, SCHEMA_VERSION } from '../../worker/schema.ts';
import { TableStore } from '../../worker/store.ts';
import { IDEMPOTENCY_TTL_MS } from '../../worker/table.ts';
import { newSessionId, newToken, tokenHash } from '../../worker/tokens.ts';
import { type Jwks, type Transcript, verifyTranscript } from '../../shared/index.ts';
import { api, bet, endBody, randomBets, readySession, type Reply, reveal, type Session, state } from './helpers.ts';

const table = (s: Session) => env.TABLES.getByName(s.id);

/** Rows the table wrote for its players' requests: all of them but the ledger's acknowledgments (the alarm writes those whenever it runs). */
async function rowsWritten(s: Session): Promise<number> {
  const stats = await table(s).stats();
  return stats.rowsWritten - (stats.changes.ledger?.rowsWritten ?? 0);
}

/** Plays one random legal round, both phases, and returns the replies and the rows each phase wrote. */
async function measuredRound(s: Session, key?: string) {
  const balance = (await state(s)).balance as number;
  const kinds = async () => (await table(s).stats()).changes;
  const before = await kinds();
  const accepted = await bet(s, randomBets(s.limits, balance), key ? { key: `${key}/bet` } : {});
  expect(accepted.status).toBe(200);
  const middle = await kinds();
  const settled = await reveal(s, accepted.body.acceptance, key ? `${key}/secret` : undefined);
  expect(settled.status).toBe(200);
  const after = await kinds();
  const grew = (a: typeof before, b: typeof before, kind: 'bet' | 'secret') => {
    expect(b[kind]!.count).toBe((a[kind]?.count ?? 0) + 1);
    return b[kind]!.rowsWritten - (a[kind]?.rowsWritten ?? 0);
  };
  return { accepted, settled, betRows: grew(before, middle, 'bet'), secretRows: settled.body.nextShoe ? null : grew(middle, after, 'secret') };
}

describe('rows written', () => {
  test('rows written per phase ≤ 2 (the record and the session row): 4 per settled round', async () => {
    for (const mode of ['shoe', 'reshuffle']) {
      const s = await readySession({ room: 'hall-1', mode });
      for (let i = 0; i < 5; i++) {
        const { settled, betRows, secretRows } = await measuredRound(s);
        expect(settled.body.nextShoe).toBeUndefined();
        expect(betRows).toBe(2);
        expect(secretRows).toBe(2);
      }
    }
  });

  test('a replayed phase writes nothing', async () => {
    const s = await readySession();
    const key = crypto.randomUUID();
    const bets = randomBets(s.limits, (await state(s)).balance);
    const head = (await state(s)).head;
    const secret = 'ef'.repeat(32);
    const accepted = await bet(s, bets, { key: `${key}/bet`, last: head, round: 1, secret });
    expect((await reveal(s, accepted.body.acceptance, `${key}/secret`)).status).toBe(200);
    const before = await rowsWritten(s);
    const again = await bet(s, bets, { key: `${key}/bet`, last: head, round: 1, secret });
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect((await reveal(s, accepted.body.acceptance, `${key}/secret`)).headers.get('Idempotent-Replayed')).toBe('true');
    expect((await rowsWritten(s)) - before).toBe(0);
  });
});

describe('idempotent phases without a stored answer', () => {
  test('any recent phase replays its first answer byte for byte, the one that ended the shoe too, also from a fresh instance', async () => {
    const s = await readySession({ room: 'hall-1' });
    const first: Array<{ key: string; accepted: Reply; settled: Reply }> = [];
    for (let i = 0; i < 200; i++) {
      const key = crypto.randomUUID();
      const { accepted, settled } = await measuredRound(s, key);
      first.push({ key, accepted, settled });
      if (settled.body.nextShoe) break;
    }
    const ending = first.at(-1)!;
    expect(ending.settled.body.reveal.body.reason).toBe('cut-card');

    // Replays of an early round, of the round that ended the shoe, and of the one before it.
    for (const r of [first[0]!, ending, first.at(-2)!]) {
      const again = await api('POST', `/api/sessions/${s.id}/rounds/${r.accepted.body.acceptance.body.round}/secret`, {
        token: s.token,
        key: `${r.key}/secret`,
        body: { request: r.settled.body.receipt.body.request },
      });
      expect(again.headers.get('Idempotent-Replayed')).toBe('true');
      expect(again.text).toBe(r.settled.text);
      const betAgain = await api('POST', `/api/sessions/${s.id}/rounds`, {
        token: s.token,
        key: `${r.key}/bet`,
        body: { request: r.accepted.body.acceptance.body.request },
      });
      expect(betAgain.text).toBe(r.accepted.text);
      // The same key with another request is still a conflict.
      const other = await api('POST', `/api/sessions/${s.id}/shoe/end`, { token: s.token, key: `${r.key}/bet`, body: await endBody(s) });
      expect(other.status).toBe(409);
      expect(other.body.error.code).toBe('idempotency_conflict');
    }
    expect((await state(s)).shoe).toMatchObject({ number: 2, rounds: 0, status: 'awaiting-start' });

    // A new instance (after a restart or an eviction) reads the keys back from the records.
    await runInDurableObject(table(s) as any, (_t, storage) => {
      const store = new TableStore(storage.storage.sql);
      const since = new Date(Date.now() - IDEMPOTENCY_TTL_MS).toISOString();
      expect(store.answered(`${ending.key}/secret`, since)!.record).toEqual(ending.settled.body.receipt);
      expect(store.answered(`${ending.key}/bet`, since)!.record).toEqual(ending.accepted.body.acceptance);
      // A day later the key is forgotten.
      expect(store.answered(`${first[0]!.key}/bet`, new Date(Date.now() + 60_000).toISOString())).toBeNull();
      expect(store.answered('never-used', since)).toBeNull();
    });
  });
});

describe('schema version 5: pb-fair-1 sessions stay readable', () => {
  test('a pb-fair-1 table written by version 4: state, receipts and its transcript as they were (verifiable); every change 409 protocol_retired', async () => {
    const transcript = vectors.transcripts[0]!.transcript as unknown as Transcript;
    const sessionId = newSessionId((n) => crypto.getRandomValues(new Uint8Array(n)));
    const token = newToken(sessionId, (n) => crypto.getRandomValues(new Uint8Array(n)));
    await runInDurableObject(env.TABLES.getByName(sessionId) as any, (_t, st) => {
      const sql = st.storage.sql;
      st.storage.transactionSync(() => {
        migrate(sql, MIGRATIONS.slice(0, 4));
        const last = transcript.receipts.at(-1)!;
        sql.exec(
          `INSERT INTO session (id, session_id, room, affiliate, balance, current_shoe, head, created_at) VALUES (1, ?, 'hall-1', NULL, ?, 1, ?, 'then')`,
          sessionId,
          last.body.balanceAfter,
          transcript.reveal!.hash,
        );
        sql.exec(`INSERT INTO tokens (hash, issued_at) VALUES (?, 'then')`, tokenHash(token));
        sql.exec(
          `INSERT INTO shoes (number, params, server_seed, status, commitment, start, rounds, reveal) VALUES (1, ?, ?, 'ended', ?, ?, ?, ?)`,
          JSON.stringify(transcript.commitment.body.params),
          transcript.reveal!.body.serverSeed,
          JSON.stringify(transcript.commitment),
          JSON.stringify(transcript.start),
          transcript.receipts.length,
          JSON.stringify(transcript.reveal),
        );
        for (const r of transcript.receipts)
          sql.exec(`INSERT INTO receipts (shoe, round, hash, record) VALUES (1, ?, ?, ?)`, r.body.round, r.hash, JSON.stringify(r));
      });
    });
    // The table wakes as a new instance, as it would after a deploy: it migrates first.
    await evictDurableObject(env.TABLES.getByName(sessionId));
    const s = { id: sessionId, token };
    const view = await api('GET', `/api/sessions/${s.id}`, { token });
    expect(view.status).toBe(200);
    expect(view.body.protocol).toBeUndefined();
    expect(view.body.lastReceipt).toEqual(transcript.receipts.at(-1));
    await runInDurableObject(env.TABLES.getByName(sessionId) as any, (_t, st) => {
      expect(st.storage.sql.exec(`SELECT value FROM meta WHERE key = 'schema_version'`).one().value).toBe(String(SCHEMA_VERSION));
    });
    const t = await api('GET', `/api/sessions/${s.id}/shoes/1/transcript`, { token });
    expect(t.body).toEqual(transcript);
    const jwks: Jwks = { keys: [vectors.key.publicJwk] };
    expect((await verifyTranscript(t.body, jwks)).ok).toBe(true);
    expect((await api('GET', `/api/sessions/${s.id}/receipts?shoe=1`, { token })).body.receipts).toEqual(transcript.receipts);
    const request = { body: {}, signature: 'x' };
    for (const path of ['shoe/start', 'rounds', 'rounds/1/secret', 'shoe/end']) {
      const r = await api('POST', `/api/sessions/${s.id}/${path}`, { token, body: { request } });
      expect(r.status, path).toBe(409);
      expect(r.body.error.code).toBe('protocol_retired');
    }
    expect((await api('GET', `/api/sessions/${s.id}/transcript`, { token })).body.error.code).toBe('protocol_retired');
  });
});

describe('settings', () => {
  test('LEDGER_DELAY_MS sets the ledger push delay; unset or malformed, the default', () => {
    const withVar = (value?: string) => ledgerDelayMs({ LEDGER_DELAY_MS: value } as Env);
    expect(withVar(undefined)).toBe(DEFAULT_LEDGER_DELAY_MS);
    expect(withVar('30000')).toBe(30_000);
    for (const bad of ['', 'soon', '-5', '0']) expect(withVar(bad)).toBe(DEFAULT_LEDGER_DELAY_MS);
  });

  test('VOID_AFTER_SECONDS: whole seconds within 1–86400; unset or malformed, 600', () => {
    const withVar = (value?: string) => voidAfterSeconds({ VOID_AFTER_SECONDS: value } as Env);
    expect(withVar(undefined)).toBe(600);
    expect(withVar('30')).toBe(30);
    expect(withVar('2.5')).toBe(2);
    expect(withVar('1e9')).toBe(86_400);
    for (const bad of ['', 'soon', '-5', '0']) expect(withVar(bad)).toBe(600);
  });
});
