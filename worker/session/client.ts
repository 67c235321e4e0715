/**
 * `Client`: one Durable Object per client address (CF-Connecting-IP). It creates table sessions
 * idempotently and rate-limits creation per address.
 *
 * Creating a session needs an Idempotency-Key like every change, but no session exists yet to
 * keep the answer in; so the key is scoped to the client's address and kept here, with the
 * request hash, the session id and the first answer, token included, for `CREATION_KEY_TTL_MS`.
 * A replay (same key, same body) gets exactly that answer again: the same session and the SAME
 * bearer token, so a client that lost the first answer can continue, and replaying never widens
 * access (a session has one token). Another body → 409. The alarm deletes answers past their
 * TTL, so a token is kept here no longer than a replay may ask for it; the table itself keeps
 * only the token's hash.
 */
import { DurableObject } from 'cloudflare:workers';
import type { CreatedSession as CreatedSession, SessionView as SessionView } from '../../shared/index.ts';
import { type Answer, answer, failure, isSuccess, rateLimited } from '../http/answers.ts';
import { type Env, rateLimits } from '../config/env.ts';
import type { Attribution } from '../embed/attribution.ts';
import type { Idem } from './replay.ts';
import { TokenBucket } from '../http/limits.ts';
import type { CreateSessionBody } from '../http/bodies.ts';
import { newSessionId, newToken, tokenHash } from '../http/tokens.ts';

/** How long a creation's Idempotency-Key is remembered. */
export const CREATION_KEY_TTL_MS = 24 * 60 * 60 * 1000;

const randomBytes = (n: number): Uint8Array => crypto.getRandomValues(new Uint8Array(n));

export class Client extends DurableObject<Env> {
  #tail: Promise<unknown> = Promise.resolve();
  /** Session creations from this address; public so that tests can drain it. */
  readonly bucket: TokenBucket;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.bucket = new TokenBucket(rateLimits(env).create, Date.now());
    const sql = ctx.storage.sql;
    sql.exec(`CREATE TABLE IF NOT EXISTS creations (
      key TEXT PRIMARY KEY,
      request_hash TEXT NOT NULL,
      session_id TEXT NOT NULL,
      answer TEXT NOT NULL,
      created_at INTEGER NOT NULL
    )`);
    // Rows written before replays returned the first token have none (NULL).
    const columns = sql.exec<{ name: string }>(`SELECT name FROM pragma_table_info('creations')`).toArray();
    if (!columns.some((c) => c.name === 'token')) sql.exec(`ALTER TABLE creations ADD COLUMN token TEXT`);
  }

  /** Creates a table session, or replays the creation made with the same key and body. */
  async createSession(idem: Idem, body: CreateSessionBody, attribution: Attribution): Promise<Answer<CreatedSession>> {
    // One at a time: the Table call is awaited between the key lookup and its record.
    const run = this.#tail.then(() => this.#create(idem, body, attribution));
    this.#tail = run.catch(() => undefined);
    return run;
  }

  async #create(idem: Idem, body: CreateSessionBody, attribution: Attribution): Promise<Answer<CreatedSession>> {
    const now = Date.now();
    const taken = this.bucket.take(now);
    if (!taken.ok) return rateLimited(taken.retryAfter, 'creating sessions from this address');
    const sql = this.ctx.storage.sql;
    const prior = sql
      .exec<{ request_hash: string; answer: string; token: string | null }>(
        `SELECT request_hash, answer, token FROM creations WHERE key = ? AND created_at > ?`,
        idem.key,
        now - CREATION_KEY_TTL_MS,
      )
      .toArray()[0];
    if (prior && prior.request_hash !== idem.requestHash) {
      return failure(409, 'idempotency_conflict', 'this Idempotency-Key was already used with another request: use a new key for a new request');
    }
    if (prior) {
      if (prior.token === null) {
        return failure(
          409,
          'idempotency_conflict',
          'this session was created before its token could be replayed: create a new session with a new Idempotency-Key',
        );
      }
      return answer(201, { ...(JSON.parse(prior.answer) as SessionView), token: prior.token }, { 'Idempotent-Replayed': 'true' });
    }
    const sessionId = newSessionId(randomBytes);
    const token = newToken(sessionId, randomBytes);
    const created: Answer = await this.env.TABLES.getByName(sessionId).create({
      sessionId,
      tokenHash: tokenHash(token),
      room: body.room,
      affiliate: body.affiliate ?? null,
      attribution,
      playerKey: body.playerKey,
      mode: body.mode,
      decks: body.decks,
    });
    if (!isSuccess(created)) return created as Answer<never>;
    const view = created.body as SessionView;
    this.ctx.storage.transactionSync(() => {
      sql.exec(`DELETE FROM creations WHERE created_at <= ?`, now - CREATION_KEY_TTL_MS);
      sql.exec(
        `INSERT INTO creations (key, request_hash, session_id, answer, created_at, token) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET request_hash = excluded.request_hash, session_id = excluded.session_id, answer = excluded.answer,
           created_at = excluded.created_at, token = excluded.token`,
        idem.key,
        idem.requestHash,
        sessionId,
        JSON.stringify(view),
        now,
        token,
      );
    });
    // Forget the token when its replay window closes (one alarm at a time; it re-arms for the rest).
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(now + CREATION_KEY_TTL_MS + 1);
    return answer(201, { ...view, token });
  }

  /** Deletes the creations past their TTL (their tokens with them); re-arms for the oldest one left. */
  override async alarm(): Promise<void> {
    const now = Date.now();
    const sql = this.ctx.storage.sql;
    sql.exec(`DELETE FROM creations WHERE created_at <= ?`, now - CREATION_KEY_TTL_MS);
    const oldest = sql.exec<{ at: number | null }>(`SELECT MIN(created_at) AS at FROM creations`).toArray()[0]?.at ?? null;
    if (oldest !== null) await this.ctx.storage.setAlarm(oldest + CREATION_KEY_TTL_MS + 1);
  }
}
