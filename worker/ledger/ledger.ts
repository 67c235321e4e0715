/**
 * `Ledger`: the operator's figures per affiliate and room: sessions, rounds, turnover (total
 * staked), returned and house result (staked − returned). One Durable Object, named "ledger".
 *
 * How the figures stay exact. Each table keeps its own running totals (rounds, staked, returned)
 * with its newest record (schema version 6; a pb-fair-1 table: its session row), written in the
 * same transaction as the round's receipt, so the table's totals are always exactly its
 * receipts. After a change the table arms its alarm (`LEDGER_DELAY_MS` after the first change
 * the ledger lacks); the alarm sends the table's ABSOLUTE totals to `record` here. The ledger
 * keeps one row per session with the totals it last accepted, and replaces them only when the
 * round count went up; the report adds those rows up. So:
 * - a retried round (same Idempotency-Key) adds no round at the table, hence nothing here;
 * - a push delivered twice, or late and out of order, changes nothing the second time;
 * - a push lost on the way is repeated by the alarm (and the next round's push carries it too);
 * - the table remembers what the ledger acknowledged in memory only: after an eviction it sends
 *   its totals once more, which the ledger ignores when it has them.
 * Totals therefore never double count and never lose a round; they lag the tables by up to the
 * alarm delay (default 30 s; up to `LEDGER_RETRY_MS` more while the ledger is unreachable).
 *
 * Cost (DEPLOY.md "What a round costs"). A push is two Durable Object requests (the alarm, the
 * RPC) and one row written here (the session's row: `WITHOUT ROWID`, so no second b-tree; no
 * aggregate kept in step); a repeat writes nothing. The delay makes one push of a player's burst
 * of rounds. The report reads every session's row once.
 *
 * Attribution. Every session is counted under how its affiliate was attributed (embed/attribution.ts):
 * `signed` (a token from the affiliate's server), `origin` (a browser on an origin listed for the
 * affiliate) or `claimed` (nothing proves it). Each figure of the report is split that way in
 * `attribution`; an affiliate is owed what is proven, and a large `claimed` share is a question.
 *
 * One object serializes every update: each is one small synchronous transaction, thousands per
 * second. Past that, shard by affiliate (one ledger per affiliate, named `ledger:<id>`).
 */
import { DurableObject } from 'cloudflare:workers';
import { ROOMS, type RoomId } from '../../shared/index.ts';
import { type Attribution, ATTRIBUTIONS } from '../embed/attribution.ts';
import type { Env } from '../config/env.ts';
import { migrate, type Migration } from '../session/schema.ts';

/** The one Ledger object. */
export const LEDGER_NAME = 'ledger';

/** The ledger's key for sessions without an affiliate (NULL cannot be part of a primary key). */
const NONE = '';

/** A table session's running totals, as the table sends them. */
export interface SessionTotals {
  sessionId: string;
  affiliate: string | null;
  /** How the affiliate was attributed; absent from tables older than attribution: 'claimed'. */
  attribution?: Attribution;
  room: RoomId;
  /** Rounds played so far (the version of these totals: only a higher count is applied). */
  rounds: number;
  /** Sum of every round's stake, minor units. */
  staked: number;
  /** Sum of every round's return (stakes back plus winnings), minor units. */
  returned: number;
}

/** Figures of a set of sessions; money in minor units (1000 per currency unit). */
export interface Figures {
  sessions: number;
  rounds: number;
  /** Total staked. */
  turnover: number;
  /** Total paid back to players (stakes included). */
  returned: number;
  /** turnover − returned: what the house won (negative: lost). */
  houseResult: number;
}

/** Figures, and the same split by attribution (the three parts add up to the whole). */
export interface AttributedFigures extends Figures {
  attribution: Record<Attribution, Figures>;
}

export interface RoomFigures extends AttributedFigures {
  room: RoomId;
}

export interface AffiliateFigures extends AttributedFigures {
  /** null: sessions created without an affiliate. */
  affiliate: string | null;
  rooms: RoomFigures[];
}

export interface AffiliateReport {
  generatedAt: string;
  /** By affiliate id; sessions without an affiliate last. */
  affiliates: AffiliateFigures[];
  total: AttributedFigures;
}

