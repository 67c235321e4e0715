/**
 * What a round costs in storage (SQLite-backed Durable Objects are billed per row written,
 * indexes included): each of its two phases writes one row, its record, which also states the
 * session after it (schema version 6). Writing little keeps every guarantee: idempotent replays
 * of either phase of any recent round answer exactly as the first time, also after the table's
 * instance is gone; tables written by version 5 wake migrated, as they were; tables written
 * before pb-fair-2 stay readable (and verifiable) and refuse changes.
 */
import { evictDurableObject, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, test } from 'vitest';
import vectors from '../vectors/fairness.json';
import { DEFAULT_LEDGER_DELAY_MS, type Env, ledgerDelayMs, voidAfterSeconds } from '../../worker/config/env.ts';
import { MIGRATIONS, migrate, SCHEMA_VERSION } from '../../worker/session/schema.ts';
import { TableStore } from '../../worker/session/store.ts';
import { IDEMPOTENCY_TTL_MS } from '../../worker/session/replay.ts';
import { newSessionId, newToken, tokenHash } from '../../worker/http/tokens.ts';
import { type Jwks, type Receipt, type Signed, type Fair1Transcript, verifyFileText, verifyFair1Transcript } from '../../shared/index.ts';
import {
  api,
  bet,
  createSession,
  endBody,
  endShoe,
  insideTable,
  play,
  randomBets,
  readySession,
  type Reply,
  reveal,
  type Session,
  startShoe,
  state,
  tableFile,
} from './helpers.ts';

const table = (s: Session) => env.TABLES.getByName(s.id);

