/**
 * A private table's round in two phases (FAIRNESS.md part II; the player's side is player.ts): the
 * bets checked for a deal keep their Idempotency-Key; the round's secret and signed requests are
 * stored (sessionStorage) before the bet leaves; phase 1 sends the bets with the secret's lock
 * (→ acceptance: the stake is debited), phase 2 the secret (→ receipt: the cards). A retry goes on
 * from the phase that failed; a round the Worker holds that this tab cannot finish (an orphan)
 * voids at its `voidAt`. The session draws what `deal` returns (table-session.ts).
 */
import type { Bet } from '../../shared/table.ts';
import * as apiCalls from '../../shared/wire/http-calls.ts';
import { type ApiError, type ApiResult, newIdempotencyKey } from './api-client.ts';
import type { AcceptanceAnswer, Acceptance, PlayedRound, ReadRoundAnswer, Signed } from './api-types.ts';
import { checkBets, sameBets } from '../element/bets.ts';
import { keepRound, newRound, type RoundInFlight, signSecret } from './player.ts';
import type { PrivateParts } from './private-parts.ts';
import type { OpenSession } from './session-open.ts';
import type { DealRefusal } from './table-play.ts';
import { privateRound } from '../round-view.ts';

/** A round the Worker holds that this tab cannot finish (its secret is lost): it voids at `voidAt`. */
export type Orphan = { acceptance: Signed<Acceptance>; voidAt: string };

export class RoundPhases {
  readonly #parts: PrivateParts;
  /** Bets checked for a deal, and the key their bet request will carry. */
  #pendingRound: { bets: Bet[]; key: string } | null = null;
  /** The round being played (secret and signed requests stored before the bet is sent). */
  #round: RoundInFlight | null = null;
  #orphan: Orphan | null = null;

  constructor(parts: PrivateParts) {
    this.#parts = parts;
  }

  /** Whether a round is signed and not settled yet (its bets stay until it is finished). */
  get inFlight(): boolean {
    return this.#round !== null;
  }

  /** Whether the Worker accepted the round in flight: only its secret is missing. */
  get accepted(): boolean {
    return Boolean(this.#round?.acceptance);
  }

  /** The session opened with a round between its phases (its stored secret) or an orphan. */
  resume(round: RoundInFlight | null, orphan: Orphan | null): void {
    this.#round = round;
    this.#orphan = orphan;
    if (round) this.#pendingRound = { bets: round.bets, key: round.betKey };
  }

  /** The session is dropped: nothing of its rounds goes on (`keepBets`: the bets checked stay, to deal at a new session). */
  drop(keepBets = false): void {
    if (!keepBets) this.#pendingRound = null;
    this.#round = null;
    this.#orphan = null;
  }

  /** The round in flight is given up (the session expired): the next deal signs the bets afresh. */
  abandon(): void {
    this.#keep(null);
  }

  /**
   * Checks the bets on the felt for a deal; returns why they cannot be dealt, else keeps them
   * for `deal`. The same bets as a failed attempt keep that attempt's key: the Worker may
   * already have accepted them. A round already signed keeps its bets: it is finished first.
   */
  prepare(bets: readonly Bet[]): DealRefusal | null {
    if (this.#round) return null;
    const limits = this.#parts.limits;
    if (!limits) return { code: 'empty_bet', message: '' };
    const checked = checkBets(bets, limits, this.#parts.balance);
    if (!checked.ok) return checked.error;
    if (checked.value.length === 0) return { code: 'empty_bet', message: '' };
    if (!this.#pendingRound || !sameBets(this.#pendingRound.bets, checked.value)) {
      this.#pendingRound = { bets: checked.value, key: newIdempotencyKey() };
    }
    return null;
  }

  /**
   * Plays the round: phase 1 sends the bets kept by `prepare` with the lock of a fresh secret
   * (stored first), phase 2 sends the secret. The settled round to draw, or null (nothing to
   * play, or a failure already shown).
   */
  async deal(session: OpenSession): Promise<PlayedRound | null> {
    const parts = this.#parts;
    let round = this.#round;
    if (!round) {
      const pending = this.#pendingRound;
      const head = parts.head;
      // No bets waiting: this was the retry of a shoe started without a deal ("Cut and start").
      if (!pending || !head) {
        parts.set('ready');
        return null;
      }
      round = await newRound(session.player, session.id, head, (parts.meter.shoe?.rounds ?? 0) + 1, pending.bets, {
        betKey: pending.key,
        secretKey: newIdempotencyKey(),
      });
      // The secret is stored before the bet leaves: a reload after the acceptance can still deal.
      this.#keep(round);
      parts.copy()?.sending(round.bet);
    }
    if (!round.acceptance) {
      const answer = await parts.link.api.send(apiCalls.placeBet(session.id, round.bet, round.betKey));
      if (!answer.ok) return this.#betFailed(answer.error);
      this.#accepted(round, answer.value);
    }
    return this.#reveal(round);
  }

  #keep(round: RoundInFlight | null): void {
    this.#round = round;
    const store = this.#parts.store();
    if (store) keepRound(store.storage, store.key, round);
  }

  /** Phase 1 answered: the stake is debited; the acceptance is the table's newest record. */
  #accepted(round: RoundInFlight, a: AcceptanceAnswer): void {
    const parts = this.#parts;
    this.#keep({ ...round, acceptance: a.acceptance });
    parts.copy()?.add(a.acceptance);
    parts.head = a.acceptance;
    parts.balance = a.balance;
    if (parts.meter.shoe) parts.meter.shoe = { ...parts.meter.shoe, ...a.shoe };
    parts.host.requestUpdate();
  }

  /** Phase 2: the secret, signed, for the acceptance; the receipt plays the round. */
  async #reveal(round: RoundInFlight): Promise<PlayedRound | null> {
    const parts = this.#parts;
    const session = parts.live();
    const current = this.#round;
    const acceptance = current?.acceptance;
    if (!session || !current || !acceptance) return null;
    let reveal = current.reveal;
    if (!reveal) {
      reveal = await signSecret(session.player, acceptance, current.secret);
      this.#keep({ ...current, reveal });
      parts.copy()?.sending(reveal);
    }
    const answer: ApiResult<ReadRoundAnswer> = await parts.link.api.send(apiCalls.revealSecret(session.id, reveal, round.secretKey));
    if (!answer.ok) {
      if (answer.error.code === 'round_voided') await this.#voided(answer.error);
      else parts.roundFailed(answer.error);
      return null;
    }
    const a = answer.value;
    this.#keep(null);
    this.#pendingRound = null;
    parts.copy()?.add(a.receipt, a.reveal, a.nextShoe?.commitment);
    parts.head = a.nextShoe?.commitment ?? a.reveal ?? a.receipt;
    return { ...a, round: privateRound(acceptance.body, a.receipt) };
  }

