/**
 * A player's checks of its own part at a pb-shared-2 shared table (FAIRNESS.md §D6), shared code
 * with no BLS, loaded with the first proof:
 *  - its bet: when the close and this session's inclusion proof have both arrived, `checkMyBet`
 *    checks the close's hash and, once the operator's keys are loaded, its signature; that the bet
 *    is the one this session signed for the round; and that the proof leads from it to the root;
 *  - its seed and cut: when the shoe's start and this session's start proof have both arrived,
 *    `checkMyStart` checks the start the same way against the start request this session signed,
 *    so the player knows its own seed went into the shoe the rounds are dealt from.
 * The result is what the fairness line shows; a failed start check is shown as a failed bet
 * check is, and takes its place (the shoe itself is in question). A pb-shared-1 close or start
 * (which lists the requests) has no proof: nothing is shown.
 */
import type { Jwks } from '../../shared/fairness/common/keys.ts';
import type { SharedBetRequest, SharedStartRequest, SignedSharedRequest } from '../../shared/fairness/pb-shared-1/records.ts';
import type { BetProof, MerkleClose, MerkleStart, Signed2 } from '../../shared/fairness/pb-shared-2/records.ts';
import type { MyStartCode } from '../../shared/fairness/pb-shared-2/start.ts';
import type { MyBetCode } from '../../shared/fairness/pb-shared-2/tree.ts';
import type { SharedCloseRecord, SharedStartRecord } from '../../shared/wire/shared-table-socket.ts';

/** The state of the check for the latest closed round the player bet in, or of a start proof that failed. */
export type ProofCheckView =
  | { state: 'checking'; round: number }
  /** `position`: the bet's place in the close, counted from 1 (its leaf + 1), of `count`. */
  | { state: 'ok'; round: number; position: number; count: number }
  | { state: 'failed'; round: number; code: MyBetCode }
  /** The proof of this session's start request did not check against the shoe's signed start. */
  | { state: 'failed'; shoe: number; code: MyStartCode; start: true };

/** The start check's own state: `clientSeed` is the shoe's (from the start's root) once it checks. */
export type StartCheckView =
  | { state: 'checking'; shoe: number }
  | { state: 'ok'; shoe: number; position: number; count: number; clientSeed: string }
  | { state: 'failed'; shoe: number; code: MyStartCode };

/** The operator's keys: fetched once, null when they could not be (the check runs without the signature then). */
export type KeysSource = () => Promise<Jwks | null>;

type BetRequest = SignedSharedRequest<SharedBetRequest>;
type StartRequest = SignedSharedRequest<SharedStartRequest>;

export class BetProofCheck {
  #close: Signed2<MerkleClose> | null = null;
  #proof: { round: number; proof: BetProof } | null = null;
  #view: ProofCheckView | null = null;
  #start: Signed2<MerkleStart> | null = null;
  #startProof: { shoe: number; proof: BetProof } | null = null;
  #startView: StartCheckView | null = null;
  #run = 0;
  #startRun = 0;
  readonly #keys: KeysSource;
  readonly #changed: () => void;

  constructor(keys: KeysSource, changed: () => void) {
    this.#keys = keys;
    this.#changed = changed;
  }

  /** What the fairness line shows, or null (no pb-shared-2 round with a bet of this player yet): a failed start check first. */
  get view(): ProofCheckView | null {
    const s = this.#startView;
    return s?.state === 'failed' ? { state: 'failed', shoe: s.shoe, code: s.code, start: true } : this.#view;
  }

  /** The check of this session's seed and cut in the shoe's start, or null (none yet). */
  get startView(): StartCheckView | null {
    return this.#startView;
  }

  /** A close arrived: a pb-shared-2 close is kept until this session's proof for its round arrives. */
  closed(close: SharedCloseRecord, bet: BetRequest | null, player: string | null): void {
    if (!('betsRoot' in close.body)) return;
    this.#close = close as Signed2<MerkleClose>;
    if (this.#proof && this.#proof.round !== close.body.round) this.#proof = null;
    this.#check(bet, player);
  }

  /** This session's proof for a round arrived (the `proof` message, or `you.proof` in a state). */
  proved(round: number, proof: BetProof, bet: BetRequest | null, player: string | null): void {
    this.#proof = { round, proof };
    this.#check(bet, player);
  }

  /** The shoe's start arrived (with its first close, or in a state): a pb-shared-2 start is kept until this session's start proof arrives. */
  started(start: SharedStartRecord, request: StartRequest | null, player: string | null): void {
    if (!('startsRoot' in start.body) || this.#start?.hash === start.hash) return;
    this.#start = start as Signed2<MerkleStart>;
    if (this.#startProof && this.#startProof.shoe !== start.body.shoe) this.#startProof = null;
    this.#checkStart(request, player);
  }

  /** This session's start proof arrived (the `start-proof` message, or `you.startProof` in a state). */
  startProved(shoe: number, proof: BetProof, request: StartRequest | null, player: string | null): void {
    if (this.#startProof?.shoe === shoe && this.#startView) return;
    this.#startProof = { shoe, proof };
    this.#checkStart(request, player);
  }

  /** A new shoe, or another table: nothing of the old rounds is shown. */
  reset(): void {
    this.#close = null;
    this.#proof = null;
    this.#view = null;
    this.#start = null;
    this.#startProof = null;
    this.#startView = null;
    this.#run++;
    this.#startRun++;
  }

  #check(bet: BetRequest | null, player: string | null): void {
    const close = this.#close;
    const proof = this.#proof;
    if (!close || !proof || proof.round !== close.body.round || !bet || player === null) return;
    const round = close.body.round;
    const run = ++this.#run;
    this.#view = { state: 'checking', round };
    this.#changed();
    void this.#checked(async ({ checkMyBet }, keys) => {
      const r = await checkMyBet({ close, bet, proof: proof.proof, player, ...(keys ? { keys } : {}) });
      if (run !== this.#run) return;
      this.#view = r.ok ? { state: 'ok', round, position: r.value.leaf + 1, count: close.body.betCount } : { state: 'failed', round, code: r.error.code };
    });
  }

  #checkStart(request: StartRequest | null, player: string | null): void {
    const start = this.#start;
    const proof = this.#startProof;
    if (!start || !proof || proof.shoe !== start.body.shoe || !request || request.body.shoe !== start.body.shoe || player === null) return;
    const shoe = start.body.shoe;
    const run = ++this.#startRun;
    this.#startView = { state: 'checking', shoe };
    void this.#checked(async ({ checkMyStart }, keys) => {
      const r = await checkMyStart({ start, request, proof: proof.proof, player, ...(keys ? { keys } : {}) });
      if (run !== this.#startRun) return;
      this.#startView = r.ok
        ? { state: 'ok', shoe, position: r.value.leaf + 1, count: start.body.startCount, clientSeed: r.value.clientSeed }
        : { state: 'failed', shoe, code: r.error.code };
    });
  }

  /** Loads the checks (their hashing loads with the first proof: a table that never sees one never loads them) and the keys, runs one, says so. */
  async #checked(
    run: (
      checks: typeof import('../../shared/fairness/pb-shared-2/start.ts') & typeof import('../../shared/fairness/pb-shared-2/tree.ts'),
      keys: Jwks | null,
    ) => Promise<void>,
  ) {
    const [tree, start, keys] = await Promise.all([
      import('../../shared/fairness/pb-shared-2/tree.ts'),
      import('../../shared/fairness/pb-shared-2/start.ts'),
      this.#keys().catch(() => null),
    ]);
    await run({ ...tree, ...start }, keys);
    this.#changed();
  }
}
