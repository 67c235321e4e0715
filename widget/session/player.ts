/**
 * The player's side of pb-fair-2 (FAIRNESS.md part II) in the widget: the player's Ed25519 key,
 * the signed requests, the round secret kept across a reload, and the player's own copy of the
 * records it received. Pure builders come from shared/fairness/v2; this module only keeps things
 * in the tab's sessionStorage beside the session (session-store.ts), so a reload resumes with the
 * same key, finishes a round from its stored secret and still holds the copy.
 *
 * Storage, per table entry `<key>` (the session's entry):
 *   `<key>` itself           the session id, token and the player's private JWK (session-store.ts);
 *   `<key>:round`            the round in flight: its bets, secret, signed requests, idempotency keys;
 *   `<key>:copy`             the player's copy: every record received and the requests not yet answered.
 * The copy is bounded (MAX_COPY_RECORDS, and whatever the storage quota allows): when it is full
 * the oldest shoes are dropped first, whole, and the copy says from which shoe it starts
 * (`droppedBefore`); the operator's transcript still holds them. A storage that throws makes every
 * write a no-op: the copy then lives only as long as the page.
 */
import { generateSigningKey, importSigningKey, type SigningKey } from '../../shared/fairness/common/keys.ts';
import { newRoundSecret } from '../../shared/fairness/pb-fair-2/derive.ts';
import { betRequest, endRequest, secretRequest, startRequest } from '../../shared/fairness/pb-fair-2/operator.ts';
import {
  type Acceptance,
  type BetRequest,
  type Commitment,
  type FairnessFile,
  playerKeyOf,
  type SecretRequest,
  type SignedRequest,
  type Signed,
  signRequest,
} from '../../shared/fairness/pb-fair-2/records.ts';
import type { Bet } from '../../shared/table.ts';
import type { StorageLike } from './session-store.ts';

export { playerKeyOf };
export type { SigningKey };

/** Most records kept in the player's copy (about 1 KB each; the oldest shoes go first). */
export const MAX_COPY_RECORDS = 1500;

/** A new player key and its private JWK (what the session entry stores). */
export async function newPlayerKey(): Promise<{ key: SigningKey; jwk: JsonWebKey }> {
  const { key, privateJwk } = await generateSigningKey();
  return { key, jwk: privateJwk };
}

/** The player key back from its stored JWK; null when it is unusable. */
export async function restorePlayerKey(jwk: unknown): Promise<SigningKey | null> {
  try {
    return jwk && typeof jwk === 'object' ? await importSigningKey(jwk) : null;
  } catch {
    return null;
  }
}

const randomBytes = (n: number): Uint8Array => crypto.getRandomValues(new Uint8Array(n));

export const signStart = (key: SigningKey, commitment: Signed<Commitment>, clientSeed: string, cut: number) =>
  signRequest(startRequest(commitment, clientSeed, cut), key);
export const signEnd = (key: SigningKey, head: Signed) => signRequest(endRequest(head), key);
export const signSecret = (key: SigningKey, acceptance: Signed<Acceptance>, secret: string) => signRequest(secretRequest(acceptance, secret), key);

/** A round the player is playing: kept before the bet is sent, so a reload can finish it. */
export interface RoundInFlight {
  sessionId: string;
  bets: Bet[];
  secret: string;
  bet: SignedRequest<BetRequest>;
  betKey: string;
  secretKey: string;
  acceptance?: Signed<Acceptance>;
  reveal?: SignedRequest<SecretRequest>;
}

/** Draws the round's secret and signs the bet request that locks it (round `round`, after `head`). */
export async function newRound(
  key: SigningKey,
  sessionId: string,
  head: Signed,
  round: number,
  bets: Bet[],
  keys: { betKey: string; secretKey: string },
): Promise<RoundInFlight> {
  const secret = newRoundSecret(randomBytes);
  return { sessionId, bets, secret, bet: await signRequest(betRequest(head, round, bets, secret), key), ...keys };
}

