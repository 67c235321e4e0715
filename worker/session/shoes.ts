/**
 * A table session's shoes: a fresh server seed and its signed commitment, the reveal that ends a
 * shoe and the next shoe chained to it, the rows of that ending, and the shoe's remaining stack
 * before its next round. The server seed never leaves here before the shoe's signed reveal.
 */
import {
  buildCommitment,
  buildReveal,
  CARDS_PER_DECK,
  type Commitment,
  dealAcceptedRound,
  type EndRequest,
  newServerSeed,
  type Receipt,
  type RevealReason,
  type Reveal,
  ROOMS,
  type ShoeParams,
  type ShoeState,
  type SignedRequest,
  type Signed,
  signRecord,
  startShoe,
  type TableLimits,
} from '../../shared/index.ts';
import { signingKey } from '../keys/keys.ts';
import type { WalletTerms } from '../wallet/wallet-session.ts';
import { iso, type SessionParts } from './parts.ts';
import { type SessionRow, type SessionState, type ShoeRow, stateAfter } from './store.ts';

/** A new shoe: its seed (kept here) and its signed commitment. */
export interface NextShoe {
  number: number;
  params: ShoeParams;
  serverSeed: string;
  commitment: Signed<Commitment>;
}

/** A shoe's end: its reveal, and the next shoe. */
export interface Ending {
  reveal: Signed<Reveal>;
  next: NextShoe;
}

/** The cuts a pb-fair-2 player may choose: 1 … N − 1 (FAIRNESS.md §B5). */
export function cutRangeV2(params: ShoeParams): { min: number; max: number } {
  return { min: 1, max: params.decks * CARDS_PER_DECK - 1 };
}

const randomBytes = (n: number): Uint8Array => crypto.getRandomValues(new Uint8Array(n));

export class Shoes {
  readonly #parts: SessionParts;
  /** The current shoe's state after its settled rounds (the remaining stack: server-side only), by shoe and settled count. */
  #dealt: { shoe: number; settled: number; state: ShoeState } | null = null;

  constructor(parts: SessionParts) {
    this.#parts = parts;
  }

  /** A fresh server seed for shoe `number` and its signed commitment (the seed stays here). */
  async commit(a: {
    table: string;
    number: number;
    params: ShoeParams;
    limits: TableLimits;
    playerKey: string;
    openingBalance: number;
    prev: string | null;
    now: string;
    /** Wallet mode: the operator, player and currency every commitment of the session names. */
    wallet?: WalletTerms['wallet'];
  }): Promise<NextShoe> {
    const serverSeed = newServerSeed(randomBytes);
    const key = await signingKey(this.#parts.env);
    const body = buildCommitment({
      table: a.table,
      shoe: a.number,
      keyId: key.keyId,
      params: a.params,
      limits: a.limits,
      serverSeed,
      playerKey: a.playerKey,
      openingBalance: a.openingBalance,
      prev: a.prev,
      issuedAt: a.now,
      ...(a.wallet ? { wallet: a.wallet } : {}),
    });
    const commitment = await signRecord(body, key);
    return { number: a.number, params: a.params, serverSeed, commitment };
  }

  /** The reveal of `shoe` after `last` (saying who ended it), and the next shoe's commitment opening with the closing balance. */
  async endAndCommit(
    session: SessionRow,
    shoe: ShoeRow,
    last: Signed,
    reason: RevealReason,
    closingBalance: number,
    request?: SignedRequest<EndRequest>,
  ): Promise<Ending> {
    const key = await signingKey(this.#parts.env);
    const now = iso(this.#parts.now());
    const reveal = await signRecord(
      buildReveal({
        last,
        serverSeed: shoe.serverSeed,
        rounds: session.shoeRounds,
        reason,
        ...(request ? { request } : {}),
        closingBalance,
        keyId: key.keyId,
        issuedAt: now,
      }),
      key,
    );
    const terms = this.#parts.walletTerms();
    const next = await this.commit({
      table: session.sessionId,
      number: shoe.number + 1,
      params: shoe.params,
      limits: terms ? terms.limits : ROOMS[session.room].limits,
      ...(terms ? { wallet: terms.wallet } : {}),
      playerKey: session.playerKey!,
      openingBalance: closingBalance,
      prev: reveal.hash,
      now,
    });
    return { reveal, next };
  }

  /**
   * The rows of a shoe's end after the record that left the session in `state`: its reveal
   * (unless `appendReveal` is false: it answers the request, appended already), the shoe ended,
   * the next shoe and its commitment, which opens the session's state for that shoe.
   */
  writeEnding(shoeNumber: number, ending: Ending, state: SessionState, appendReveal = true): void {
    const store = this.#parts.store;
    const revealed = stateAfter(state, { pendingRound: null, dueAt: null });
    if (appendReveal) store.appendRecord(ending.reveal, revealed);
    store.endShoe(shoeNumber, ending.reveal);
    store.insertShoe(ending.next);
    store.appendRecord(ending.next.commitment, stateAfter(revealed, { shoeRounds: 0 }));
  }

  /**
   * The shoe's state before its next round: the remaining stack after the settled rounds. Kept in
   * memory; rebuilt after a restart by replaying the shoe's receipts (each names its secret and
   * acceptance), which is what a verifier does after the reveal.
   */
  stateOf(shoe: ShoeRow): ShoeState {
    const receipts = () => this.#parts.store.records(shoe.number).filter((x) => x.body.type === 'receipt') as Signed<Receipt>[];
    if (this.#dealt?.shoe === shoe.number) return this.#dealt.state;
    let state = startShoe(shoe.params, shoe.serverSeed, shoe.clientSeed!, shoe.cut!);
    for (const r of receipts()) {
      const q = r.body.request.body;
      state = dealAcceptedRound(shoe.params, state, shoe.serverSeed, shoe.cut!, q.secret, q.acceptance).state;
    }
    this.#dealt = { shoe: shoe.number, settled: state.rounds, state };
    return state;
  }

  /** After a settled round: the shoe's state for the next one (null: the shoe ended, nothing kept). */
  dealt(shoe: number, state: ShoeState | null): void {
    this.#dealt = state === null ? null : { shoe, settled: state.rounds, state };
  }
}
