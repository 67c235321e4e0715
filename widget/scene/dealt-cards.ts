/**
 * The round's cards on the felt and the hands' totals: dealt out of the shoe face down, turned,
 * the third cards, the running totals; laid out at once for a rebuilt scene; swept to the discard.
 */
import { type CardCode, handTotal, parseCard } from '../../shared/cards.ts';
import { cardSpot, totalBadgeSpot } from '../layout.ts';
import type { CardArt } from './cards.ts';
import { type Hand, TIMING, type SceneMotion } from './motion.ts';
import { BOX_ACCENT } from './palette.ts';
import { CardView, TotalBadge } from './pieces.ts';
import { Container } from './pixi.ts';
import { CardSqueeze, squeezedHand } from './squeeze.ts';
import { easeInCubic, easeInOutCubic, easeOutBack, easeOutCubic } from './tween.ts';
import type { RoundReceipt } from './types.ts';

export class DealtCards {
  readonly cardLayer = new Container();
  readonly totals: Record<Hand, TotalBadge> = { player: new TotalBadge(BOX_ACCENT.player), banker: new TotalBadge(BOX_ACCENT.banker) };
  readonly cards: CardView[] = [];
  private readonly cardPool: CardView[] = [];
  private readonly motion: SceneMotion;
  private readonly cardArt: CardArt;
  /** The backed side's cards the player turns (the `squeeze` option); unused when it is off. */
  readonly squeeze: CardSqueeze;

  constructor(motion: SceneMotion, cardArt: CardArt) {
    this.motion = motion;
    this.cardArt = cardArt;
    this.squeeze = new CardSqueeze(motion, cardArt, this.cards, (v) => this.flip(v, 0));
  }

  /**
   * Deals the receipt's cards from the shoe's mouth: P, B, P, B face down, each hand turned with its
   * total, then the third cards in the order dealt; ends on the receipt's totals. False when
   * `live` said the round was over before the end. With the squeeze on, the backed side's cards
   * (squeeze.ts) wait for the player to turn them, after the other side's.
   */
  async deal(receipt: RoundReceipt, mouth: { x: number; y: number }, live: () => boolean): Promise<boolean> {
    // Bake every face of this round now, not mid-flight.
    for (const c of receipt.cards) this.cardArt.face(c.code);

    const counts: Record<Hand, number> = { player: 0, banker: 0 };
    const views = receipt.cards.map((c) => {
      const v = this.cardPool.pop() ?? new CardView();
      v.code = c.code;
      v.hand = c.hand;
      v.slot = counts[c.hand]++;
      v.faceUp = false;
      v.paint(this.cardArt);
      v.position.set(mouth.x, mouth.y);
      v.rotation = Math.PI / 2;
      v.scale.set(0.92);
      v.alpha = 0;
      v.visible = true;
      this.cardLayer.addChild(v);
      this.cards.push(v);
      return v;
    });

    // The first four: Punto, Banco, Punto, Banco, face down.
    const firstFour = views.slice(0, 4);
    await Promise.all(firstFour.map((v, i) => this.dealCard(v, i * TIMING.dealGap)));
    if (!live()) return false;
    const shown: Record<Hand, CardCode[]> = { player: [], banker: [] };
    const squeezed = this.motion.opts.squeeze ? squeezedHand(receipt.payouts) : null;
    for (const hand of squeezed === 'player' ? (['banker', 'player'] as const) : (['player', 'banker'] as const)) {
      const pair = firstFour.filter((v) => v.hand === hand);
      await (hand === squeezed ? this.squeeze.hold(pair) : Promise.all(pair.map((v, i) => this.flip(v, i * 60))));
      if (!live()) return false;
      for (const v of pair) shown[hand].push(v.code);
      this.showTotal(hand, totalOf(shown[hand]));
      await this.motion.wait(TIMING.pause / 2);
      if (!live()) return false;
    }
    // Third cards, in the order the receipt dealt them.
    for (const v of views.slice(4)) {
      await this.motion.wait(TIMING.pause);
      if (!live()) return false;
      await this.dealCard(v, 0);
      if (!live()) return false;
      await (v.hand === squeezed ? this.squeeze.hold([v]) : this.flip(v, 0));
      if (!live()) return false;
      shown[v.hand].push(v.code);
      this.showTotal(v.hand, totalOf(shown[v.hand]));
    }
    // The receipt's totals are the truth; the running totals above only mirror them.
    this.showTotal('player', receipt.playerTotal);
    this.showTotal('banker', receipt.bankerTotal);
    return true;
  }

