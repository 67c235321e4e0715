/**
 * The shoe's moves on the felt: its count and the discard pile, the cut card (in the stack, in
 * flight, in the tray), a new shoe's shuffle and the player's cut, and reshuffle mode's riffle.
 */
import type { CardArt } from './cards.ts';
import { TIMING, type SceneMotion } from './motion.ts';
import { Graphics } from './pixi.ts';
import { CutOffer } from './cut-offer.ts';
import { cutCardInShoe, DiscardView, drawCutCard, type ShoeInfo, ShoeView } from './shoe.ts';
import { ShuffleView } from './shuffle.ts';
import { easeInCubic, easeInOutCubic, easeOutCubic } from './tween.ts';

export class ShoeMoves {
  readonly shoe = new ShoeView();
  readonly discard = new DiscardView();
  readonly shuffle = new ShuffleView();
  /** The offer of the cut: the stack and the cut card the player pushes into it. */
  readonly offer = new CutOffer();
  /** The cut card in flight from the shoe to the tray. */
  readonly flyingCut = new Graphics();
  private shoeInfo: ShoeInfo = { cardsLeft: 0, total: 0, discarded: 0 };
  /** Set by cutCardOut until a new shoe: the cut card stays in the tray whatever the count says. */
  private cutIsOut = false;
  private readonly motion: SceneMotion;
  private readonly cardArt: CardArt;

  constructor(motion: SceneMotion, cardArt: CardArt) {
    this.motion = motion;
    this.cardArt = cardArt;
    this.flyingCut.visible = false;
  }

  /** The scene's layout changed (the card art is already at its new size). */
  relayout(): void {
    const L = this.motion.layout;
    this.shoe.layout(L.shoe, this.cardArt);
    this.discard.layout(L.discard, this.cardArt);
    this.shuffle.layout(L.result);
    drawCutCard(this.flyingCut, L.card.w, L.card.h);
    this.placeCutCard();
  }

  setShoe(info: ShoeInfo): void {
    this.shoeInfo = { ...info };
    // A full shoe is a new one: its cut card is back in the stack.
    if (info.total > 0 && info.cardsLeft >= info.total) this.cutIsOut = false;
    this.shoe.setInfo(info);
    this.discard.setDiscarded(info.discarded);
    this.placeCutCard();
  }

  /** The cut card slides out of the shoe's mouth and across to the discard tray. */
  async cutCardOut(alive: () => boolean): Promise<void> {
    const { layout } = this.motion;
    this.cutIsOut = true;
    const from = this.shoe.mouth;
    const to = this.discard.cutCardSpot;
    const card = this.flyingCut;
    this.shoe.showCutCard(false);
    this.discard.showCutCard(false);
    card.position.set(from.x, from.y);
    card.rotation = Math.PI / 2;
    card.scale.set(0.92);
    card.visible = true;
    const size = Math.min((layout.discard.h * 0.62) / this.cardArt.height, (layout.discard.w * 0.7) / this.cardArt.width);
    // Out of the mouth first (a short slide), then across to the tray.
    await this.motion.to(card, { x: from.x - layout.card.w * 0.5 }, TIMING.deal * 0.6, { ease: easeOutCubic });
    await Promise.all([
      this.motion.to(card, { x: to.x, y: to.y, rotation: to.rotation }, TIMING.deal * 2, { ease: easeInOutCubic }),
      this.motion.to(card.scale, { x: size, y: size }, TIMING.deal * 2, { ease: easeInOutCubic }),
    ]);
    if (!alive()) return;
    card.visible = false;
    this.placeCutCard();
  }

