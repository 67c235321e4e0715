/**
 * The scene's interface, without Pixi: what the element (and a host's own scene) needs to know
 * about a table scene. The Pixi implementation is ./index.ts, loaded lazily; keeping these types
 * here means the element's public declarations never pull in Pixi's.
 */
import type { CardCode } from '../../shared/cards.ts';
import type { Outcome } from '../../shared/round.ts';
import type { SettledBet } from '../../shared/settle.ts';
import type { Bet, Box } from '../../shared/table.ts';
import type { Rect } from '../layout.ts';

export interface SceneLabels {
  player: string;
  banker: string;
  tie: string;
  pays: { player: string; banker: string; tie: string };
  /** Optional: the banner headline per outcome ("Banker wins", "Tie"); defaults to the box label. */
  result?: { player: string; banker: string; tie: string };
  /** Optional: shown after the score on a natural ("Natural"). */
  natural?: string;
  /** Optional: the pill of a stake handed back on a tie ("Returned"); '↩' when absent. */
  returned?: string;
  /** Optional: printed on the discard tray ("Discard"). */
  discard?: string;
}

/**
 * A moment the scene's animation reaches, for sound in step with it: the names are the sound
 * module's cues (widget/sound), plus 'result' when the banner shows (the dealer's voice calls it).
 */
export type SceneCue = 'cardSlide' | 'cardFlip' | 'chipPlace' | 'chipsPay' | 'chipsCollect' | 'win' | 'result';

export interface SceneOptions {
  reducedMotion: boolean;
  labels: SceneLabels;
  /** Intl-formatted by the element. */
  formatAmount(minor: number): string;
  /** Optional: the short value printed on a chip (default: play money's, 100 → "0.1"); a wallet session's currency has its own. */
  chipLabel?(minor: number): string;
  /** e.g. "0.10 – 10.00". */
  limitsText: string;
  /** Optional: the name printed on the felt; "PUNTO BANCO" by default. */
  title?: string;
  /**
   * Optional, true by default: the name is printed on the plaque on a phone too. A shared table's
   * clock and player count sit over the plaque there, so it turns this off.
   */
  titleOnPhone?: boolean;
  /**
   * Optional: the labels' language ('el', 'ru'…). Capitals on the felt and the banner follow its
   * rules (Greek capitals drop the tonos); without it, the default (accent-keeping) rules apply.
   */
  language?: string;
  /** Optional: 'fast' plays every animation at twice the speed; reducedMotion still makes it all instant. */
  speed?: 'normal' | 'fast';
  /**
   * Optional: told each time the animation reaches a sound's moment (never under reduced motion: all
   * of it lands at once); a card going out (`cardSlide`) names the hand it goes to.
   */
  onCue?(cue: SceneCue, hand?: 'player' | 'banker'): void;
  /**
   * Optional, off by default: the squeeze. The first two cards of the side the player backed (and its
   * third) stay face down until the player turns them (`peelCard`, `turnCards`), or 6 s pass. Display
   * only: the receipt decided the round already.
   */
  squeeze?: boolean;
  /** Optional: told each time the cards waiting to be squeezed change (none: an empty list). */
  onSqueeze?(cards: readonly SqueezeCard[]): void;
}

/** A card waiting to be squeezed: its index among the round's cards, its hand and slot, and its rect (table px). */
export interface SqueezeCard {
  card: number;
  hand: 'player' | 'banker';
  slot: number;
  rect: Rect;
}

/**
 * What the scene reads from a settled round: structurally a subset of the widget's round view
 * (`SettledRound`, round-view.ts), so a round is passed as is.
 */
export interface RoundReceipt {
  cards: readonly { code: CardCode; hand: 'player' | 'banker' }[];
  playerTotal: number;
  bankerTotal: number;
  outcome: Outcome;
  natural: boolean;
  payouts: readonly SettledBet[];
}

