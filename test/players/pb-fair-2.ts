/**
 * A whole table played and signed by both sides in one call: the reference for how pb-fair-2
 * records fit together (the Worker and the widget do the same step by step). Used by the tests,
 * the golden vectors and the conformance generator; `mutate` lets the generator change a body
 * before it is signed (everything after it then follows the changed record, as a dishonest
 * operator's would).
 */
import { type Bet, type TableLimits, totalStake } from '../../shared/table.ts';
import type { SigningKey } from '../../shared/fairness/common/keys.ts';
import { startShoe, type ShoeState } from '../../shared/fairness/pb-fair-2/derive.ts';
import {
  betRequest,
  buildAcceptance,
  buildCommitment,
  buildReceipt,
  buildReveal,
  buildStart,
  buildVoid,
  endRequest,
  revealDue,
  secretRequest,
  startRequest,
} from '../../shared/fairness/pb-fair-2/operator.ts';
import type { ShoeParams } from '../../shared/fairness/pb-fair-2/params.ts';
import { buildTransfer, TRANSFER_WALLET_MEMBER, type TransferAsk, type TransferWallet } from '../../shared/fairness/pb-fair-2/transfer.ts';
import { sharedTransactionId, walletTransactionIds } from '../../shared/fairness/pb-fair-2/wallet.ts';
import {
  type Acceptance,
  type Commitment,
  type FairnessFile,
  type PlayerRequest,
  playerKeyOf,
  type FileRecord,
  type RevealReason,
  type SignedRequest,
  type Signed,
  signRecord,
  signRequest,
  type WalletOfShoe,
} from '../../shared/fairness/pb-fair-2/records.ts';

/**
 * A shared table's movement (§B14). In wallet mode (§B15) its record carries the wallet call of its
 * kind; `walletMoved`: how the wallet's balance moved since the table's last record, before a debit.
 */
export type TransferScript = TransferAsk & { walletMoved?: number };

export interface RoundScript {
  bets: Bet[];
  /** The round's 32-byte secret, hex. */
  secret: string;
  /** settle (default); void: the player never reveals; unsettled: the player reveals, the operator never settles; pending: nothing after the acceptance. */
  fate?: 'settle' | 'void' | 'unsettled' | 'pending';
  /** Shared-table transfers recorded before this round's acceptance (§B14). */
  transfersBefore?: TransferScript[];
  /** What the bet request follows after transfers: the newest record (default), or the newest one the player saw before them. */
  betFollows?: 'head' | 'seen';
  /** Wallet mode: debits the wallet refused (or whose outcome was unknown) before this round's, each using up an attempt. */
  failedDebitsBefore?: number;
  /** Wallet mode: how the wallet's balance moved (deposits, other games) since the table's last record, before this round's debit. */
  walletMoved?: number;
}

export interface ShoeScript {
  params: ShoeParams;
  limits?: TableLimits;
  serverSeed: string;
  clientSeed: string;
  cut: number;
  affiliate?: string | null;
  /** Rounds to play; in shoe mode play stops at the cut card whatever is left. */
  rounds: RoundScript[];
  /** How the shoe ends: a reveal reason, or "open" (not revealed). Default: cut-card / reshuffle-limit when reached, else player. */
  end?: RevealReason | 'open';
  /** Shared-table transfers recorded right after the commitment, and after the last round (before the reveal, if any). */
  transfersBeforeStart?: TransferScript[];
  transfersBeforeEnd?: TransferScript[];
  /** What the player's end request follows after transfers (as `betFollows`). */
  endFollows?: 'head' | 'seen';
}

export interface PlayPrivateTableOptions {
  table: string;
  operatorKey: SigningKey;
  playerKey: SigningKey;
  openingBalance: number;
  shoes: ShoeScript[];
  /** The first shoe's number (default 1) and prev (default null). */
  firstShoe?: number;
  prev?: string | null;
  /** Time of the first record, ms since the epoch; each record is one second after the last (voids and timeouts wait). */
  startTime?: number;
  /** Wallet mode (§B15): every shoe names this wallet, every round carries its debit and credit or rollback. */
  wallet?: WalletOfShoe;
  mutate?: (m: { index: number; kind: 'record' | 'request'; body: FileRecord | PlayerRequest }) => void;
}

/** The operator's file and what the player sent without an answer (its `sent`). */
export async function playPrivateTable(o: PlayPrivateTableOptions): Promise<FairnessFile & { sent: SignedRequest[] }> {
  const table = new ReferenceTable(o);
  for (let si = 0; si < o.shoes.length; si++) {
    if (await table.playShoe(o.shoes[si]!, (o.firstShoe ?? 1) + si)) break;
  }
  return { version: 'pb-fair-2', records: table.records, sent: table.sent };
}

