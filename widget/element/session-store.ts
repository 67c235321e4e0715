/**
 * Resuming a table after a page reload (lazy chunk). The element remembers its session — the id
 * and the bearer token, nothing else — in `sessionStorage`: per tab, kept across reloads, never
 * shared with another tab. The key is the resolved Worker URL, the room and the affiliate, so a
 * table resumes only a session of its own Worker, room and partner. Storage that is missing or
 * throws (sandboxed iframes, privacy modes, a full quota) makes every call a silent no-op: the
 * table then opens a new session, as it always did.
 *
 * Two tables of one page with the same key share one entry: the first to boot claims it (claims
 * are per page, in memory); the others open new sessions and leave the entry alone.
 *
 * On boot the element asks the Worker for the stored session's state (GET /api/sessions/:id) and
 * the receipts of its current shoe (API.md "The session's state", "Receipts").
 */
import type { ApiClient, ApiError } from './api-client.ts';
import { embedRefusal } from './embed.ts';
import type { ReceiptBody, ShoeState, Signed } from './api-types.ts';
import type { RoomId, TableLimits } from '../../shared/table.ts';

/** What is kept for a table: its session's id and bearer token. */
export interface StoredSession {
  sessionId: string;
  token: string;
}

/** `GET /api/sessions/:id` → 200 (the creation answer minus the token). */
export interface SessionView {
  sessionId: string;
  room: RoomId;
  balance: number;
  limits: TableLimits;
  shoe: ShoeState;
  lastReceipt: Signed<ReceiptBody> | null;
}

/** A resumed session: its state and the receipts of its current shoe, in round order. */
export interface Resumed {
  stored: StoredSession;
  view: SessionView;
  receipts: Signed<ReceiptBody>[];
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
      return value && text(value.sessionId) && text(value.token) ? { sessionId: value.sessionId, token: value.token } : null;
    } catch {
      return null;
    }
  }

  /** Remembers `session` (only its id and token). */
  save(session: StoredSession): void {
    try {
      this.#storage?.setItem(this.key, JSON.stringify({ sessionId: session.sessionId, token: session.token }));
    } catch {
      // no storage, or full: the next page load opens a new session
    }
  }

  /** Forgets the stored session if it is `sessionId` (another table may have stored its own since). */
  forget(sessionId: string): void {
    try {
      if (this.read()?.sessionId === sessionId) this.#storage?.removeItem(this.key);
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

/** Asks the Worker for the stored session's state and the receipts of its current shoe. Sets the client's token. */
export async function resumeSession(api: ApiClient, store: SessionStore, stored: StoredSession, room: string, affiliate: string | null): Promise<ResumeResult> {
  const path = `api/sessions/${encodeURIComponent(stored.sessionId)}`;
  api.token = stored.token;
  const state = await api.send<SessionView>({ method: 'GET', path });
  let receipts: Signed<ReceiptBody>[] = [];
  let failed = state.ok ? null : state.error;
  if (state.ok) {
    const view = state.value;
    // The key names the room and affiliate; an answer for another table is treated as unknown.
    if (view?.sessionId !== stored.sessionId || view.room !== room || !view.shoe || !view.limits) failed = { code: 'session_expired', message: 'another table', status: 404, retryable: false };
    else if (view.shoe.rounds > 0) {
      const answer = await api.send<{ shoe: number; receipts: Signed<ReceiptBody>[] }>({ method: 'GET', path: `${path}/receipts?shoe=${view.shoe.number}` });
      if (!answer.ok) failed = answer.error;
      else receipts = Array.isArray(answer.value.receipts) ? answer.value.receipts.filter((r) => r?.body?.shoe === view.shoe.number) : [];
    }
    if (!failed) return { kind: 'resumed', value: { stored, view, receipts } };
  }
  api.token = null;
  let error = failed!;
  // A page the Worker refuses gets no CORS headers, which looks like a dead network: ask why.
  if (error.code === 'unreachable' && error.status === 0) error = (await embedRefusal(api.fetcher, api.endpoint, affiliate)) ?? error;
  if (error.code === 'session_expired' || error.code === 'forbidden' || error.code === 'origin_not_allowed') store.forget(stored.sessionId);
  return error.code === 'session_expired' || error.code === 'forbidden' ? { kind: 'gone' } : { kind: 'failed', error };
}
