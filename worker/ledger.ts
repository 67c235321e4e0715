/**
 * `Ledger`: the operator's figures per affiliate and room: sessions, rounds, turnover (total
 * staked), returned and house result (staked − returned). One Durable Object, named "ledger".
 *
 * How the figures stay exact. Each table keeps its own running totals (rounds, staked, returned)
 * with its newest record (schema version 6; a pb-fair-1 table: its session row), written in the
 * same transaction as the round's receipt, so the table's totals are always exactly its
 * receipts. After a change commits, the table schedules its
 * alarm; the alarm sends the table's ABSOLUTE totals to `record` here. The ledger keeps one row
 * per session with the totals it last accepted and adds only the difference, and only when the
 * round count went up. So:
 * - a retried round (same Idempotency-Key) adds no round at the table, hence nothing here;
 * - a push delivered twice, or late and out of order, changes nothing the second time;
 * - a push lost on the way is repeated by the alarm (and the next round's push carries it too).
 * Totals therefore never double count and never lose a round; they lag the tables by the alarm
 * delay (normally milliseconds; up to `LEDGER_RETRY_MS` while the ledger is unreachable).
 *
 * Attribution. Every session is counted under how its affiliate was attributed (attribution.ts):
 * `signed` (a token from the affiliate's server), `origin` (a browser on an origin listed for the
 * affiliate) or `claimed` (nothing proves it). Each figure of the report is split that way in
 * `attribution`; an affiliate is owed what is proven, and a large `claimed` share is a question.
 *
 * One object serializes every update: each is one small synchronous transaction, thousands per
 * second. Past that, shard by affiliate (one ledger per affiliate, named `ledger:<id>`).
 */
import { DurableObject } from 'cloudflare:workers';
import { ROOMS, type RoomId } from '../shared/index.ts';
import { type Attribution, ATTRIBUTIONS } from './attribution.ts';
import type { Env } from './env.ts';
import { migrate, type Migration } from './schema.ts';

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
];

const count = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

function figures(sessions: number, rounds: number, staked: number, returned: number): Figures {
  return { sessions, rounds, turnover: staked, returned, houseResult: staked - returned };
}

export class Ledger extends DurableObject<Env> {
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
    const sql = this.ctx.storage.sql;
    return this.ctx.storage.transactionSync(() => {
      const prior = sql
        .exec<{ affiliate: string; room: string; attribution: string; rounds: number; staked: number; returned: number }>(
          `SELECT affiliate, room, attribution, rounds, staked, returned FROM sessions WHERE session_id = ?`,
          t.sessionId,
        )
        .toArray()[0];
      if (prior && t.rounds <= prior.rounds) return { applied: false };
      if (prior && (t.staked < prior.staked || t.returned < prior.returned)) {
        // Totals only grow; anything else is a bug upstream. Keep the figures as they are.
        console.error(`punto-banco: ledger refused totals that go backwards for session ${t.sessionId}`);
        return { applied: false };
      }
      // A session's affiliate, room and attribution never change: the first record's are kept.
      const affiliate = prior ? prior.affiliate : (t.affiliate ?? NONE);
      const room = prior ? prior.room : t.room;
      const attributed = prior ? prior.attribution : attribution;
      const d = {
        sessions: prior ? 0 : 1,
        rounds: t.rounds - (prior?.rounds ?? 0),
        staked: t.staked - (prior?.staked ?? 0),
        returned: t.returned - (prior?.returned ?? 0),
      };
      sql.exec(
        `INSERT INTO sessions (session_id, affiliate, room, attribution, rounds, staked, returned, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (session_id) DO UPDATE SET rounds = excluded.rounds, staked = excluded.staked, returned = excluded.returned, updated_at = excluded.updated_at`,
        t.sessionId,
        affiliate,
        room,
        attributed,
        t.rounds,
        t.staked,
        t.returned,
        new Date().toISOString(),
      );
      sql.exec(
        `INSERT INTO attributed_totals (affiliate, room, attribution, sessions, rounds, staked, returned) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (affiliate, room, attribution) DO UPDATE SET sessions = sessions + excluded.sessions, rounds = rounds + excluded.rounds,
           staked = staked + excluded.staked, returned = returned + excluded.returned`,
        affiliate,
        room,
        attributed,
        d.sessions,
        d.rounds,
        d.staked,
        d.returned,
      );
      return { applied: true };
    });
  }

  /** The figures per affiliate and room, and their total, each split by attribution. */
  async report(): Promise<AffiliateReport> {
    const rows = this.ctx.storage.sql
      .exec<{ affiliate: string; room: string; attribution: Attribution; sessions: number; rounds: number; staked: number; returned: number }>(
        `SELECT affiliate, room, attribution, sessions, rounds, staked, returned FROM attributed_totals`,
      )
      .toArray();
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
