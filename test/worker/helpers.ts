/**
 * Test helpers: HTTP calls into the Worker's own fetch handler (inside workerd), with every
 * response body kept so that tests can scan what the API ever said.
 */
import { runInDurableObject } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import {
  type Bet,
  betRequest,
  endRequest,
  bytesToBase64url,
  generateSigningKey,
  hexToBytes,
  importSigningKey,
  newRoundSecret,
  playerKeyOf,
  randomLegalBets,
  secretRequest,
  type SigningKey,
  signRequest,
  startRequest,
  type TableLimits,
} from '../../shared/index.ts';

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

/** A test player: the session, its token and the player's own Ed25519 key (pb-fair-2 signs every change with it). */
export interface Session {
  id: string;
  token: string;
  limits: TableLimits;
  created: any;
  player: SigningKey | Promise<SigningKey>;
  /** The round secrets this player drew, by acceptance hash (its own copy's memory). */
  secrets: Map<string, string>;
  /** What the next bet follows, as the last answer said (null: ask the table). */
  next: { last: any; round: number } | null;
}

export async function createSession(body: Record<string, unknown> = { room: 'hall-1' }, player?: SigningKey): Promise<Session> {
  const key = player ?? (await generateSigningKey()).key;
  const r = await api('POST', '/api/sessions', { body: { playerKey: playerKeyOf(key), ...body } });
  if (r.status !== 201) throw new Error(`create failed: ${r.status} ${r.text}`);
  return { id: r.body.sessionId, token: r.body.token, limits: r.body.limits, created: r.body, player: key, secrets: new Map(), next: null };
}

/** Signs the start of the current shoe (its commitment from the session's state). */
export async function startShoe(s: Session, clientSeed = 'a test seed', cut?: number): Promise<Reply> {
  const shoe = (await state(s)).shoe;
  const r = await api('POST', `/api/sessions/${s.id}/shoe/start`, {
    token: s.token,
    body: await startBody(s, clientSeed, cut ?? Math.min(100, shoe.cutRange.max as number), shoe),
  });
  if (r.status !== 200) throw new Error(`start failed: ${r.status} ${r.text}`);
  s.next = { last: r.body.shoe.start, round: 1 };
  return r;
}

/** A session with its first shoe started. */
export async function readySession(body?: Record<string, unknown>): Promise<Session> {
  const s = await createSession(body);
  await startShoe(s);
  return s;
}

/** Phase 1: a signed bet with a fresh lock, following `last` (default: the table's head). */
export async function bet(s: Session, bets: Bet[], opts: { key?: string; last?: any; round?: number; secret?: string } = {}): Promise<Reply> {
  const view = (opts.last && opts.round) || s.next ? null : await state(s);
  const last = opts.last ?? s.next?.last ?? view.head;
  const round = opts.round ?? s.next?.round ?? view.shoe.rounds + 1;
  const secret = opts.secret ?? newRoundSecret(randomBytesOf);
  const request = await signRequest(betRequest(last, round, bets, secret), await s.player);
  const r = await api('POST', `/api/sessions/${s.id}/rounds`, { token: s.token, body: { request }, key: opts.key });
  if (r.status === 200) s.secrets.set(r.body.acceptance.hash, secret);
  return r;
}

/** Phase 2: the secret of an accepted round. */
export async function reveal(s: Session, acceptance: any, key?: string): Promise<Reply> {
  const secret = s.secrets.get(acceptance.hash) ?? s.secrets.get(`lock:${acceptance.body.request.body.lock}`);
  if (!secret) throw new Error('no secret for this acceptance');
  const request = await signRequest(secretRequest(acceptance, secret), await s.player);
  const r = await api('POST', `/api/sessions/${s.id}/rounds/${acceptance.body.round}/secret`, { token: s.token, body: { request }, key });
  if (r.status === 200) s.next = r.body.reveal ? null : { last: r.body.receipt, round: r.body.receipt.body.round + 1 };
  return r;
}

