/**
 * The player's four signed requests of play (FAIRNESS.md part II), each computed without writing:
 * the start of a committed shoe, a bet with its lock (→ the acceptance), the round's secret (→ the
 * receipt, and the shoe's reveal and the next commitment when it ends the shoe) and the end of a
 * shoe. Each validates, deals, settles and signs, then hands `table.ts` a `Computed` change: its
 * answer and the rows to write in one transaction (the frame, `Table.#change`, runs it).
 */
import {
  type AcceptanceAnswer,
  type Acceptance,
  buildAcceptance,
  buildReceipt,
  buildStart,
  checkRecordedClientSeed,
  type EndAnswer,
  revealDue,
  ROOMS,
  type RoundAnswer,
  signRecord,
  type StartAnswer,
  validateBets,
  validatePlayerRequest,
} from '../../shared/index.ts';
import { type Answer, answer, failure } from '../http/answers.ts';
import { signingKey } from '../keys/keys.ts';
import { acceptRefusal, creditFor, oweCredit, walletAcceptance } from '../wallet/wallet-table.ts';
import type { WalletSession } from '../wallet/wallet-session.ts';
import { type ChangeKind, iso, type SessionParts } from './parts.ts';
import { notPending, sameRequest } from './replay.ts';
import { cutRangeV2, type Shoes } from './shoes.ts';
import { type SessionRow, stateAfter } from './store.ts';
import { acceptanceAnswer, endAnswer, roundAnswer, shoeView } from './views.ts';

/** A change computed and ready to commit: its answer, and its writes (given the answer's key, time included). */
export interface Computed<T> {
  kind: ChangeKind;
  result: Answer<T>;
  write: (key: { key: string; requestHash: string; at: string }) => void;
}

/** What a request computes to: a refusal (nothing written) or a change to commit. */
export type Change<T> = Answer<never> | Answer<T> | Computed<T>;

/** The offending bet's place, when the engine names one. */
function placeOf(error: { sector?: number; box?: string }): { sector?: number; box?: string } | undefined {
  return error.sector === undefined ? undefined : { sector: error.sector, box: error.box };
}

export class PlayerRequests {
  readonly #parts: SessionParts;
  readonly #shoes: Shoes;
  readonly #wallet: WalletSession;

  constructor(parts: SessionParts, shoes: Shoes, wallet: WalletSession) {
    this.#parts = parts;
    this.#shoes = shoes;
    this.#wallet = wallet;
  }