  /** Phase 1 failed. `round_pending`: the Worker holds an acceptance — ours (finish it) or one this tab lost. */
  async #betFailed(error: ApiError): Promise<PlayedRound | null> {
    const parts = this.#parts;
    if (error.code !== 'round_pending') {
      // A refusal (4xx): the Worker accepted nothing; the next deal signs the bets on the felt afresh.
      if (!error.retryable && error.status >= 400 && error.status < 500 && error.code !== 'session_expired' && this.#round) {
        parts.copy()?.unsent(this.#round.bet);
        this.#keep(null);
      }
      parts.roundFailed(error);
      return null;
    }
    const view = await parts.refresh();
    const held = view?.pending;
    if (held && held.acceptance.body.request.body.lock === this.#round?.bet.body.lock) {
      this.#accepted(this.#round, { acceptance: held.acceptance, balance: view.balance, voidAt: held.voidAt, shoe: view.shoe });
      return this.#reveal(this.#round);
    }
    this.#orphan = held ?? null;
    if (this.#orphan) this.showOrphan();
    else parts.roundFailed(error);
    return null;
  }

  /** The round voided (its secret came too late): the stake is back, the bets stay on the felt. */
  async #voided(error: ApiError): Promise<void> {
    this.#keep(null);
    this.#pendingRound = null;
    await this.#parts.refresh();
    this.#parts.fail(error, null);
  }

  /** A round this tab cannot finish: say when it voids; Retry asks the Worker again. Nothing without one. */
  showOrphan(): void {
    const orphan = this.#orphan;
    if (!orphan) return;
    const error: ApiError = {
      code: 'round_pending',
      message: `round ${orphan.acceptance.body.round} waits for its secret`,
      status: 409,
      retryable: false,
      voidAt: orphan.voidAt,
    };
    this.#parts.fail(error, async () => {
      const view = await this.#parts.refresh();
      this.#orphan = view ? view.pending : this.#orphan;
      if (this.#orphan) this.showOrphan();
      else this.#parts.set('ready', null);
    });
  }
}