  /** A new shoe: shuffled, the player's cut (0 < cutFraction < 1) splits the stack, the halves swap, into the shoe. */
  async shuffleAndCut(cutFraction: number, live: () => boolean): Promise<void> {
    const to = this.motion.to.bind(this.motion);
    const s = this.shuffle;
    const { w, h } = s.size;
    const parts = s.split(0.5);
    this.offer.show(null); // the offer's stack is the one shuffled and cut now
    s.alpha = 0;
    s.scale.set(1);
    s.visible = true;
    this.cutIsOut = false;
    this.shoe.showCutCard(false);
    this.discard.showCutCard(false);
    await to(s, { alpha: 1 }, 160);
    await this.riffle(parts, 2, 1, live);
    if (!live()) return;
    // The player's cut: the cut card goes in where they cut, the stack parts there and the back part
    // goes to the front.
    const cut = s.split(cutFraction);
    s.marker.alpha = 0;
    s.marker.y = -h * 1.6;
    await Promise.all([to(s.marker, { alpha: 1 }, 120), to(s.marker, { y: 0 }, 260, { ease: easeOutCubic })]);
    if (!live()) return;
    await this.motion.wait(TIMING.pause);
    const frontW = cut.back - cut.front;
    const backW = w - frontW;
    await Promise.all([to(s.front, { y: -h / 2 - h * 1.3 }, 220, { ease: easeOutCubic }), to(s.marker, { alpha: 0 }, 220)]);
    await Promise.all([to(s.back, { x: cut.front }, 260, { ease: easeInOutCubic }), to(s.front, { x: cut.front + backW }, 260, { ease: easeInOutCubic })]);
    await to(s.front, { y: -h / 2 }, 180, { ease: easeInCubic });
    if (!live()) return;
    // Into the shoe.
    const mouth = this.shoe.mouth;
    await this.motion.wait(TIMING.pause);
    await Promise.all([
      to(s, { x: mouth.x + this.motion.layout.shoe.w * 0.35, y: mouth.y, alpha: 0 }, 360, { ease: easeInCubic }),
      to(s.scale, { x: 0.25, y: 0.6 }, 360, { ease: easeInCubic }),
    ]);
    if (!live()) return;
    s.visible = false;
    this.shuffle.layout(this.motion.layout.result);
    s.alpha = 1;
    s.scale.set(1);
    this.placeCutCard();
  }

  /** Reshuffle mode: the discard goes back, the tray empties into one stack, riffled once, into the shoe. */
  async reshuffle(live: () => boolean): Promise<void> {
    const s = this.shuffle;
    const parts = s.split(0.5);
    this.offer.show(null);
    this.discard.setDiscarded(0);
    s.alpha = 0;
    s.scale.set(1);
    s.visible = true;
    await this.motion.to(s, { alpha: 1 }, 120);
    await this.riffle(parts, 1, 0.85, live);
    if (live()) {
      const mouth = this.shoe.mouth;
      await Promise.all([
        this.motion.to(s, { x: mouth.x + this.motion.layout.shoe.w * 0.35, y: mouth.y, alpha: 0 }, 260, { ease: easeInCubic }),
        this.motion.to(s.scale, { x: 0.25, y: 0.6 }, 260, { ease: easeInCubic }),
      ]);
    }
    s.visible = false;
    this.shuffle.layout(this.motion.layout.result);
    s.alpha = 1;
    s.scale.set(1);
  }

  /** Where the cut card is now, for the scene's inspect(). */
  cutCard(): { shoe: boolean; tray: boolean; flying: boolean } {
    return { shoe: this.shoe.cutCardShown, tray: this.discard.cutCard.visible, flying: this.flyingCut.visible };
  }

  /** The riffle: the stack's halves part and go back into one another, `times` times (`pace` scales the time). */
  private async riffle(parts: { front: number; back: number }, times: number, pace: number, live: () => boolean): Promise<void> {
    const s = this.shuffle;
    const { w, h } = s.size;
    for (let i = 0; i < times && live(); i++) {
      await Promise.all([
        this.motion.to(s.front, { x: parts.front - w * 0.08, y: -h / 2 - h * 0.35 }, 150 * pace, { ease: easeOutCubic }),
        this.motion.to(s.back, { x: parts.back + w * 0.08, y: -h / 2 + h * 0.35 }, 150 * pace, { ease: easeOutCubic }),
      ]);
      await Promise.all([
        this.motion.to(s.front, { x: parts.front, y: -h / 2 }, 170 * pace, { ease: easeInOutCubic }),
        this.motion.to(s.back, { x: parts.back, y: -h / 2 }, 170 * pace, { ease: easeInOutCubic }),
      ]);
    }
  }

  /** Puts the cut card where it is now: in the shoe's stack, or lying in the discard tray. */
  private placeCutCard(): void {
    if (this.flyingCut.visible || this.shuffle.visible) return;
    const info = this.shoeInfo;
    const inShoe = !this.cutIsOut && cutCardInShoe(info);
    this.shoe.showCutCard(inShoe);
    // Unknown position (no cutAt): the card waits in the tray while the tray is empty.
    this.discard.showCutCard(info.cutAt === undefined ? info.discarded === 0 : !inShoe);
  }
}