export interface TableScene {
  /** The element appends it (aria-hidden) under the DOM overlay. */
  readonly canvas: HTMLCanvasElement;
  /** CSS pixels; uses tableLayout internally. */
  resize(width: number, height: number): void;
  /** Draws chip stacks on the boxes (instant). `chips` are the room's denominations. */
  setBets(bets: readonly Bet[], chips: readonly number[]): void;
  /** Hover/focus/drag-over glow. */
  setHighlight(spot: { sector: number; box: Box } | null): void;
  /**
   * The shoe's count and the discard pile. `cutAt` (optional): how many cards are left in the shoe
   * when the cut card comes out (the committed `cutCardFromEnd`); the cut card is drawn in the shoe
   * there, and in the discard tray once out or when no shoe is in play.
   */
  setShoe(info: { cardsLeft: number; total: number; discarded: number; cutAt?: number; caption?: string }): void;
  /**
   * Animates a whole settled round from its receipt body: cards out of the shoe P,B,P,B face down
   * then turned, third cards, totals, result banner, winning stacks paid / losing stacks collected.
   * Resolves when done (at once under reducedMotion). Losing stacks stay hidden afterwards: call
   * setBets with the next round's bets.
   */
  playRound(receipt: RoundReceipt): Promise<void>;
  /**
   * Puts a settled round on the felt at once, as playRound leaves it (cards face up, totals,
   * result, payouts): how a rebuilt scene shows the round its predecessor had drawn. Optional for
   * a scene of the host's own (the element then shows the bets only).
   */
  showRound?(receipt: RoundReceipt): void;
  /**
   * Sweeps the cards to the discard tray and clears the result (before the next deal). With
   * `{ instant: true }` removes cards, banner, totals and payouts at once (a room switch).
   */
  clearRound(opts?: { instant?: boolean }): Promise<void>;
  /** The cut card slides out of the shoe into the discard tray (the round in progress is the shoe's last). */
  cutCardOut?(): Promise<void>;
  /**
   * A new shoe: the stack is shuffled, the player's cut (0 < cutFraction < 1, from the top) visibly
   * splits it, the halves swap, the cut card goes in and the stack goes into the shoe.
   */
  shuffleAndCut?(cutFraction: number): Promise<void>;
  /**
   * The offer of the cut on the felt (optional): the shuffled stack drawn in `place` (table CSS px,
   * given by the DOM slider over it) on a dark mat filling `mat` (the slider), the cut card over it
   * at `fraction` (0–1 of the stack, from the top) — `hover`, `held` while moved, `placed` once
   * dropped in — or nothing (null). A shuffleAndCut or reshuffle takes the offer's place.
   */
  offerCut?(offer: { place: Rect; mat?: Rect; fraction: number; state: 'hover' | 'held' | 'placed' } | null): void;
  /**
   * Reshuffle mode, before a round: the discard goes back into the stack, riffled once, and the
   * stack into the shoe (a short shuffle; instant under reduced motion).
   */
  reshuffle?(): Promise<void>;
  /**
   * The squeeze (option `squeeze`): a drag on waiting card `card` from `from` to `to` (table px)
   * lifts its corner, and turns it once lifted far enough; `done` when the pointer lets go (short
   * of that, the corner falls back).
   */
  peelCard?(card: number, from: { x: number; y: number }, to: { x: number; y: number }, done: boolean): void;
  /** The squeeze: turns waiting card `card`, or all of them (Reveal). */
  turnCards?(card: number | 'all'): void;
  /** A short pulse on the given boxes (the player's winning bets); settling does it itself. */
  flashWins?(spots: readonly { sector: number; box: Box }[]): Promise<void>;
  /**
   * Language, money format, motion or speed change. A language switch (labels, language,
   * formatAmount) relabels the felt, the result banner and the payout pills at once.
   */
  setOptions(opts: Partial<SceneOptions>): void;
  /** Stops the ticker when off-screen; resumes it when true. */
  setRunning(running: boolean): void;
  /** Destroys the Pixi app and textures and loses the WebGL context. Idempotent. */
  destroy(): void;
}
