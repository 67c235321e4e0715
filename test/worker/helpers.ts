/**
 * Test helpers: HTTP calls into the Worker's own fetch handler (inside workerd), with every
 * response body kept so that tests can scan what the API ever said.
 */
import { exports } from 'cloudflare:workers';
import { type Bet, randomLegalBets, type TableLimits } from '../../shared/index.ts';

export const BASE = 'http://pb.test';

/** One client address per test file, so files never share a rate-limit bucket. */
export const CLIENT_IP = `10.${rand(256)}.${rand(256)}.${rand(256)}`;

function rand(n: number): number {
  return crypto.getRandomValues(new Uint32Array(1))[0]! % n;
}

export interface Reply<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

/** Every response text seen by `api`, in order (for the "no seed before the reveal" scan). */
export const transcriptOfResponses: string[] = [];

export interface CallOptions {
  token?: string;
  key?: string | null;
  body?: unknown;
  /** Sent as is instead of JSON.stringify(body). */
  raw?: BodyInit;
  headers?: Record<string, string>;
}

export async function api<T = any>(method: string, path: string, opts: CallOptions = {}): Promise<Reply<T>> {
  const headers = new Headers({ 'CF-Connecting-IP': CLIENT_IP, ...opts.headers });
  if (opts.token !== undefined) headers.set('Authorization', `Bearer ${opts.token}`);
  if (opts.key !== undefined && opts.key !== null) headers.set('Idempotency-Key', opts.key);
  else if (opts.key === undefined && method === 'POST') headers.set('Idempotency-Key', crypto.randomUUID());
  let body: BodyInit | undefined = opts.raw;
  if (body === undefined && opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    if (!headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
  }
  const res = await exports.default.fetch(new Request(`${BASE}${path}`, { method, headers, body }));
  const text = await res.text();
  transcriptOfResponses.push(text);
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  return { status: res.status, body: parsed as T, text, headers: res.headers };
}

export interface Session {
  id: string;
  token: string;
  limits: TableLimits;
  created: any;
}

export async function createSession(body: Record<string, unknown> = { room: 'hall-1' }): Promise<Session> {
  const r = await api('POST', '/api/sessions', { body });
  if (r.status !== 201) throw new Error(`create failed: ${r.status} ${r.text}`);
  return { id: r.body.sessionId, token: r.body.token, limits: r.body.limits, created: r.body };
}

export async function startShoe(s: Session, clientSeed = 'a test seed', cut = Math.min(100, s.created.shoe.cutRange.max as number)): Promise<Reply> {
  const r = await api('POST', `/api/sessions/${s.id}/shoe/start`, { token: s.token, body: { clientSeed, cut } });
  if (r.status !== 200) throw new Error(`start failed: ${r.status} ${r.text}`);
  return r;
}

/** A session with its first shoe started. */
export async function readySession(body?: Record<string, unknown>): Promise<Session> {
  const s = await createSession(body);
  await startShoe(s);
  return s;
}

export function play(s: Session, bets: Bet[], key?: string): Promise<Reply> {
  return api('POST', `/api/sessions/${s.id}/rounds`, { token: s.token, body: { bets }, key });
}

export async function state(s: Session): Promise<any> {
  const r = await api('GET', `/api/sessions/${s.id}`, { token: s.token });
  if (r.status !== 200) throw new Error(`state failed: ${r.status} ${r.text}`);
  return r.body;
}

/** Everything that a refused request must leave unchanged: balance, shoe (status, rounds, records), last receipt. */
export async function snapshot(s: Session): Promise<string> {
  return JSON.stringify(await state(s));
}

/** A random legal bet set for these limits and balance (shared/random.ts; deterministic given `pick`). */
export function randomBets(limits: TableLimits, balance: number, pick: (n: number) => number = rand): Bet[] {
  const bets = randomLegalBets(limits, balance, pick);
  if (bets === null) throw new Error('balance below the table minimum');
  return bets;
}
