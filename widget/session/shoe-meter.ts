/**
 * A private table's shoe as the felt's gauge shows it: the shoe the Worker last described, the
 * cards dealt from it so far (the highest position dealt, plus one; at a reshuffle table, the last
 * round's), and the gauge held while the shoe's last hand is on the felt (the next shoe's full
 * count and empty tray show once that hand has gone).
 */
import { CARDS_PER_DECK } from '../../shared/cards.ts';
import { cardsDealtThrough, nextRoundIsLast } from '../../shared/shoe.ts';
import type { TableScene } from '../scene/types.ts';
import type { ShoeState } from './api-types.ts';
import type { SettledRound } from '../round-view.ts';
import { shoeDecks } from './shoe-start.ts';

/** What the shoe gauge draws (the scene's `setShoe`). */
type ShoeGauge = Parameters<TableScene['setShoe']>[0];

/** What the meter needs of the table: its scene (when there is one) and the words on a reshuffle shoe. */
export interface ShoeMeterLink {
  scene(): TableScene | null;
  freshShoeText(): string;
}

export class ShoeMeter {
  /** The shoe in play or waiting for its cut, as the Worker last described it. */
  shoe: ShoeState | null = null;
  #consumed = 0;
  #held: ShoeGauge | null = null;
  readonly #link: ShoeMeterLink;

  constructor(link: ShoeMeterLink) {
    this.#link = link;
  }

  /** A shoe as an answer describes it: a fresh one (or another number) starts full; the same one takes the news. */
  set(shoe: ShoeState, fresh: boolean): void {
    if (fresh || shoe.number !== this.shoe?.number) {
      this.#consumed = 0;
      this.shoe = { ...shoe };
    } else {
      this.shoe = { ...this.shoe, ...shoe };
    }
    this.show();
  }

  /** The cards a round used are gone from the shoe. */
  consume(body: SettledRound): void {
    this.#consumed = cardsDealtThrough(body.cards, this.#consumed);
  }

  /**
   * A round is dealt from the shoe: its cards leave it. A reshuffle shoe is a fresh stack every
   * round: the last round's cards go back first, with a short shuffle on the felt.
   */
  async dealFrom(body: SettledRound): Promise<void> {
    const reshuffle = this.shoe?.params?.mode === 'reshuffle';
    if (reshuffle && this.#consumed > 0) {
      this.#refill();
      this.show();
      await this.#link.scene()?.reshuffle?.();
    }
    if (reshuffle) this.#refill();
    this.consume(body);
    this.show();
  }

  /** Every card back in the shoe (a new stack). */
  #refill(): void {
    this.#consumed = 0;
  }

  /** Draws how much of the shoe is left (what it showed before, while the shoe's last hand is on the felt). */
  show(): void {
    const scene = this.#link.scene();
    const gauge = this.#held ?? this.#gauge();
    if (gauge && scene) scene.setShoe(gauge);
  }

  /** The cut card came out: the gauge keeps showing this shoe while its last hand is on the felt. */
  hold(): void {
    this.#held = this.#gauge();
  }

  /** Whatever was held is no longer to be shown (a new shoe, another room). */
  unhold(): void {
    this.#held = null;
  }

  /** The shoe's last hand has left the felt (or the table moved on): the gauge shows the shoe as it is. */
  release(): void {
    if (!this.#held) return;
    this.#held = null;
    this.show();
  }

  #gauge(): ShoeGauge | null {
    if (!this.shoe) return null;
    const total = shoeDecks(this.shoe) * CARDS_PER_DECK;
    const cutAt = this.cutAt;
    const fresh = this.shoe.params?.mode === 'reshuffle' ? { caption: this.#link.freshShoeText() } : {};
    return { cardsLeft: Math.max(0, total - this.#consumed), total, discarded: this.#consumed, ...(cutAt ? { cutAt } : {}), ...fresh };
  }

  /**
   * The next round is certainly the shoe's last (its first four cards reach the cut card,
   * shared/shoe.ts): the table announces it before the deal.
   */
  get lastHandNext(): boolean {
    const shoe = this.shoe;
    const cut = this.cutAt;
    if (!shoe || shoe.status !== 'in-play' || cut === undefined || this.#consumed === 0) return false;
    return nextRoundIsLast(shoeDecks(shoe) * CARDS_PER_DECK - this.#consumed, cut);
  }

  /** Cards left in the shoe when the cut card comes out (shoe mode; reshuffle mode has no cut card). */
  get cutAt(): number | undefined {
    const params = this.shoe?.params;
    return params?.mode === 'reshuffle' ? undefined : params?.cutCardFromEnd;
  }

  /**
   * The new shoe is shuffled and cut on the felt where the player cut it, then goes in full (a
   * reshuffle shoe, a fresh stack every round, starts only every few dozen rounds).
   */
  async shuffleAndCut(shoe: ShoeState, cut: number): Promise<void> {
    const scene = this.#link.scene();
    const total = shoeDecks(shoe) * CARDS_PER_DECK;
    this.#held = null;
    if (scene?.shuffleAndCut) await scene.shuffleAndCut(Math.min(0.95, Math.max(0.05, cut / total)));
    this.#consumed = 0;
    this.show();
  }
}
