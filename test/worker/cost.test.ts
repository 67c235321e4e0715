/**
 * What a settled round costs in storage (SQLite-backed Durable Objects are billed per row
 * written, indexes included), and that writing less keeps every guarantee: idempotent replays of
 * any recent round answer exactly as the first time, also after the table's instance is gone, and
 * tables written by schema version 2 carry on where they were.
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, test } from 'vitest';
import { DEFAULT_LEDGER_DELAY_MS, type Env, ledgerDelayMs } from '../../worker/env.ts';
import { MIGRATIONS, migrate } from '../../worker/schema.ts';
import { TableStore } from '../../worker/store.ts';
import { IDEMPOTENCY_TTL_MS } from '../../worker/table.ts';
import { type Jwks, verifyTranscript } from '../../shared/index.ts';
import { api, play, randomBets, readySession, type Reply, type Session, state } from './helpers.ts';

/**
 * Rows the table wrote for its players' requests: all of them but the ledger's acknowledgments,
 * which the alarm writes whenever it runs (possibly while a round is on its way).
 */
async function rowsWritten(s: Session): Promise<number> {
  const stats = await env.TABLES.getByName(s.id).stats();
  return stats.rowsWritten - (stats.changes.ledger?.rowsWritten ?? 0);
}

/** Plays one random legal round and returns its reply and the rows it wrote, as counted under "round". */
async function measuredRound(s: Session, key?: string): Promise<{ reply: Reply; rows: number }> {
  const balance = (await state(s)).balance as number;
  const before = (await env.TABLES.getByName(s.id).stats()).changes.round ?? { count: 0, rowsWritten: 0 };
  const reply = await play(s, randomBets(s.limits, balance), key);
  expect(reply.status).toBe(200);
  const after = (await env.TABLES.getByName(s.id).stats()).changes.round!;
  expect(after.count).toBe(before.count + 1);
  return { reply, rows: after.rowsWritten - before.rowsWritten };
}

describe('rows written', () => {
  test('rows written per settled round ≤ 2: the receipt and the session row', async () => {
    for (const mode of ['shoe', 'reshuffle']) {
      const s = await readySession({ room: 'hall-1', mode });
      for (let i = 0; i < 5; i++) {
        const { reply, rows } = await measuredRound(s);
        expect(reply.body.nextShoe).toBeUndefined();
        expect(rows).toBeLessThanOrEqual(2);
        expect(rows).toBeGreaterThan(0);
      }
    }
  });

  test('a replayed round writes nothing', async () => {
    const s = await readySession();
    const key = crypto.randomUUID();
    const bets = randomBets(s.limits, (await state(s)).balance);
    expect((await play(s, bets, key)).status).toBe(200);
    const before = await rowsWritten(s);
    const again = await play(s, bets, key);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect((await rowsWritten(s)) - before).toBe(0);
  });
});

describe('idempotent rounds without a stored answer', () => {
  test('any recent round replays its first answer byte for byte, the one that ended the shoe too, also from a fresh instance', async () => {
    const s = await readySession({ room: 'hall-1' });
    const first: Array<{ key: string; bets: unknown; reply: Reply }> = [];
    let ending: (typeof first)[number] | null = null;
    for (let i = 0; i < 200 && ending === null; i++) {
      const key = crypto.randomUUID();
      const bets = randomBets(s.limits, (await state(s)).balance);
      const reply = await play(s, bets as never, key);
      expect(reply.status).toBe(200);
      first.push({ key, bets, reply });
      if (reply.body.nextShoe) ending = first.at(-1)!;
    }
    expect(ending).not.toBeNull();
    expect(ending!.reply.body.reveal.body.reason).toBe('cut-card');

    // Replays of an early round, of the round that ended the shoe, and of the one before it.
    for (const r of [first[0]!, ending!, first.at(-2)!]) {
      const again = await play(s, r.bets as never, r.key);
      expect(again.headers.get('Idempotent-Replayed')).toBe('true');
      expect(again.text).toBe(r.reply.text);
      // The same key with other bets is still a conflict.
      const other = await play(s, [{ sector: 4, box: 'tie', amount: s.limits.chips[0]! }], r.key);
      expect(other.status).toBe(409);
      expect(other.body.error.code).toBe('idempotency_conflict');
    }
    const rounds = (await state(s)).shoe;
    expect(rounds).toMatchObject({ number: 2, rounds: 0, status: 'awaiting-start' });

    // A new instance (after a restart or an eviction) reads the keys back from the receipts.
    await runInDurableObject(env.TABLES.getByName(s.id), (_t, storage) => {
      const store = new TableStore(storage.storage.sql);
      const since = new Date(Date.now() - IDEMPOTENCY_TTL_MS).toISOString();
      const found = store.answer(ending!.key, since);
      expect(found && 'receipt' in found ? found.receipt : null).toEqual(ending!.reply.body.receipt);
      // A day later the key is forgotten.
      expect(store.answer(first[0]!.key, new Date(Date.now() + 60_000).toISOString())).toBeNull();
      expect(store.answer('never-used', since)).toBeNull();
    });
  });
});

