/**
 * Resuming a table after a page reload (lazy chunk). The element remembers its session — the id,
 * the bearer token and the player's pb-fair-2 key (its private JWK) — in `sessionStorage`: per tab, kept across reloads, never
 * shared with another tab. The key is the resolved Worker URL, the room and the affiliate, so a
 * table resumes only a session of its own Worker, room and partner (a launched table's key is its
 * launch token instead: `launchStorageKey`). Storage that is missing or
 * throws (sandboxed iframes, privacy modes, a full quota) makes every call a silent no-op: the
 * table then opens a new session, as it always did.
 *
 * Two tables of one page with the same key share one entry: the first to boot claims it (claims
 * are per page, in memory); the others open new sessions and leave the entry alone.
 *
 * On boot the element asks the Worker for the stored session's state (GET /api/sessions/:id) and
 * the table's transcript (GET …/transcript) for the records of its current shoe. A session of the
 * retired protocol (pb-fair-1: no `protocol` in its view) or one stored without a player key is
 * forgotten like an expired one: the table opens a new pb-fair-2 session quietly. The round in
 * flight and the player's copy sit beside the entry (player.ts).
 */
import * as apiCalls from '../../shared/wire/http-calls.ts';
import type { ApiClient, ApiError, ApiResult } from './api-client.ts';
import { embedRefusal } from './embed.ts';
import type { ReadSessionView, Signed } from './api-types.ts';

export type { ReadSessionView };

/** What is kept for a table: its session's id, bearer token and the player's private key (JWK). */
export interface StoredSession {
  sessionId: string;
  token: string;
  player: JsonWebKey;
}

/** A resumed session: its state and the records of its current shoe, in chain order. */
export interface Resumed {
  stored: StoredSession;
  view: ReadSessionView;
  records: Signed[];
}

/** The part of `Storage` the store uses (tests pass their own). */
export type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** Every key the store uses starts with this. */
export const STORAGE_PREFIX = 'punto-banco:session:';
/** Longest id or token accepted back from storage (the Worker's are 22 and 66 characters). */
const MAX_LENGTH = 200;

/** The storage key of a table: the resolved endpoint, the room and the affiliate. */
export function storageKey(endpoint: string, room: string, affiliate: string | null): string {
  return `${STORAGE_PREFIX}${JSON.stringify([endpoint, room, affiliate || null])}`;
}

/**
 * The storage key of a table launched by a casino (`launch-token`): the resolved endpoint and the
 * launch token, never a room, so a play session is never resumed for a launch nor a launched
 * (wallet) session for a play table; a reload with the same token resumes the session it opened.
 */
export function launchStorageKey(endpoint: string, launchToken: string): string {
  return `${STORAGE_PREFIX}${JSON.stringify([endpoint, { launch: launchToken }])}`;
}

/**
 * Where a table keeps its session for a reload (null: `resume="off"`): under its launch token, else
 * its endpoint, room and affiliate; a reshuffle table's apart from a shoe table's.
 */
export function tableStore(
  endpoint: string,
  table: { room: string; affiliate: string | null; launchToken: string | null; mode: string; resume: string },
): SessionStore | null {
  if (['off', 'false'].includes(String(table.resume).trim().toLowerCase())) return null;
  const key = table.launchToken ? launchStorageKey(endpoint, table.launchToken) : storageKey(endpoint, table.room, table.affiliate || null);
  return new SessionStore(key + (table.mode === 'reshuffle' ? '|reshuffle' : ''));
}

/** The page's sessionStorage, or null where reading it throws (sandboxed iframe, blocked storage). */
function pageStorage(): StorageLike | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

const text = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= MAX_LENGTH;

/** Who holds which entry on this page: key → the table that resumed or created its session. */
const claims = new Map<string, { owner: WeakRef<Element>; sessionId: string }>();

export class SessionStore {
  readonly key: string;
  #storage: StorageLike | null;

  constructor(key: string, storage: StorageLike | null = pageStorage()) {
    this.key = key;
    this.#storage = storage;
  }

  /** The stored session, or null (none, unreadable, malformed). */
  read(): StoredSession | null {
    try {
      const raw = this.#storage?.getItem(this.key);
      const value = raw ? (JSON.parse(raw) as Partial<StoredSession> | null) : null;
      return value && text(value.sessionId) && text(value.token) && value.player && typeof value.player === 'object'
        ? { sessionId: value.sessionId, token: value.token, player: value.player }
        : null;
    } catch {
      return null;
    }
  }