/** A shoe in play: its script, its commitment and cut, the cards left, the newest record, the rounds accepted. */
interface ShoeInPlay {
  script: ShoeScript;
  commitment: Signed<Commitment>;
  cut: number;
  state: ShoeState;
  last: Signed;
  accepted: number;
  /** Wallet mode: the last debit attempt of the shoe. */
  attempts: number;
  /** Why the shoe must end, once a round reached the cut card or the round limit. */
  reached: RevealReason | null;
}

/** Both sides of one table: the operator's records and clock, the balance, the player's requests. */
class ReferenceTable {
  readonly records: Signed[] = [];
  readonly sent: SignedRequest[] = [];
  readonly #o: PlayPrivateTableOptions;
  readonly #opId: string;
  readonly #mutate: NonNullable<PlayPrivateTableOptions['mutate']>;
  #now: number;
  #balance: number;
  #prev: string | null;

  constructor(o: PlayPrivateTableOptions) {
    this.#o = o;
    this.#opId = o.operatorKey.keyId;
    this.#mutate = o.mutate ?? (() => {});
    this.#now = o.startTime ?? Date.UTC(2025, 0, 1, 12, 0, 0);
    this.#balance = o.openingBalance;
    this.#prev = o.prev ?? null;
  }

  #at(): string {
    return new Date(this.#now).toISOString();
  }

  /** The operator signs the next record, one second after the last. */
  async #sign<T extends FileRecord>(body: T): Promise<Signed<T>> {
    this.#mutate({ index: this.records.length, kind: 'record', body });
    const s = await signRecord(body, this.#o.operatorKey);
    this.records.push(s);
    this.#now += 1000;
    return s;
  }

  async #request<T extends PlayerRequest>(body: T): Promise<SignedRequest<T>> {
    this.#mutate({ index: this.records.length, kind: 'request', body });
    return signRequest(body, this.#o.playerKey);
  }

