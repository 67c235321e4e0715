/**
 * The rounds a shared table deals, drawn one after another (a round is drawn only once the one
 * before has been): a round the player has no stake in at once; a round it has a bet in with the
 * player's settlement, which follows its deal at once (or came just before it), or without it
 * after SETTLEMENT_WAIT_MS.
 */
import type { SharedDeal, SharedSettlement, SignedShared } from '../../shared/fairness/pb-shared-1/records.ts';
import { type AcceptedBet, type DealWait, NO_WAIT } from './shared-table-states.ts';

/** How long a deal waits for the player's own settlement (sent right after it) before it is drawn anyway. */
const SETTLEMENT_WAIT_MS = 3_000;

/** Draws one dealt round: the player's own bets and payouts if it had a stake in it. */
export type DrawRound = (deal: SignedShared<SharedDeal>, settlement: SignedShared<SharedSettlement> | null, mine: AcceptedBet | null) => Promise<void>;

export class SharedDraws {
  readonly #draw: DrawRound;
  /** A dealt round waiting for its other half (the player's settlement, or its deal) before it is drawn. */
  #waiting: DealWait = NO_WAIT;
  #playing: Promise<void> = Promise.resolve();

  constructor(draw: DrawRound) {
    this.#draw = draw;
  }

  /** A round was dealt (`mine`: the player's accepted bet in it, or null). True when it waits for the player's settlement. */
  deal(deal: SignedShared<SharedDeal>, mine: AcceptedBet | null): boolean {
    if (!mine) {
      void this.queue(() => this.#draw(deal, null, null));
      return false;
    }
    const waiting = this.#waiting;
    if (waiting.kind === 'settlement' && waiting.settlement.body.deal === deal.hash) {
      this.#drawMine(deal, waiting.settlement, mine);
      return false;
    }
    this.#waiting = { kind: 'deal', deal, mine, timer: setTimeout(() => this.#drawMine(deal, null, mine), SETTLEMENT_WAIT_MS) };
    return true;
  }

  /** The player's settlement of a round: drawn with its deal, or kept until the deal comes. */
  settlement(settlement: SignedShared<SharedSettlement>): void {
    const waiting = this.#waiting;
    if (waiting.kind === 'deal' && waiting.deal.hash === settlement.body.deal) this.#drawMine(waiting.deal, settlement, waiting.mine);
    else if (waiting.kind !== 'deal') this.#waiting = { kind: 'settlement', settlement };
  }

  /** Runs a drawing step after those before it. */
  queue(step: () => Promise<void>): Promise<void> {
    this.#playing = this.#playing.then(step, step).catch((err) => console.warn('punto-banco: drawing a shared round failed:', err));
    return this.#playing;
  }

  #drawMine(deal: SignedShared<SharedDeal>, settlement: SignedShared<SharedSettlement> | null, mine: AcceptedBet): void {
    if (this.#waiting.kind === 'deal') clearTimeout(this.#waiting.timer);
    this.#waiting = NO_WAIT;
    void this.queue(() => this.#draw(deal, settlement, mine));
  }
}
