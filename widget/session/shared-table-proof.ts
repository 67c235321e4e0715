/**
 * A player's check of its own bet at a pb-shared-2 shared table (FAIRNESS.md §D6): when the close
 * and this session's inclusion proof have both arrived, `checkMyBet` (shared code, no BLS) checks
 * the close's hash and, once the operator's keys are loaded, its signature; that the bet is the one
 * this session signed for the round; and that the proof leads from it to the root the close signed.
 * The result is what the fairness line shows. A pb-shared-1 close (which lists the bets) has no
 * proof: nothing is shown.
 */
import type { Jwks } from '../../shared/fairness/common/keys.ts';
import type { SharedBetRequest, SignedSharedRequest } from '../../shared/fairness/pb-shared-1/records.ts';
import type { BetProof, MerkleClose, Signed2 } from '../../shared/fairness/pb-shared-2/records.ts';
import type { MyBetCode } from '../../shared/fairness/pb-shared-2/tree.ts';
import type { SharedCloseRecord } from '../../shared/wire/shared-table-socket.ts';

/** The state of the check for the latest closed round the player bet in. */
export type ProofCheckView =
  | { state: 'checking'; round: number }
  /** `position`: the bet's place in the close, counted from 1 (its leaf + 1), of `count`. */
  | { state: 'ok'; round: number; position: number; count: number }
  | { state: 'failed'; round: number; code: MyBetCode };

/** The operator's keys: fetched once, null when they could not be (the check runs without the signature then). */
export type KeysSource = () => Promise<Jwks | null>;

export class BetProofCheck {
  #close: Signed2<MerkleClose> | null = null;
  #proof: { round: number; proof: BetProof } | null = null;
  #view: ProofCheckView | null = null;
  #run = 0;
  readonly #keys: KeysSource;
  readonly #changed: () => void;

  constructor(keys: KeysSource, changed: () => void) {
    this.#keys = keys;
    this.#changed = changed;
  }

  /** What the fairness line shows, or null (no pb-shared-2 round with a bet of this player yet). */
  get view(): ProofCheckView | null {
    return this.#view;
  }

  /** A close arrived: a pb-shared-2 close is kept until this session's proof for its round arrives. */
  closed(close: SharedCloseRecord, bet: SignedSharedRequest<SharedBetRequest> | null, player: string | null): void {
    if (!('betsRoot' in close.body)) return;
    this.#close = close as Signed2<MerkleClose>;
    if (this.#proof && this.#proof.round !== close.body.round) this.#proof = null;
    this.#check(bet, player);
  }

  /** This session's proof for a round arrived (the `proof` message, or `you.proof` in a state). */
  proved(round: number, proof: BetProof, bet: SignedSharedRequest<SharedBetRequest> | null, player: string | null): void {
    this.#proof = { round, proof };
    this.#check(bet, player);
  }

  /** A new shoe, or another table: nothing of the old rounds is shown. */
  reset(): void {
    this.#close = null;
    this.#proof = null;
    this.#view = null;
    this.#run++;
  }

  #check(bet: SignedSharedRequest<SharedBetRequest> | null, player: string | null): void {
    const close = this.#close;
    const proof = this.#proof;
    if (!close || !proof || proof.round !== close.body.round || !bet || player === null) return;
    const round = close.body.round;
    const run = ++this.#run;
    this.#view = { state: 'checking', round };
    this.#changed();
    void (async () => {
      // The check and its hashing load with the first proof: a table that never sees one never loads them.
      const [{ checkMyBet }, keys] = await Promise.all([import('../../shared/fairness/pb-shared-2/tree.ts'), this.#keys().catch(() => null)]);
      const r = await checkMyBet({ close, bet, proof: proof.proof, player, ...(keys ? { keys } : {}) });
      if (run !== this.#run) return;
      this.#view = r.ok ? { state: 'ok', round, position: r.value.leaf + 1, count: close.body.betCount } : { state: 'failed', round, code: r.error.code };
      this.#changed();
    })();
  }
}