/** Rows the table wrote (the ledger's acknowledgments are no longer written: table.ts). */
async function rowsWritten(s: Session): Promise<number> {
  return (await table(s).stats()).rowsWritten;
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
  test('each phase writes one row (its record): 2 per settled round', async () => {
    for (const mode of ['shoe', 'reshuffle']) {
      const s = await readySession({ room: 'hall-1', mode });
      for (let i = 0; i < 5; i++) {
        const { settled, betRows, secretRows } = await measuredRound(s);
        expect(settled.body.nextShoe).toBeUndefined();
        expect(betRows).toBe(1);
        expect(secretRows).toBe(1);
      }
    }
  });

  test('rows written per kind of change (the figures of DEPLOY.md "What a round costs")', async () => {
    const s = await createSession({ room: 'hall-1', mode: 'shoe', decks: 1 });
    await startShoe(s);
    const banker = [{ sector: 0, box: 'banker' as const, amount: 1000 }];
    for (;;) {
      const r = await play(s, banker);
      expect(r.status).toBe(200);
      if (r.body.nextShoe) break;
    }
    await startShoe(s);
    await play(s, banker);
    let n = 0;
    const transfer = (kind: 'credit' | 'debit', amount: number) =>
      table(s).sharedTransfer({ id: (++n).toString(16).padStart(64, 'c'), table: 'hall-1/t', shoe: 1, round: n, kind, amount });
    expect(await transfer('credit', 500)).toMatchObject({ ok: true });
    expect(await transfer('debit', 10_000_000)).toMatchObject({ ok: false, code: 'insufficient_funds' });
    expect((await endShoe(s)).status).toBe(200);
    // A round voided for want of its secret, then the shoe revealed once idle after the void.
    await startShoe(s);
    expect((await bet(s, banker)).status).toBe(200);
    const vas = (await state(s)).shoe.params.voidAfterSeconds * 1000;
    for (const ms of [vas + 1000, 2 * vas + 2000])
      await insideTable(s.id, async (t) => {
        t.clock = () => Date.now() + ms;
        await t.alarm();
      });
    expect((await state(s)).shoe.number).toBe(4);
    const { changes } = await table(s).stats();
    const rows = Object.fromEntries(Object.entries(changes).map(([kind, c]) => [kind, c.rowsWritten / c.count]));
    // Before version 6: create 5, start 3, bet 2, secret 2, secret-ending-shoe 6, transfer 4, refused 2, end 5, void 2, idle-reveal 5.
    expect(rows).toEqual({
      create: 4, // the session row, its token, the shoe (its seed), the commitment
      start: 2, // the start record, the shoe row (started)
      bet: 1,
      secret: 1,
      'secret-ending-shoe': 5, // the receipt, the reveal, the shoe row (ended), the next shoe and its commitment
      transfer: 2, // its outcome, its record
      'transfer-refused': 1, // its outcome
      end: 4,
      void: 1,
      'idle-reveal': 4,
    });
  });

  test('a record that does not follow the newest one is never appended: the transaction aborts, nothing changes', async () => {
    const s = await readySession();
    expect((await play(s, [{ sector: 0, box: 'banker', amount: 1000 }])).status).toBe(200);
    const [view, file] = [await state(s), await tableFile(s)];
    await runInDurableObject(table(s), (_t, st) => {
      const store = new TableStore(st.storage.sql);
      const [session, newest] = [store.session()!, store.lastRecord(null)!];
      // The newest record again: its prev is the record before it, not the head.
      expect(() => st.storage.transactionSync(() => store.appendRecord(newest, { ...session, balance: 1 }))).toThrow(/does not follow the newest record/);
    });
    expect(await state(s)).toEqual(view);
    expect(await tableFile(s)).toBe(file);
  });

  test('rows read per settled round stay a handful, however long the history (no query scans the records)', async () => {
    const s = await readySession({ room: 'hall-1' });
    const readsPerRound: number[] = [];
    for (let i = 0; i < 25; i++) {
      const before = (await table(s).stats()).rowsRead;
      expect((await play(s, [{ sector: 0, box: 'banker', amount: 1000 }])).status).toBe(200);
      readsPerRound.push((await table(s).stats()).rowsRead - before);
    }
    // The minimum of a few rounds: a ledger push (the alarm) may fall within any one of them.
    const [early, late] = [Math.min(...readsPerRound.slice(0, 5)), Math.min(...readsPerRound.slice(-5))];
    expect(early).toBeLessThanOrEqual(30);
    expect(late).toBeLessThanOrEqual(early);
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
    await runInDurableObject(table(s), (_t, storage) => {
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

describe('schema version 6: a pb-fair-2 table written by version 5', () => {
  /**
   * Rewrites a live table as version 5 wrote it: the same records (without the state columns), its
   * state in the session row, its transfers in a rowid table; then the table wakes as a new
   * instance, as after a deploy, and migrates.
   */
  async function asVersion5(s: Session): Promise<void> {
    await runInDurableObject(table(s), (_t, st) => {
      const sql = st.storage.sql;
      const store = new TableStore(sql);
      const session = store.session()!;
      const all = (query: string) => sql.exec(query).toArray();
      const [records, shoes, tokens, transfers] = [
        all(`SELECT seq, shoe, type, round, hash, record, idempotency_key, request_hash, answered_at FROM records ORDER BY seq`),
        all(`SELECT * FROM shoes`),
        all(`SELECT * FROM tokens`),
        all(`SELECT * FROM shared_transfers ORDER BY n`),
      ];
      const insert = (table: string, row: Record<string, SqlStorageValue>) =>
        sql.exec(
          `INSERT INTO ${table} (${Object.keys(row).join(', ')}) VALUES (${Object.keys(row)
            .map(() => '?')
            .join(', ')})`,
          ...Object.values(row),
        );
      st.storage.transactionSync(() => {
        for (const t of ['meta', 'session', 'tokens', 'shoes', 'receipts', 'idempotency', 'records', 'shared_transfers']) sql.exec(`DROP TABLE ${t}`);
        migrate(sql, MIGRATIONS.slice(0, 5));
        expect(SCHEMA_VERSION).toBe(7);
        insert('session', {
          id: 1,
          session_id: session.sessionId,
          room: session.room,
          affiliate: session.affiliate,
          attribution: session.attribution,
          protocol: 'pb-fair-2',
          player_key: session.playerKey,
          balance: session.balance,
          current_shoe: session.currentShoe,
          head: session.head,
          shoe_rounds: session.shoeRounds,
          pending_round: session.pendingRound,
          due_at: session.dueAt,
          rounds_total: session.rounds,
          staked_total: session.staked,
          returned_total: session.returned,
          ledger_rounds: session.ledgerRounds,
          created_at: session.createdAt,
        });
        for (const row of tokens) insert('tokens', row);
        for (const row of shoes) insert('shoes', row);
        for (const row of records) insert('records', row);
        sql.exec(`CREATE TABLE shared_transfers (
          id TEXT PRIMARY KEY, table_id TEXT NOT NULL, round INTEGER NOT NULL, kind TEXT NOT NULL,
          amount INTEGER NOT NULL, applied INTEGER NOT NULL, balance_after INTEGER NOT NULL, at TEXT NOT NULL)`);
        for (const { n: _, ...row } of transfers) insert('shared_transfers', row);
      });
    });
    await evictDurableObject(table(s));
  }

  test('it wakes migrated: the same state, answers, transfers and transcript; the pending round settles in one row', async () => {
    const s = await createSession({ room: 'hall-1', mode: 'shoe', decks: 1 });
    await startShoe(s);
    const banker = [{ sector: 0, box: 'banker' as const, amount: 1000 }];
    for (let r = await play(s, banker); !r.body.nextShoe; r = await play(s, banker)) expect(r.status).toBe(200);
    await startShoe(s);
    const key = crypto.randomUUID();
    const first = await play(s, banker, key);
    const transfer = (n: number, kind: 'credit' | 'debit', amount: number) =>
      table(s).sharedTransfer({ id: n.toString(16).padStart(64, 'b'), table: 'hall-1/t', shoe: 1, round: n, kind, amount });
    await transfer(1, 'credit', 700);
    await transfer(2, 'debit', 10_000_000);
    await transfer(3, 'debit', 200);
    const pending = await bet(s, banker, { key: `${key}/pending` });
    expect(pending.status).toBe(200);
    const view = await state(s);
    const file = await tableFile(s);
    const books = await table(s).sharedTransfers();
    expect(books.map((t) => t.applied)).toEqual([true, false, true]);

    await asVersion5(s);

    expect(await state(s)).toEqual(view);
    expect(await tableFile(s)).toBe(file);
    expect(await table(s).sharedTransfers()).toEqual(books);
    await runInDurableObject(table(s), (_t, st) => {
      expect(st.storage.sql.exec(`SELECT value FROM meta WHERE key = 'schema_version'`).one().value).toBe('7');
      // The ledger's totals are still those of the receipts.
      const receipts = (JSON.parse(file).records as Signed[]).filter((r) => r.body.type === 'receipt') as Signed<Receipt>[];
      const sum = (f: (r: Receipt) => number) => receipts.reduce((total, r) => total + f(r.body), 0);
      expect(new TableStore(st.storage.sql).session()).toMatchObject({
        rounds: receipts.length,
        staked: sum((r) => r.staked),
        returned: sum((r) => r.returned),
        pendingRound: 2,
        currentShoe: 2,
        head: pending.body.acceptance.hash,
      });
    });
    // Answers given by version 5 replay byte for byte.
    const again = await api('POST', `/api/sessions/${s.id}/rounds/1/secret`, {
      token: s.token,
      key: `${key}/secret`,
      body: { request: first.body.receipt.body.request },
    });
    expect(again.text).toBe(first.text);
    const betAgain = await api('POST', `/api/sessions/${s.id}/rounds`, {
      token: s.token,
      key: `${key}/pending`,
      body: { request: pending.body.acceptance.body.request },
    });
    expect(betAgain.text).toBe(pending.text);
    // The round accepted by version 5 settles (one row), the session goes on, the whole file verifies.
    const rows = await rowsWritten(s);
    const settled = await reveal(s, pending.body.acceptance);
    expect(settled.status).toBe(200);
    expect(settled.body.receipt.body.balanceBefore).toBe(view.balance + 1000); // before its stake
    expect((await rowsWritten(s)) - rows).toBe(1);
    // Transfers seen by version 5 stay done once.
    expect(await transfer(3, 'debit', 200)).toMatchObject({ ok: true, replayed: true });
    expect(await transfer(2, 'debit', 10_000_000)).toMatchObject({ ok: false, replayed: true });
    await transfer(4, 'credit', 100);
    expect((await table(s).sharedTransfers()).map((t) => t.id.slice(-1))).toEqual(['1', '2', '3', '4']);
    expect((await play(s, banker)).status).toBe(200);
    expect((await endShoe(s)).status).toBe(200);
    const jwks: Jwks = (await api('GET', '/.well-known/jwks.json')).body;
    expect((await verifyFileText(await tableFile(s), jwks, { playerKey: s.created.playerKey })).code).toBe('ok');
  });
});

describe('schema version 5: pb-fair-1 sessions stay readable', () => {
  test('a pb-fair-1 table written by version 4: state, receipts and its transcript as they were (verifiable); every change 409 protocol_retired', async () => {
    const transcript = vectors.transcripts[0]!.transcript as unknown as Fair1Transcript;
    const sessionId = newSessionId((n) => crypto.getRandomValues(new Uint8Array(n)));
    const token = newToken(sessionId, (n) => crypto.getRandomValues(new Uint8Array(n)));
    await runInDurableObject(env.TABLES.getByName(sessionId), (_t, st) => {
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
    await runInDurableObject(env.TABLES.getByName(sessionId), (_t, st) => {
      expect(st.storage.sql.exec(`SELECT value FROM meta WHERE key = 'schema_version'`).one().value).toBe(String(SCHEMA_VERSION));
    });
    const t = await api('GET', `/api/sessions/${s.id}/shoes/1/transcript`, { token });
    expect(t.body).toEqual(transcript);
    const jwks: Jwks = { keys: [vectors.key.publicJwk] };
    expect((await verifyFair1Transcript(t.body, jwks)).ok).toBe(true);
    expect((await api('GET', `/api/sessions/${s.id}/receipts?shoe=1`, { token })).body.receipts).toEqual(transcript.receipts);
    const request = { body: {}, signature: 'x' };
    for (const path of ['shoe/start', 'rounds', 'rounds/1/secret', 'shoe/end']) {
      const r = await api('POST', `/api/sessions/${s.id}/${path}`, { token, body: { request } });
      expect(r.status, path).toBe(409);
      expect(r.body.error.code).toBe('protocol_retired');
    }
    expect((await api('GET', `/api/sessions/${s.id}/transcript`, { token })).body.error.code).toBe('protocol_retired');
    // A shared table still moves its balance (no pb-fair-2 chain to record in: the session row), exactly once.
    const balance = transcript.receipts.at(-1)!.body.balanceAfter;
    const credit = { id: 'd'.repeat(64), table: 'hall-1/t', shoe: 1, round: 1, kind: 'credit' as const, amount: 300 };
    expect(await env.TABLES.getByName(sessionId).sharedTransfer(credit)).toMatchObject({ ok: true, balance: balance + 300, replayed: false });
    expect(await env.TABLES.getByName(sessionId).sharedTransfer(credit)).toMatchObject({ ok: true, balance: balance + 300, replayed: true });
    expect((await api('GET', `/api/sessions/${s.id}`, { token })).body.balance).toBe(balance + 300);
    expect((await env.TABLES.getByName(sessionId).stats()).changes.transfer).toEqual({ count: 1, rowsWritten: 2 });
  });
});

describe('settings', () => {
  test('LEDGER_DELAY_MS sets the ledger push delay; unset or malformed, the default', () => {
    const withVar = (value?: string) => ledgerDelayMs({ LEDGER_DELAY_MS: value } as Env);
    expect(withVar(undefined)).toBe(DEFAULT_LEDGER_DELAY_MS);
    expect(withVar('5000')).toBe(5000);
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