  /** The storage the entry lives in (the round in flight and the player's copy sit beside it). */
  get storage(): StorageLike | null {
    return this.#storage;
  }

  /** Remembers `session` (its id, token and the player's key). */
  save(session: StoredSession): void {
    try {
      this.#storage?.setItem(this.key, JSON.stringify({ sessionId: session.sessionId, token: session.token, player: session.player }));
    } catch {
      // no storage, or full: the next page load opens a new session
    }
  }

  /** Forgets the stored session if it is `sessionId` (another table may have stored its own since), with its round and copy. */
  forget(sessionId: string): void {
    try {
      if (this.read()?.sessionId !== sessionId) return;
      for (const key of [this.key, `${this.key}:round`, `${this.key}:copy`]) this.#storage?.removeItem(key);
    } catch {
      // nothing to forget
    }
  }

  /** The stored session, claimed for `owner` — or null when there is none or another table on the page holds it. */
  claim(owner: Element): StoredSession | null {
    const stored = this.read();
    if (!stored || this.#heldByOther(owner, stored.sessionId)) return null;
    claims.set(this.key, { owner: new WeakRef(owner), sessionId: stored.sessionId });
    return stored;
  }

  /** Stores the session `owner` just opened, unless another table of the page holds the entry. */
  keep(owner: Element, session: StoredSession): void {
    const stored = this.read();
    if (stored && stored.sessionId !== session.sessionId && this.#heldByOther(owner, stored.sessionId)) return;
    claims.set(this.key, { owner: new WeakRef(owner), sessionId: session.sessionId });
    this.save(session);
  }

  /** `owner` no longer uses its session under this key (it opened another). */
  release(owner: Element): void {
    if (claims.get(this.key)?.owner.deref() === owner) claims.delete(this.key);
  }

  #heldByOther(owner: Element, sessionId: string): boolean {
    const claim = claims.get(this.key);
    const holder = claim?.owner.deref();
    return !!holder && holder !== owner && holder.isConnected && claim!.sessionId === sessionId;
  }
}

/**
 * What became of a stored session: `resumed`; `gone` (expired, unknown, another table's token:
 * forgotten, open a new one); or `failed` (the Worker could not be reached, or refused this page:
 * the element shows the error; a refusal is forgotten too).
 */
export type ResumeResult = { kind: 'resumed'; value: Resumed } | { kind: 'gone' } | { kind: 'failed'; error: ApiError };

/** Asks the Worker for the stored session's state and the records of its current shoe. Sets the client's token. */
export async function resumeSession(
  api: ApiClient,
  store: SessionStore,
  stored: StoredSession,
  room: string,
  affiliate: string | null,
  launched = false,
): Promise<ResumeResult> {
  api.token = stored.token;
  const state: ApiResult<ReadSessionView> = await api.send(apiCalls.sessionState(stored.sessionId));
  let records: Signed[] = [];
  let failed = state.ok ? null : state.error;
  if (state.ok) {
    const view = state.value;
    // The key names the room and affiliate; an answer for another table is treated as unknown,
    // and a pb-fair-1 session (its changes answer protocol_retired) as gone.
    // A launched session's room is the launch's; it must be a wallet session, and a play table's must not.
    const wrongKind = launched ? !view?.wallet : view?.room !== room || Boolean(view.wallet);
    if (view?.sessionId !== stored.sessionId || wrongKind || !view.shoe || !view.limits || view.protocol !== 'pb-fair-2') {
      failed = { code: 'session_expired', message: 'another table, or a retired protocol', status: 404, retryable: false };
    } else if (view.shoe.rounds > 0) {
      const answer = await api.send(apiCalls.transcript(stored.sessionId));
      if (!answer.ok) failed = answer.error;
      else records = Array.isArray(answer.value.records) ? answer.value.records.filter((r) => r?.body?.shoe === view.shoe.number) : [];
    }
    if (!failed) return { kind: 'resumed', value: { stored, view, records } };
  }
  api.token = null;
  let error = failed!;
  // A page the Worker refuses gets no CORS headers, which looks like a dead network: ask why.
  if (error.code === 'unreachable' && error.status === 0) error = (await embedRefusal(api.fetcher, api.endpoint, affiliate)) ?? error;
  if (error.code === 'session_expired' || error.code === 'forbidden' || error.code === 'origin_not_allowed') store.forget(stored.sessionId);
  return error.code === 'session_expired' || error.code === 'forbidden' ? { kind: 'gone' } : { kind: 'failed', error };
}
