/**
 * `Client`: one Durable Object per client address (CF-Connecting-IP). It creates table sessions
 * idempotently and rate-limits creation per address.
 *
 * Creating a session needs an Idempotency-Key like every change, but no session exists yet to
 * keep the answer in; so the key is scoped to the client's address and kept here, with the
 * request hash, the session id and the first answer. A replay (same key, same body) gets that
 * first answer again with a NEW bearer token for the same session: tokens are never stored, only their hashes, so the first token
 * cannot be sent twice. Every token handed out stays valid. Another body → 409.
 */
import { DurableObject } from 'cloudflare:workers';
import type { CreatedSession, SessionView } from '../shared/index.ts';
import { type Answer, answer, failure, isSuccess, rateLimited } from './answers.ts';
import { type Env, rateLimits } from './env.ts';
import type { Idem } from './table.ts';
import { TokenBucket } from './limits.ts';
import type { CreateSessionBody } from './schemas.ts';
import { newSessionId, newToken, tokenHash } from './tokens.ts';

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
    ctx.storage.sql.exec(`CREATE TABLE IF NOT EXISTS creations (
      key TEXT PRIMARY KEY,
      request_hash TEXT NOT NULL,
      session_id TEXT NOT NULL,
      answer TEXT NOT NULL,
      created_at INTEGER NOT NULL
    )`);
  }

  /** Creates a table session, or replays the creation made with the same key and body. */
  async createSession(idem: Idem, body: CreateSessionBody): Promise<Answer<CreatedSession>> {
    // One at a time: the Table call is awaited between the key lookup and its record.
    const run = this.#tail.then(() => this.#create(idem, body));
    this.#tail = run.catch(() => undefined);
    return run;
  }

  async #create(idem: Idem, body: CreateSessionBody): Promise<Answer<CreatedSession>> {
    const now = Date.now();
    const taken = this.bucket.take(now);
    if (!taken.ok) return rateLimited(taken.retryAfter, 'creating sessions from this address');
    const sql = this.ctx.storage.sql;
    const prior = sql
      .exec<{ request_hash: string; session_id: string; answer: string }>(`SELECT request_hash, session_id, answer FROM creations WHERE key = ? AND created_at > ?`, idem.key, now - CREATION_KEY_TTL_MS)
      .toArray()[0];
    if (prior && prior.request_hash !== idem.requestHash) {
      return failure(409, 'idempotency_conflict', 'this Idempotency-Key was already used with another request: use a new key for a new request');
    }
    const sessionId = prior ? prior.session_id : newSessionId(randomBytes);
    const token = newToken(sessionId, randomBytes);
    const table = this.env.TABLES.getByName(sessionId);
    const created: Answer = prior
      ? await table.addToken(tokenHash(token))
      : await table.create({ sessionId, tokenHash: tokenHash(token), room: body.room, affiliate: body.affiliate ?? null, mode: body.mode, decks: body.decks });
    if (!isSuccess(created)) return created as Answer<never>;
    if (prior) return answer(201, { ...(JSON.parse(prior.answer) as SessionView), token }, { 'Idempotent-Replayed': 'true' });
    const view = created.body as SessionView;
    this.ctx.storage.transactionSync(() => {
      sql.exec(`DELETE FROM creations WHERE created_at <= ?`, now - CREATION_KEY_TTL_MS);
      sql.exec(
        `INSERT INTO creations (key, request_hash, session_id, answer, created_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET request_hash = excluded.request_hash, session_id = excluded.session_id, answer = excluded.answer, created_at = excluded.created_at`,
        idem.key, idem.requestHash, sessionId, JSON.stringify(view), now,
      );
    });
    return answer(201, { ...view, token });
  }
}