  /** The player's signed client seed and cut start the committed shoe. */
  async start(session: SessionRow, body: { request: unknown }): Promise<Change<StartAnswer>> {
    const checked = await validatePlayerRequest(session.playerKey!, body.request, 'start');
    if (!checked.ok) return failure(400, checked.error.code, checked.error.message);
    const request = checked.value;
    const shoe = this.#parts.store.shoeV2(session.currentShoe)!;
    if (shoe.status !== 'awaiting-start') return failure(409, 'shoe_already_started', `shoe ${shoe.number} has already started`);
    const r = request.body;
    if (r.table !== session.sessionId || r.shoe !== shoe.number || r.commitment !== shoe.commitment.hash) {
      return failure(409, 'request_mismatch', `the start request does not answer the commitment of shoe ${shoe.number}`);
    }
    const seed = checkRecordedClientSeed(r.clientSeed);
    if (!seed.ok) return failure(400, 'bad_client_seed', seed.error.message);
    const range = cutRangeV2(shoe.params);
    if (!Number.isInteger(r.cut) || r.cut < range.min || r.cut > range.max)
      return failure(400, 'bad_cut', `the cut must be a whole number from ${range.min} to ${range.max}, got ${r.cut}`);
    const key = await signingKey(this.#parts.env);
    // Shared-table transfers may sit after the commitment (FAIRNESS.md §B14): the start follows the newest record.
    const start = await signRecord(buildStart(shoe.commitment, request, key.keyId, iso(this.#parts.now()), session.head!), key);
    return {
      kind: 'start',
      result: answer(200, { shoe: shoeView({ ...shoe, status: 'in-play', start, rounds: 0 }) }),
      write: (k) => {
        this.#parts.store.appendRecord(start, stateAfter(session, { shoeRounds: 0 }), k);
        this.#parts.store.startShoe(shoe.number, start);
      },
    };
  }

  /**
   * Phase 1: the player's signed bets and lock. The stake is debited and a signed acceptance
   * stored in the same transaction; the acceptance holds no card and nothing a card follows from.
   */
  async bet(session: SessionRow, body: { request: unknown }): Promise<Change<AcceptanceAnswer>> {
    const checked = await validatePlayerRequest(session.playerKey!, body.request, 'bet');
    if (!checked.ok) return failure(400, checked.error.code, checked.error.message);
    const request = checked.value;
    if (session.pendingRound !== null) {
      // The same signed bet sent again under another key: the acceptance it already has.
      const pending = this.#parts.store.lastRecord<Acceptance>('acceptance', session.currentShoe, session.pendingRound)!;
      if (sameRequest(pending.body.request, request)) return answer(200, acceptanceAnswer(this.#parts.store, pending));
      return failure(409, 'round_pending', `round ${session.pendingRound} is waiting for its secret: send it first (or wait for the void at ${session.dueAt})`);
    }
    const shoe = this.#parts.store.shoeV2(session.currentShoe)!;
    if (shoe.status !== 'in-play') return failure(409, 'shoe_not_started', `shoe ${shoe.number} has not started: send the signed start request first`);
    const w = this.#wallet.row();
    const limits = w ? w.tableLimits : ROOMS[session.room].limits;
    // Wallet mode: the balance is the wallet's to judge (its debit answers insufficient_funds).
    const bets = validateBets(request.body.bets, limits, w ? undefined : session.balance);
    if (!bets.ok) return failure(422, bets.error.code, bets.error.message, placeOf(bets.error));
    const last = this.#parts.store.lastRecord(null)!;
    const key = await signingKey(this.#parts.env);
    const round = session.shoeRounds + 1;
    // After shared-table transfers the player may name the newest record it saw before them (§B14).
    const seen = last.body.type === 'transfer' ? { seen: this.#parts.store.lastPrivateRecord()!.hash } : {};
    // Wallet mode: the limits, then the wallet's debit, before the acceptance is signed (worker/wallet).
    const accepted = w
      ? await walletAcceptance(this.#wallet, this.#parts, { w, session, request, last, ...seen, round, key })
      : buildAcceptance({
          last,
          ...seen,
          round,
          request,
          limits,
          balanceBefore: session.balance,
          affiliate: session.affiliate,
          keyId: key.keyId,
          issuedAt: iso(this.#parts.now()),
        });
    if ('status' in accepted) return accepted;
    if ('ok' in accepted && !accepted.ok) return acceptRefusal(accepted.error, round, last);
    const acceptance = 'acceptance' in accepted ? accepted.acceptance : await signRecord(accepted.value, key);
    const result = acceptanceAnswer(this.#parts.store, acceptance, shoe.params);
    return {
      kind: 'bet',
      result: answer(200, result),
      write: (k) => {
        const change = { balance: result.balance, shoeRounds: round, pendingRound: round, dueAt: result.voidAt };
        this.#parts.store.appendRecord(acceptance, stateAfter(session, change), k);
        if ('acknowledge' in accepted) accepted.acknowledge(k.at);
      },
    };
  }

  /** Phase 2: the round's secret opens the lock; the round is dealt, settled and signed; the reveal and the next shoe when it ends the shoe. */
  async secret(session: SessionRow, round: number, body: { request: unknown }): Promise<Change<RoundAnswer>> {
    const checked = await validatePlayerRequest(session.playerKey!, body.request, 'secret');
    if (!checked.ok) return failure(400, checked.error.code, checked.error.message);
    const request = checked.value;
    const r = request.body;
    if (r.round !== round) return failure(400, 'bad_request', `the request is for round ${r.round}, the path names round ${round}`);
    if (session.pendingRound !== round || r.shoe !== session.currentShoe) return notPending(this.#parts.store, r.shoe, round, request);
    const acceptance = this.#parts.store.lastRecord<Acceptance>('acceptance', session.currentShoe, round)!;
    const shoe = this.#parts.store.shoeV2(session.currentShoe)!;
    const key = await signingKey(this.#parts.env);
    const w = this.#wallet.row();
    // Wallet mode: the round owes its credit (its debit's attempt names it), written with the receipt.
    const credit = w ? await creditFor(this.#wallet, w, acceptance) : null;
    const settled = buildReceipt({
      params: shoe.params,
      state: this.#shoes.stateOf(shoe),
      serverSeed: shoe.serverSeed,
      cut: shoe.cut!,
      acceptance,
      request,
      ...(credit ? { creditTransaction: credit.transaction } : {}),
      keyId: key.keyId,
      issuedAt: iso(this.#parts.now()),
    });
    if (!settled.ok) return failure(settled.error.code === 'request_mismatch' ? 409 : 422, settled.error.code, settled.error.message);
    const receipt = await signRecord(settled.value.body, key);
    const reason = revealDue(shoe.params, { cutCardOut: receipt.body.cutCardOut, accepted: round });
    const ending = reason ? await this.#shoes.endAndCommit(session, shoe, receipt, reason, receipt.body.balanceAfter) : null;
    const result = roundAnswer(receipt, ending);
    return {
      kind: ending ? 'secret-ending-shoe' : 'secret',
      result: answer(200, result),
      write: (k) => {
        const settledState = stateAfter(session, {
          balance: receipt.body.balanceAfter,
          pendingRound: null,
          dueAt: null,
          settled: { staked: receipt.body.staked, returned: receipt.body.returned },
        });
        this.#parts.store.appendRecord(receipt, settledState, k);
        if (credit) oweCredit(this.#wallet, this.#parts, receipt, credit);
        if (ending) this.#shoes.writeEnding(shoe.number, ending, settledState);
        this.#shoes.dealt(shoe.number, ending ? null : settled.value.state);
      },
    };
  }

  /** The player's signed end request: the shoe's seed is revealed and the next shoe committed. */
  async end(session: SessionRow, body: { request: unknown }): Promise<Change<EndAnswer>> {
    const checked = await validatePlayerRequest(session.playerKey!, body.request, 'end');
    if (!checked.ok) return failure(400, checked.error.code, checked.error.message);
    const request = checked.value;
    if (session.pendingRound !== null)
      return failure(409, 'round_pending', `round ${session.pendingRound} is waiting for its secret: send it before ending the shoe`);
    const r = request.body;
    const last = this.#parts.store.lastRecord(null)!;
    // After shared-table transfers the player may name the newest record it saw before them (§B14).
    const seen = last.body.type === 'transfer' ? this.#parts.store.lastPrivateRecord()!.hash : session.head;
    if (r.table !== session.sessionId || r.shoe !== session.currentShoe || (r.prev !== session.head && r.prev !== seen)) {
      return failure(409, 'request_mismatch', `the end request must follow the newest record of shoe ${session.currentShoe} (${session.head})`);
    }
    const shoe = this.#parts.store.shoeV2(session.currentShoe)!;
    const ending = await this.#shoes.endAndCommit(session, shoe, last, 'player', session.balance, request);
    const result = endAnswer(ending.reveal, ending.next);
    return {
      kind: 'end',
      result: answer(200, result),
      write: (k) => {
        const ended = stateAfter(session, { dueAt: null });
        this.#parts.store.appendRecord(ending.reveal, ended, k);
        this.#shoes.writeEnding(shoe.number, ending, ended, false);
        this.#shoes.dealt(shoe.number, null);
      },
    };
  }
}
