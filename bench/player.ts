/**
 * The benches' pb-fair-2 player: its own Ed25519 key, a table session, and rounds in two signed
 * phases (the bet with the lock of a fresh secret, then the secret), over any transport (`Send`:
 * fetch to `wrangler dev`, or Miniflare's dispatchFetch) of the typed client's calls
 * (shared/wire), timing each phase.
 */
import type { CreatedSession } from '../shared/api.ts';
import * as apiCalls from '../shared/wire/http-calls.ts';
import type { ApiCall } from '../shared/wire/http-client.ts';
import {
  betRequest,
  generateSigningKey,
  newRoundSecret,
  playerKeyOf,
  randomLegalBets,
  type RoomId,
  secretRequest,
  type ShoeView,
  type Signed,
  type SigningKey,
  signRequest,
  startRequest,
  type TableLimits,
} from '../shared/index.ts';
import { below } from './random.ts';

/** Sends one API call with the session's token and returns its answer; it throws on a failure. */
export type Send = <T>(call: ApiCall<T>, token?: string) => Promise<T>;

/** A fresh Idempotency-Key for one state-changing call. */
const newKey = (): string => crypto.randomUUID();

const randomBytes = (n: number): Uint8Array => crypto.getRandomValues(new Uint8Array(n));

/** The two phases of a round as timed from the client, in ms. */
export interface RoundTimes {
  bet: number;
  secret: number;
}

export class BenchPlayer {
  readonly #send: Send;
  readonly #key: SigningKey;
  readonly id: string;
  readonly token: string;
  readonly limits: TableLimits;
  balance: number;
  #shoe: ShoeView;
  #last: Signed;

  private constructor(send: Send, key: SigningKey, created: CreatedSession) {
    this.#send = send;
    this.#key = key;
    this.id = created.sessionId;
    this.token = created.token;
    this.limits = created.limits;
    this.balance = created.balance;
    this.#shoe = created.shoe;
    this.#last = created.shoe.commitment;
  }

  /** A new table session with its first shoe started. */
  static async open(send: Send, room: RoomId = 'vip'): Promise<BenchPlayer> {
    const key = (await generateSigningKey('bench-player')).key;
    const p = new BenchPlayer(send, key, await send(apiCalls.createSession({ room, playerKey: playerKeyOf(key) }, newKey())));
    await p.startShoe();
    return p;
  }

  /** A wallet-mode session redeemed from an operator's launch token, its first shoe started. */
  static async launched(send: Send, launchToken: string): Promise<BenchPlayer> {
    const key = (await generateSigningKey('bench-player')).key;
    const p = new BenchPlayer(send, key, await send(apiCalls.launchSession({ launchToken, playerKey: playerKeyOf(key) }, newKey())));
    await p.startShoe();
    return p;
  }

  async startShoe(): Promise<void> {
    const { min, max } = this.#shoe.cutRange;
    const request = await signRequest(startRequest(this.#shoe.commitment, `bench ${Math.random()}`, min + below(max - min + 1)), this.#key);
    const r = await this.#send(apiCalls.startShoe(this.id, request, newKey()), this.token);
    this.#shoe = r.shoe;
    this.#last = r.shoe.start!;
  }

  /** Random legal bets for the balance (of the two smallest chips when `small`, so the money lasts); null when it is spent. */
  bets(small = false) {
    return randomLegalBets(small ? { ...this.limits, chips: this.limits.chips.slice(0, 2) } : this.limits, this.balance, below);
  }

  /** One round, both phases, timed (signing included: it is the player's part of the latency); the next shoe started when this one ended. */
  async round(small = false): Promise<RoundTimes | null> {
    const bets = this.bets(small);
    if (bets === null) return null;
    const secret = newRoundSecret(randomBytes);
    let t = performance.now();
    const bet = await signRequest(betRequest(this.#last, this.#shoe.rounds + 1, bets, secret), this.#key);
    const accepted = await this.#send(apiCalls.placeBet(this.id, bet, newKey()), this.token);
    const betMs = performance.now() - t;
    t = performance.now();
    const reveal = await signRequest(secretRequest(accepted.acceptance, secret), this.#key);
    const r = await this.#send(apiCalls.revealSecret(this.id, reveal, newKey()), this.token);
    const secretMs = performance.now() - t;
    this.balance = r.balance;
    this.#last = r.receipt;
    this.#shoe = { ...this.#shoe, rounds: r.shoe.rounds };
    if (r.nextShoe) {
      this.#shoe = r.nextShoe;
      await this.startShoe();
    }
    return { bet: betMs, secret: secretMs };
  }
}