describe('schema version 4', () => {
  test('a table written by version 2 keeps its receipts, its shoe position and its stored answers', async () => {
    await runInDurableObject(env.TABLES.getByName('v2-table-in-play'), (_t, state) => {
      const sql = state.storage.sql;
      state.storage.transactionSync(() => {
        migrate(sql, MIGRATIONS.slice(0, 2));
        sql.exec(`INSERT INTO session (id, session_id, room, affiliate, balance, current_shoe, head, created_at, rounds_total) VALUES (1, 's', 'hall-1', NULL, 1000, 2, 'h', 'now', 5)`);
        sql.exec(`INSERT INTO shoes (number, params, server_seed, status, commitment, rounds, next_position, reveal) VALUES (1, '{}', 'x', 'ended', '{}', 3, 20, '{}')`);
        sql.exec(`INSERT INTO shoes (number, params, server_seed, status, commitment, start, rounds, next_position) VALUES (2, '{}', 'y', 'in-play', '{}', '{}', 2, 13)`);
        for (const [shoe, round] of [[1, 1], [1, 2], [1, 3], [2, 1], [2, 2]]) {
          sql.exec(`INSERT INTO receipts (shoe, round, hash, record) VALUES (?, ?, ?, ?)`, shoe, round, `h${shoe}.${round}`, JSON.stringify({ body: { shoe, round } }));
        }
        sql.exec(`INSERT INTO idempotency (key, request_hash, status, answer, created_at) VALUES ('k', 'rh', 200, '{"a":1}', ?)`, new Date().toISOString());
        migrate(sql);
      });
      expect(sql.exec(`SELECT shoe_rounds, next_position FROM session`).one()).toEqual({ shoe_rounds: 2, next_position: 13 });
      const store = new TableStore(sql);
      expect(store.shoe(2)).toMatchObject({ status: 'in-play', rounds: 2, nextPosition: 13 });
      expect(store.shoe(1)).toMatchObject({ status: 'ended', rounds: 3, nextPosition: 20 });
      expect(store.receipts(1).map((r) => r.body.round)).toEqual([1, 2, 3]);
      expect(store.lastReceipt()!.body).toEqual({ shoe: 2, round: 2 });
      const since = new Date(Date.now() - IDEMPOTENCY_TTL_MS).toISOString();
      expect(store.answer('k', since)).toEqual({ requestHash: 'rh', status: 200, body: { a: 1 } });
      // One row per receipt from now on: no separate primary-key index.
      expect(sql.exec(`SELECT sql FROM sqlite_master WHERE name = 'receipts'`).one().sql).toMatch(/WITHOUT ROWID/);
    });
  });
});

describe('schema version 4, end to end', () => {
  test('a shoe in play under version 3 goes on after the migration: next round, next card, and its transcript verifies', async () => {
    const s = await readySession({ room: 'hall-1' });
    const before: Reply[] = [];
    for (let i = 0; i < 3; i++) before.push(await play(s, randomBets(s.limits, (await state(s)).balance)));
    // Back to the version-3 layout (versions 2 and 3 store rounds alike), as an older deploy left it: the position in the shoes row,
    // receipts in a rowid table without the key columns.
    await runInDurableObject(env.TABLES.getByName(s.id), (_t, storage) => {
      const sql = storage.storage.sql;
      storage.storage.transactionSync(() => {
        sql.exec(`UPDATE shoes SET rounds = (SELECT shoe_rounds FROM session), next_position = (SELECT next_position FROM session) WHERE status = 'in-play'`);
        sql.exec(`CREATE TABLE receipts_v2 (shoe INTEGER NOT NULL, round INTEGER NOT NULL, hash TEXT NOT NULL, record TEXT NOT NULL, PRIMARY KEY (shoe, round))`);
        sql.exec(`INSERT INTO receipts_v2 SELECT shoe, round, hash, record FROM receipts`);
        sql.exec(`DROP TABLE receipts`);
        sql.exec(`ALTER TABLE receipts_v2 RENAME TO receipts`);
        sql.exec(`ALTER TABLE session DROP COLUMN shoe_rounds`);
        sql.exec(`ALTER TABLE session DROP COLUMN next_position`);
        sql.exec(`UPDATE meta SET value = '3' WHERE key = 'schema_version'`);
        migrate(sql);
      });
    });
    const next = await play(s, randomBets(s.limits, (await state(s)).balance));
    expect(next.status).toBe(200);
    const last = before.at(-1)!.body.receipt;
    expect(next.body.receipt.body).toMatchObject({ round: 4, prev: last.hash, balanceBefore: last.body.balanceAfter });
    expect(next.body.receipt.body.cards[0].position).toBe(Math.max(...last.body.cards.map((c: { position: number }) => c.position)) + 1);
    expect((await api('POST', `/api/sessions/${s.id}/shoe/end`, { token: s.token })).status).toBe(200);
    const jwks = (await api('GET', '/.well-known/jwks.json')).body as Jwks;
    const t = await api('GET', `/api/sessions/${s.id}/shoes/1/transcript`, { token: s.token });
    const report = await verifyTranscript(t.body, jwks);
    expect(report.ok).toBe(true);
    expect(report.rounds).toHaveLength(4);
  });
});

describe('the ledger push delay', () => {
  test('LEDGER_DELAY_MS sets it; unset or malformed, the default', () => {
    const withVar = (value?: string) => ledgerDelayMs({ LEDGER_DELAY_MS: value } as Env);
    expect(withVar(undefined)).toBe(DEFAULT_LEDGER_DELAY_MS);
    expect(withVar('30000')).toBe(30_000);
    for (const bad of ['', 'soon', '-5', '0']) expect(withVar(bad)).toBe(DEFAULT_LEDGER_DELAY_MS);
  });
});