export const LEDGER_MIGRATIONS: readonly Migration[] = [
  [
    `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
    // The totals last accepted from each table session.
    `CREATE TABLE sessions (
       session_id TEXT PRIMARY KEY,
       affiliate TEXT NOT NULL,
       room TEXT NOT NULL,
       rounds INTEGER NOT NULL CHECK (rounds >= 0),
       staked INTEGER NOT NULL CHECK (staked >= 0),
       returned INTEGER NOT NULL CHECK (returned >= 0),
       updated_at TEXT NOT NULL
     )`,
    // Their sums per affiliate and room, kept in step in the same transaction.
    `CREATE TABLE totals (
       affiliate TEXT NOT NULL,
       room TEXT NOT NULL,
       sessions INTEGER NOT NULL,
       rounds INTEGER NOT NULL,
       staked INTEGER NOT NULL,
       returned INTEGER NOT NULL,
       PRIMARY KEY (affiliate, room)
     )`,
  ],
  // Attribution: per session, and the totals split by it; everything recorded before is 'claimed'.
  [
    `ALTER TABLE sessions ADD COLUMN attribution TEXT NOT NULL DEFAULT 'claimed'`,
    `CREATE TABLE attributed_totals (
       affiliate TEXT NOT NULL,
       room TEXT NOT NULL,
       attribution TEXT NOT NULL CHECK (attribution IN ('signed', 'origin', 'claimed')),
       sessions INTEGER NOT NULL,
       rounds INTEGER NOT NULL,
       staked INTEGER NOT NULL,
       returned INTEGER NOT NULL,
       PRIMARY KEY (affiliate, room, attribution)
     )`,
    `INSERT INTO attributed_totals (affiliate, room, attribution, sessions, rounds, staked, returned)
       SELECT affiliate, room, 'claimed', sessions, rounds, staked, returned FROM totals`,
    `DROP TABLE totals`,
  ],
  // Rows written per push: the per-session row keyed by its session id alone (WITHOUT ROWID: one
  // b-tree, 1 row per insert or update instead of 2 per insert), and no aggregate kept in step
  // (1 row more per push): the report adds the sessions up. The aggregate was always written in
  // the same transaction as the session rows, so it is exactly their sum: nothing is lost.
  [
    `CREATE TABLE sessions_by_id (
       session_id TEXT PRIMARY KEY,
       affiliate TEXT NOT NULL,
       room TEXT NOT NULL,
       attribution TEXT NOT NULL CHECK (attribution IN ('signed', 'origin', 'claimed')),
       rounds INTEGER NOT NULL CHECK (rounds >= 0),
       staked INTEGER NOT NULL CHECK (staked >= 0),
       returned INTEGER NOT NULL CHECK (returned >= 0),
       updated_at TEXT NOT NULL
     ) WITHOUT ROWID`,
    `INSERT INTO sessions_by_id (session_id, affiliate, room, attribution, rounds, staked, returned, updated_at)
       SELECT session_id, affiliate, room, attribution, rounds, staked, returned, updated_at FROM sessions`,
    `DROP TABLE sessions`,
    `ALTER TABLE sessions_by_id RENAME TO sessions`,
    `DROP TABLE attributed_totals`,
  ],
];

const count = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

function figures(sessions: number, rounds: number, staked: number, returned: number): Figures {
  return { sessions, rounds, turnover: staked, returned, houseResult: staked - returned };
}

/** What this instance has done since it started: the tests' and the bench's figure of the billed rows. */
export interface LedgerStats {
  rowsWritten: number;
  rowsRead: number;
  /** Calls to `record`: totals applied, and totals ignored (not newer than those accepted). */
  records: { applied: number; ignored: number };
}

export class Ledger extends DurableObject<Env> {
  #rowsWritten = 0;
  #rowsRead = 0;
  readonly #records = { applied: 0, ignored: 0 };

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.transactionSync(() => migrate(ctx.storage.sql, LEDGER_MIGRATIONS));
  }

  /**
   * Accepts a session's totals: registers a new session, or adds what changed since the totals
   * last accepted. `applied` is false when these totals are not newer (a repeat): nothing changed.
   */
  async record(t: SessionTotals): Promise<{ applied: boolean }> {
    const attribution = t.attribution ?? 'claimed';
    if (
      typeof t.sessionId !== 'string' ||
      !(t.room in ROOMS) ||
      !ATTRIBUTIONS.includes(attribution) ||
      !count(t.rounds) ||
      !count(t.staked) ||
      !count(t.returned)
    ) {
      throw new Error(`ledger: malformed totals ${JSON.stringify(t)}`);
    }
    return this.ctx.storage.transactionSync(() => {
      const prior = this.#exec<{ rounds: number; staked: number; returned: number }>(
        `SELECT rounds, staked, returned FROM sessions WHERE session_id = ?`,
        t.sessionId,
      )[0];
      if (prior && t.rounds <= prior.rounds) return this.#ignored();
      if (prior && (t.staked < prior.staked || t.returned < prior.returned)) {
        // Totals only grow; anything else is a bug upstream. Keep the figures as they are.
        console.error(`punto-banco: ledger refused totals that go backwards for session ${t.sessionId}`);
        return this.#ignored();
      }
      // A session's affiliate, room and attribution never change: the first record's are kept.
      this.#exec(
        `INSERT INTO sessions (session_id, affiliate, room, attribution, rounds, staked, returned, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (session_id) DO UPDATE SET rounds = excluded.rounds, staked = excluded.staked, returned = excluded.returned, updated_at = excluded.updated_at`,
        t.sessionId,
        t.affiliate ?? NONE,
        t.room,
        attribution,
        t.rounds,
        t.staked,
        t.returned,
        new Date().toISOString(),
      );
      this.#records.applied++;
      return { applied: true };
    });
  }

  /** This instance's counters (rows written and read since it started, indexes included, as billed). */
  async stats(): Promise<LedgerStats> {
    return { rowsWritten: this.#rowsWritten, rowsRead: this.#rowsRead, records: { ...this.#records } };
  }

  #ignored(): { applied: false } {
    this.#records.ignored++;
    return { applied: false };
  }

  #exec<T extends Record<string, SqlStorageValue>>(query: string, ...bindings: SqlStorageValue[]): T[] {
    const cursor = this.ctx.storage.sql.exec<T>(query, ...bindings);
    const rows = cursor.toArray();
    this.#rowsWritten += cursor.rowsWritten;
    this.#rowsRead += cursor.rowsRead;
    return rows;
  }

  /** The figures per affiliate and room, and their total, each split by attribution. */
  async report(): Promise<AffiliateReport> {
    // One pass over the sessions (a row read each): no aggregate is kept in step with the pushes.
    const rows = this.#exec<{ affiliate: string; room: string; attribution: Attribution; sessions: number; rounds: number; staked: number; returned: number }>(
      `SELECT affiliate, room, attribution, COUNT(*) AS sessions, SUM(rounds) AS rounds, SUM(staked) AS staked, SUM(returned) AS returned
       FROM sessions GROUP BY affiliate, room, attribution`,
    );
    const roomOrder = Object.keys(ROOMS);
    // affiliate → room → attribution → figures
    const byAffiliate = new Map<string, Map<RoomId, Partial<Record<Attribution, Figures>>>>();
    for (const r of rows) {
      const rooms = byAffiliate.get(r.affiliate) ?? new Map<RoomId, Partial<Record<Attribution, Figures>>>();
      const parts = rooms.get(r.room as RoomId) ?? {};
      parts[r.attribution] = figures(r.sessions, r.rounds, r.staked, r.returned);
      rooms.set(r.room as RoomId, parts);
      byAffiliate.set(r.affiliate, rooms);
    }
    const affiliates: AffiliateFigures[] = [...byAffiliate.entries()]
      // Named affiliates in order, the sessions without one last.
      .sort(([a], [b]) => (a === NONE ? 1 : b === NONE ? -1 : a < b ? -1 : a > b ? 1 : 0))
      .map(([affiliate, roomParts]) => {
        const rooms: RoomFigures[] = [...roomParts.entries()]
          .map(([room, parts]) => ({ room, ...attributed(ATTRIBUTIONS.map((a) => split(a, parts[a] ?? ZERO))) }))
          .sort((a, b) => roomOrder.indexOf(a.room) - roomOrder.indexOf(b.room));
        return { affiliate: affiliate === NONE ? null : affiliate, ...sumAttributed(rooms), rooms };
      });
    return { generatedAt: new Date().toISOString(), affiliates, total: sumAttributed(affiliates) };
  }
}

const ZERO: Figures = figures(0, 0, 0, 0);

function sum(list: readonly Figures[]): Figures {
  return figures(
    list.reduce((a, f) => a + f.sessions, 0),
    list.reduce((a, f) => a + f.rounds, 0),
    list.reduce((a, f) => a + f.turnover, 0),
    list.reduce((a, f) => a + f.returned, 0),
  );
}

const split = (a: Attribution, f: Figures): [Attribution, Figures] => [a, f];

/** The whole of some attributed parts, with the parts. */
function attributed(parts: ReadonlyArray<[Attribution, Figures]>): AttributedFigures {
  const byLevel = Object.fromEntries(parts) as Record<Attribution, Figures>;
  return { ...sum(parts.map(([, f]) => f)), attribution: byLevel };
}

/** Adds up attributed figures, level by level. */
function sumAttributed(list: readonly AttributedFigures[]): AttributedFigures {
  return attributed(ATTRIBUTIONS.map((a) => split(a, sum(list.map((f) => f.attribution[a])))));
}