  /** Records the transfers of `asks` after `last`; returns the newest record. */
  async #transfer(asks: TransferScript[] | undefined, last: Signed): Promise<Signed> {
    for (const { walletMoved, ...ask } of asks ?? []) {
      let balanceBefore = this.#balance;
      let wallet: TransferWallet | undefined;
      if (this.#o.wallet) {
        // A wallet shoe's transfer carries its wallet call (§B15): a debit the wallet's answer, from the balance it moved to.
        const kind = TRANSFER_WALLET_MEMBER[ask.kind];
        const transaction = sharedTransactionId(this.#o.wallet.operator, this.#o.table, ask.id, 1, kind);
        if (kind === 'debit') {
          balanceBefore += walletMoved ?? 0;
          wallet = { debit: { transaction, attempt: 1, amount: ask.amount, balanceAfter: balanceBefore - ask.amount } };
        } else wallet = kind === 'credit' ? { credit: { transaction, amount: ask.amount } } : { rollback: { transaction, amount: ask.amount } };
      }
      const t = await this.#sign(
        buildTransfer({ ask, last, shoe: last.body.shoe, balanceBefore, keyId: this.#opId, issuedAt: this.#at(), ...(wallet ? { wallet } : {}) }),
      );
      this.#balance = t.body.balanceAfter;
      last = t;
    }
    return last;
  }

  /** Plays one shoe's script; true when the table stops there (a round left pending, or the shoe left open). */
  async playShoe(script: ShoeScript, number: number): Promise<boolean> {
    const shoe = await this.#startShoe(script, number);
    for (const rs of script.rounds) {
      if (shoe.reached) break;
      const fate = await this.#playRound(shoe, rs);
      if (fate === 'pending') return true;
      if (fate === 'unsettled') break;
    }
    return this.#endShoe(shoe);
  }

  /** The commitment, the transfers before the start, and the start with the player's seed and cut. */
  async #startShoe(script: ShoeScript, number: number): Promise<ShoeInPlay> {
    const p = script.params;
    const commitment: Signed<Commitment> = await this.#sign(
      buildCommitment({
        table: this.#o.table,
        shoe: number,
        keyId: this.#opId,
        params: p,
        ...(script.limits ? { limits: script.limits } : {}),
        serverSeed: script.serverSeed,
        playerKey: playerKeyOf(this.#o.playerKey),
        openingBalance: this.#balance,
        prev: this.#prev,
        issuedAt: this.#at(),
        ...(this.#o.wallet ? { wallet: this.#o.wallet } : {}),
      }),
    );
    this.#balance = commitment.body.openingBalance;
    const beforeStart = await this.#transfer(script.transfersBeforeStart, commitment);
    const request = await this.#request(startRequest(commitment, script.clientSeed, script.cut));
    const start = await this.#sign(buildStart(commitment, request, this.#opId, this.#at(), beforeStart.hash));
    const cut = start.body.request.body.cut;
    const state = startShoe(p, script.serverSeed, start.body.request.body.clientSeed, cut);
    return { script, commitment, cut, state, last: start, accepted: 0, attempts: 0, reached: null };
  }

  /** One round: the transfers before it, the acceptance, then what its fate says (a receipt by default). */
  async #playRound(shoe: ShoeInPlay, rs: RoundScript): Promise<NonNullable<RoundScript['fate']>> {
    const { script: sc } = shoe;
    const p = sc.params;
    const round = shoe.accepted + 1;
    const seen = shoe.last;
    shoe.last = await this.#transfer(rs.transfersBefore, shoe.last);
    const req = await this.#request(betRequest(rs.betFollows === 'seen' ? seen : shoe.last, round, rs.bets, rs.secret));
    const wallet = await this.#debit(shoe, rs);
    const acc = buildAcceptance({
      last: shoe.last,
      seen: seen.hash,
      round,
      request: req,
      ...(sc.limits ? { limits: sc.limits } : {}),
      ...(wallet ? { debit: wallet.debit } : { balanceBefore: this.#balance }),
      affiliate: sc.affiliate ?? null,
      keyId: this.#opId,
      issuedAt: this.#at(),
    });
    if (!acc.ok) throw new RangeError(`shoe ${shoe.commitment.body.shoe} round ${round}: ${acc.error.message}`);
    const acceptance: Signed<Acceptance> = await this.#sign(acc.value);
    shoe.accepted++;
    shoe.last = acceptance;
    const fate = rs.fate ?? 'settle';
    if (fate === 'pending') return fate;
    if (fate === 'unsettled') {
      this.sent.push(await this.#request(secretRequest(acceptance, rs.secret)));
      return fate;
    }
    if (fate === 'void') {
      this.#now = Date.parse(acceptance.body.issuedAt) + p.voidAfterSeconds * 1000;
      shoe.last = await this.#sign(buildVoid(acceptance, this.#opId, this.#at(), wallet?.ids.rollback));
      this.#balance = (shoe.last.body as { balanceAfter: number }).balanceAfter;
      shoe.reached = revealDue(p, { cutCardOut: false, accepted: shoe.accepted });
      return fate;
    }
    const settled = buildReceipt({
      params: p,
      state: shoe.state,
      serverSeed: sc.serverSeed,
      cut: shoe.cut,
      acceptance,
      request: await this.#request(secretRequest(acceptance, rs.secret)),
      ...(wallet ? { creditTransaction: wallet.ids.credit } : {}),
      keyId: this.#opId,
      issuedAt: this.#at(),
    });
    if (!settled.ok) throw new RangeError(settled.error.message);
    const receipt = await this.#sign(settled.value.body);
    shoe.state = settled.value.state;
    shoe.last = receipt;
    this.#balance = receipt.body.balanceAfter;
    shoe.reached = revealDue(p, { cutCardOut: receipt.body.cutCardOut, accepted: shoe.accepted });
    return fate;
  }

  /** Wallet mode: the round's debit (its attempt after the failed ones, the wallet's balance after it) and its attempt's ids. */
  async #debit(shoe: ShoeInPlay, rs: RoundScript) {
    const wallet = this.#o.wallet;
    if (!wallet) return null;
    shoe.attempts += 1 + (rs.failedDebitsBefore ?? 0);
    const c = shoe.commitment.body;
    const ids = await walletTransactionIds(wallet, c.table, c.shoe, shoe.attempts);
    if (!ids.ok) throw new RangeError(ids.error.message);
    const amount = totalStake(rs.bets);
    const balanceAfter = this.#balance + (rs.walletMoved ?? 0) - amount;
    return { ids: ids.value, debit: { transaction: ids.value.debit, attempt: shoe.attempts, amount, balanceAfter } };
  }

  /** The transfers after the last round and the reveal; true when the script leaves the shoe open. */
  async #endShoe(shoe: ShoeInPlay): Promise<boolean> {
    const { script: sc } = shoe;
    const seen = shoe.last;
    const last = await this.#transfer(sc.transfersBeforeEnd, shoe.last);
    if (sc.end === 'open') return true;
    const reason: RevealReason = sc.end ?? shoe.reached ?? 'player';
    if (reason === 'void-timeout') this.#now = Date.parse(last.body.issuedAt) + sc.params.voidAfterSeconds * 1000;
    const end = reason === 'player' ? await this.#request(endRequest(sc.endFollows === 'seen' ? seen : last)) : undefined;
    const reveal = await this.#sign(
      buildReveal({
        last,
        serverSeed: sc.serverSeed,
        rounds: shoe.accepted,
        reason,
        ...(end ? { request: end } : {}),
        closingBalance: this.#balance,
        keyId: this.#opId,
        issuedAt: this.#at(),
      }),
    );
    this.#balance = reveal.body.closingBalance;
    this.#prev = reveal.hash;
    return false;
  }
}