/**
 * One whole round, both phases: the reply to the secret (or the refusal of the bet). Concurrent
 * callers on one session take turns as a player would: a bet refused because another round is
 * pending or the head moved is placed again on the new head.
 */
export async function play(s: Session, bets: Bet[], key?: string): Promise<Reply> {
  for (let attempt = 0; ; attempt++) {
    const r = await bet(s, bets, { key: key === undefined ? undefined : `${key}/bet` });
    const busy = r.status === 409 && (r.body.error.code === 'round_pending' || r.body.error.code === 'request_mismatch');
    if (busy && key === undefined && attempt < 1000) {
      s.next = null;
      await new Promise((done) => setTimeout(done, 5 + rand(20)));
      continue;
    }
    if (r.status !== 200) return r;
    return reveal(s, r.body.acceptance, key === undefined ? undefined : `${key}/secret`);
  }
}

/** Ends the current shoe with the player's signed request. */
export async function endShoe(s: Session, key?: string): Promise<Reply> {
  return api('POST', `/api/sessions/${s.id}/shoe/end`, { token: s.token, body: await endBody(s), key });
}

/** The table's whole history (one pb-fair-2 file, as text). */
export async function tableFile(s: Session): Promise<string> {
  const r = await api('GET', `/api/sessions/${s.id}/transcript`, { token: s.token });
  if (r.status !== 200) throw new Error(`transcript failed: ${r.status} ${r.text}`);
  return r.text;
}

const randomBytesOf = (n: number): Uint8Array => crypto.getRandomValues(new Uint8Array(n));

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

/** A valid player key for creations that never play (RFC 8032 §7.1 TEST 2's public key). */
export const PLAYER_KEY = 'PUAXw-hDiVqStwqnTRt-vJyYLM8uxJaMwM1V8Sr0Zgw';

/** The test player of PLAYER_KEY (its private half, RFC 8032 §7.1 TEST 2), for sessions created by hand. */
export function testPlayer(): Promise<SigningKey> {
  return importSigningKey({
    kty: 'OKP',
    crv: 'Ed25519',
    x: PLAYER_KEY,
    d: bytesToBase64url(hexToBytes('4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb')!),
    kid: 'player',
  } as JsonWebKey);
}

/** A session from a creation's reply (created with PLAYER_KEY). */
export function sessionOf(r: Reply): Session {
  if (r.status !== 201) throw new Error(`create failed: ${r.status} ${r.text}`);
  return { id: r.body.sessionId, token: r.body.token, limits: r.body.limits, created: r.body, player: testPlayer(), secrets: new Map(), next: null };
}

/** The body of a start request: the current shoe's commitment (read from the table unless given), signed. */
export async function startBody(s: Session, clientSeed: string, cut: number, shoe?: any): Promise<{ request: unknown }> {
  const commitment = (shoe ?? (await state(s)).shoe).commitment;
  return { request: await signRequest(startRequest(commitment, clientSeed, cut), await s.player) };
}

/** The body of a bet request on the table's head, its secret remembered for `reveal`. */
export async function betBody(s: Session, bets: Bet[]): Promise<{ request: any }> {
  const view = await state(s);
  const secret = newRoundSecret(randomBytesOf);
  const request = await signRequest(betRequest(view.head, view.shoe.rounds + 1, bets, secret), await s.player);
  s.secrets.set(`lock:${request.body.lock}`, secret);
  return { request };
}

/** The body of an end request on the table's head. */
export async function endBody(s: Session): Promise<{ request: unknown }> {
  return { request: await signRequest(endRequest((await state(s)).head), await s.player) };
}

/** Runs `fn` on the table's live instance (its public test hooks: `bucket`, `clock`). */
export async function insideTable(sessionId: string, fn: (table: any) => void | Promise<void>): Promise<void> {
  const stub = env.TABLES.getByName(sessionId) as unknown as DurableObjectStub<undefined>;
  await runInDurableObject(stub, (instance) => fn(instance));
}
