/**
 * What the scene lends the parts it orchestrates (the cards of a round, the chip stacks, the shoe's
 * moves, the effects): the layout and options now, and its one animator. Every tween goes through
 * `to` and `wait`, so the ticker runs only while something moves.
 */
import type { TableLayout } from '../layout.ts';
import type { Container } from './pixi.ts';
import type { Numeric } from './tween.ts';
import type { SceneCue, SceneOptions } from './types.ts';

export type Hand = 'player' | 'banker';

/**
 * Milliseconds at normal speed. A natural takes about 1.9 s from the first card to the last chip,
 * a six-card round about 3 s; the sweep before the next deal 0.4 s.
 */
export const TIMING = {
  deal: 260,
  dealGap: 120,
  flipHalf: 90,
  pause: 90,
  banner: 220,
  collect: 320,
  /** Payouts start this long after the collection does: the dealer works with both hands. */
  payAfter: 140,
  pay: 340,
  payGap: 60,
  sweep: 320,
} as const;

export interface SceneMotion {
  readonly layout: TableLayout;
  readonly opts: SceneOptions;
  /** The animator's speed: 0 when everything lands at once (reduced motion, or off-screen). */
  readonly speed: number;
  to(
    target: Numeric | Container | { x: number; y: number },
    props: Readonly<Record<string, number>>,
    ms: number,
    opts?: { delay?: number; ease?: (t: number) => number },
  ): Promise<void>;
  wait(ms: number): Promise<void>;
  /** Asks for at least one more frame. */
  invalidate(): void;
  /** Tells the host a sound's moment has come (animated play only). */
  cue(name: SceneCue, delay?: number, hand?: Hand): void;
}