  /** The cards face up in their slots and the totals, at once. */
  show(receipt: RoundReceipt): void {
    const counts: Record<Hand, number> = { player: 0, banker: 0 };
    for (const c of receipt.cards) {
      const v = this.cardPool.pop() ?? new CardView();
      v.code = c.code;
      v.hand = c.hand;
      v.slot = counts[c.hand]++;
      v.faceUp = true;
      v.paint(this.cardArt);
      const p = cardSpot(this.motion.layout, v.hand, v.slot);
      v.position.set(p.x, p.y);
      v.rotation = p.rotation;
      v.scale.set(1);
      v.alpha = 1;
      v.visible = true;
      this.cardLayer.addChild(v);
      this.cards.push(v);
    }
    for (const hand of ['player', 'banker'] as const) {
      const badge = this.totals[hand];
      badge.show(hand === 'player' ? receipt.playerTotal : receipt.bankerTotal);
      badge.alpha = 1;
      badge.scale.set(1);
    }
  }

  /** The cards slide onto the discard pile at `target` and fade; the totals go. */
  sweep(target: { x: number; y: number }): Promise<void>[] {
    const { layout } = this.motion;
    const to = this.motion.to.bind(this.motion);
    const scale = Math.min((layout.discard.h * 0.62) / this.cardArt.height, (layout.discard.w * 0.7) / this.cardArt.width);
    const moves: Promise<void>[] = [];
    this.cards.forEach((v, i) => {
      moves.push(
        to(v, { x: target.x, y: target.y - i * 0.6, rotation: Math.PI / 2 + (i % 2 ? 0.06 : -0.05) }, TIMING.sweep, {
          delay: i * 35,
          ease: easeInOutCubic,
        }),
      );
      moves.push(to(v.scale, { x: scale, y: scale }, TIMING.sweep, { delay: i * 35, ease: easeInOutCubic }));
      moves.push(to(v, { alpha: 0 }, 120, { delay: i * 35 + TIMING.sweep - 100, ease: easeInCubic }));
    });
    moves.push(to(this.totals.player, { alpha: 0 }, 200));
    moves.push(to(this.totals.banker, { alpha: 0 }, 200));
    return moves;
  }

  /** Drops the cards and the totals at once. */
  clear(): void {
    this.squeeze.release();
    for (const v of this.cards) {
      v.visible = false;
      v.removeFromParent();
      this.cardPool.push(v);
    }
    this.cards.length = 0;
    this.totals.player.show(null);
    this.totals.banker.show(null);
    this.totals.player.alpha = this.totals.banker.alpha = 1;
  }

  /** A new layout: the totals by their hands, the cards in their new slots at the new size. */
  relayout(): void {
    const L = this.motion.layout;
    for (const hand of ['player', 'banker'] as const) {
      const spot = totalBadgeSpot(L, hand);
      const badge = this.totals[hand];
      badge.size(spot.r);
      badge.position.set(spot.x, spot.y);
    }
    for (const v of this.cards) {
      v.paint(this.cardArt);
      const p = cardSpot(L, v.hand, v.slot);
      v.position.set(p.x, p.y);
      v.rotation = p.rotation;
      v.scale.set(1);
    }
    this.squeeze.relayout();
  }

  destroy(): void {
    for (const v of this.cardPool) v.destroy({ children: true });
    this.cardPool.length = 0;
  }

  private async dealCard(v: CardView, delay: number): Promise<void> {
    const p = cardSpot(this.motion.layout, v.hand, v.slot);
    this.motion.cue('cardSlide', delay, v.hand);
    await Promise.all([
      this.motion.to(v, { alpha: 1 }, 60, { delay }),
      this.motion.to(v, { x: p.x, y: p.y, rotation: p.rotation }, TIMING.deal, { delay, ease: easeOutCubic }),
      this.motion.to(v.scale, { x: 1, y: 1 }, TIMING.deal, { delay, ease: easeOutCubic }),
    ]);
  }

  private async flip(v: CardView, delay: number): Promise<void> {
    await this.motion.to(v.scale, { x: 0, y: 1.06 }, TIMING.flipHalf, { delay, ease: easeInCubic });
    this.motion.cue('cardFlip');
    v.faceUp = true;
    v.paint(this.cardArt);
    await this.motion.to(v.scale, { x: 1, y: 1 }, TIMING.flipHalf, { ease: easeOutCubic });
  }

  private showTotal(hand: Hand, value: number): void {
    const badge = this.totals[hand];
    const changed = badge.value !== value || !badge.visible;
    badge.show(value);
    badge.alpha = 1;
    if (changed && this.motion.speed > 0) {
      badge.scale.set(0.6);
      void this.motion.to(badge.scale, { x: 1, y: 1 }, 220, { ease: easeOutBack });
    }
  }
}

function totalOf(codes: readonly CardCode[]): number {
  return handTotal(codes.map((c) => parseCard(c) ?? 0));
}