function read<T>(storage: StorageLike | null, key: string): T | null {
  try {
    const raw = storage?.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

function write(storage: StorageLike | null, key: string, value: unknown): boolean {
  try {
    if (value === null) storage?.removeItem(key);
    else storage?.setItem(key, JSON.stringify(value));
    return !!storage;
  } catch {
    return false;
  }
}

/** The round in flight of the table entry `entry` (null: none, or another session's). */
export function storedRound(storage: StorageLike | null, entry: string, sessionId: string): RoundInFlight | null {
  const r = read<RoundInFlight>(storage, `${entry}:round`);
  return r?.sessionId === sessionId && typeof r.secret === 'string' && r.bet?.body?.type === 'bet' ? r : null;
}

/**
 * The round a reopened session goes on with: the stored round in flight when the Worker holds its
 * acceptance (it is finished from the stored secret); else none, and the round the Worker holds,
 * if any, is an orphan this tab cannot finish (it voids at `voidAt`); a stored round the Worker
 * never accepted is forgotten.
 */
export function resumedRound<P extends { acceptance: Signed<Acceptance> }>(
  storage: StorageLike | null,
  entry: string | null,
  sessionId: string,
  pending: P | null,
): { round: RoundInFlight | null; orphan: P | null } {
  const stored = entry ? storedRound(storage, entry, sessionId) : null;
  if (pending && stored && stored.bet.body.lock === pending.acceptance.body.request.body.lock)
    return { round: { ...stored, acceptance: pending.acceptance }, orphan: null };
  if (stored && entry) keepRound(storage, entry, null);
  return { round: null, orphan: pending };
}

/** Keeps (or, with null, forgets) the round in flight. False when it could not be stored. */
export function keepRound(storage: StorageLike | null, entry: string, round: RoundInFlight | null): boolean {
  return write(storage, `${entry}:round`, round);
}

/** The player's own copy of a session's records (a FairnessFile with `sent`), kept as records arrive. */
export class PlayerCopy {
  readonly sessionId: string;
  records: Signed[] = [];
  sent: SignedRequest[] = [];
  /** Shoes before this one were dropped to stay within bounds (null: nothing dropped). */
  droppedBefore: number | null = null;
  #storage: StorageLike | null;
  #key: string | null;

  constructor(sessionId: string, storage: StorageLike | null, entry: string | null) {
    this.sessionId = sessionId;
    this.#storage = storage;
    this.#key = entry && `${entry}:copy`;
    const stored = this.#key ? read<{ sessionId: string; records: Signed[]; sent: SignedRequest[]; droppedBefore?: number | null }>(storage, this.#key) : null;
    if (stored?.sessionId === sessionId && Array.isArray(stored.records)) {
      this.records = stored.records;
      this.sent = Array.isArray(stored.sent) ? stored.sent : [];
      this.droppedBefore = stored.droppedBefore ?? null;
    }
  }

  /** Records received (each kept once, by hash); a request they embed is no longer only "sent". */
  add(...records: (Signed | null | undefined)[]): void {
    let changed = false;
    for (const r of records) {
      if (!r?.hash || this.records.some((x) => x.hash === r.hash)) continue;
      this.records.push(r);
      const embedded = (r.body as { request?: SignedRequest }).request;
      if (embedded) this.sent = this.sent.filter((q) => q.signature !== embedded.signature);
      changed = true;
    }
    if (changed) this.#save();
  }

  /** A request sent that no record answers yet. */
  sending(request: SignedRequest): void {
    if (this.sent.some((q) => q.signature === request.signature)) return;
    if (this.records.some((r) => (r.body as { request?: SignedRequest }).request?.signature === request.signature)) return;
    this.sent.push(request);
    this.#save();
  }

  /** A request the Worker refused: nothing will answer it. */
  unsent(request: SignedRequest): void {
    const before = this.sent.length;
    this.sent = this.sent.filter((q) => q.signature !== request.signature);
    if (this.sent.length !== before) this.#save();
  }

  /** The copy as a file: records in the order they arrived (the chain's), and `sent`. */
  file(): FairnessFile & { sent: SignedRequest[] } {
    return { version: 'pb-fair-2', records: [...this.records], sent: [...this.sent] };
  }

  #save(): void {
    for (;;) {
      if (this.records.length > MAX_COPY_RECORDS && this.#dropOldestShoe()) continue;
      if (
        !this.#key ||
        write(this.#storage, this.#key, { sessionId: this.sessionId, records: this.records, sent: this.sent, droppedBefore: this.droppedBefore })
      )
        return;
      // The quota is reached: drop the oldest shoe and try again (never the shoe in play).
      if (!this.#dropOldestShoe()) return;
    }
  }

  #dropOldestShoe(): boolean {
    const first = this.records[0]?.body.shoe;
    if (first === undefined || this.records.every((r) => r.body.shoe === first)) return false;
    this.records = this.records.filter((r) => r.body.shoe !== first);
    this.droppedBefore = first + 1;
    return true;
  }
}
