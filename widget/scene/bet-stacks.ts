/**
 * The chips on the felt: one stack per bet on its box, the payout stacks of a settled round, and
 * the dealer's hands — losing stacks collected, winnings slid out, a tie's stakes marked returned.
 */
import type { SettledBet } from '../../shared/settle.ts';
import type { Bet, Box } from '../../shared/table.ts';
import { type BoxSpot, spotOf, type TableLayout } from '../layout.ts';
import { type ChipArt, chipRise, chipsFor, ChipStack, stackChips } from './chips.ts';
import type { FeltView } from './felt.ts';
import { TIMING, type SceneMotion } from './motion.ts';
import type { ChipColours } from './palette.ts';
import { Container } from './pixi.ts';
import { easeInCubic, easeOutCubic } from './tween.ts';
import type { RoundReceipt } from './types.ts';

export class BetStacks {
  /** The bets' stacks (under) and the payouts' (over them), for the stage. */
  readonly stackLayer = new Container();
  readonly payLayer = new Container();
  private bets: Bet[] = [];
  private chips: number[] = [];
  private readonly stacks = new Map<string, ChipStack>();
  private readonly stackPool: ChipStack[] = [];
  /** Payout stacks of the settled round, by box key, and the settled bets they pay. */
  private readonly payouts = new Map<string, ChipStack>();
  private readonly paid = new Map<string, SettledBet>();
  /** Boxes whose stake a tie hands back: their pill says so. */
  private readonly returned = new Set<string>();
  /** Boxes whose stack the dealer collected this round (hidden until the next setBets). */
  private readonly collected = new Set<string>();

  private readonly motion: SceneMotion;
  private readonly chipArt: ChipArt;
  /** Where the felt printed each box's name (a stack stands beside it). */
  private readonly felt: FeltView;

  constructor(motion: SceneMotion, chipArt: ChipArt, felt: FeltView) {
    this.motion = motion;
    this.chipArt = chipArt;
    this.felt = felt;
  }

  /** The next round's bets (the room's chip denominations with them): every stack shows again. */
  setBets(bets: readonly Bet[], chips: readonly number[]): void {
    this.bets = bets.map((b) => ({ ...b }));
    this.chips = [...chips].sort((a, b) => a - b);
    this.collected.clear();
    this.returned.clear();
    this.render(true);
  }

  /** Shows one stack per bet (hiding collected ones) and re-places the round's payouts. */
  render(bounce: boolean): void {
    const { layout, opts } = this.motion;
    this.chipArt.configure(chipDiameter(layout), this.chips);
    const keep = new Set<string>();
    for (const bet of this.bets) {
      const key = keyOf(bet.sector, bet.box);
      const spot = spotOf(layout, bet.sector, bet.box);
      if (!spot || bet.amount <= 0) continue;
      keep.add(key);
      let stack = this.stacks.get(key);
      const grew = !stack || bet.amount > stack.amount;
      if (!stack) {
        stack = this.stackPool.pop() ?? new ChipStack();
        this.stacks.set(key, stack);
        this.stackLayer.addChild(stack);
      }
      const at = this.stackSpot(spot, 'bet', this.payouts.has(key), bet.amount);
      if (this.returned.has(key)) stack.show(this.chipArt, bet.amount, this.returnedCaption(bet.amount), 'returned', at.away);
      else stack.show(this.chipArt, bet.amount, opts.formatAmount(bet.amount), 'bet', at.away);
      stack.position.set(at.x, at.y);
      this.keepOnTable(stack, spot);
      stack.alpha = 1;
      stack.visible = !this.collected.has(key);
      stack.scale.set(1);
      if (bounce && grew && stack.visible && this.motion.speed > 0) {
        this.motion.cue('chipPlace');
        stack.scale.set(1.14);
        void this.motion.to(stack.scale, { x: 1, y: 1 }, 140, { ease: easeOutCubic });
      }
    }
    for (const [key, stack] of this.stacks) {
      if (keep.has(key)) continue;
      this.stacks.delete(key);
      stack.removeFromParent();
      this.stackPool.push(stack);
    }
    for (const [key, stack] of this.payouts) {
      const [sector, box] = splitKey(key);
      const spot = spotOf(layout, sector, box);
      if (!spot) continue;
      const bet = this.paid.get(key);
      const at = this.stackSpot(spot, 'payout', true, stack.amount);
      stack.show(this.chipArt, stack.amount, bet ? this.winCaption(bet) : stack.caption, 'win', at.away);
      stack.position.set(at.x, at.y);
      this.keepOnTable(stack, spot);
    }
  }

  /** The stacks as settle() leaves them, at once: losing stacks collected, each winning box with its payout. */
  show(r: RoundReceipt): void {
    for (const p of r.payouts) {
      if (p.result === 'lose') this.collected.add(keyOf(p.sector, p.box));
      else if (p.result === 'push') this.returned.add(keyOf(p.sector, p.box));
      else if (p.result === 'win' && spotOf(this.motion.layout, p.sector, p.box)) this.payoutStack(p);
    }
    this.render(false);
  }

  /**
   * Losing stacks go to the dealer; each winning box gets a payout stack slid from the dealer.
   * `flashWins` pulses the winning boxes (it runs on past the payouts).
   */
  async settle(r: RoundReceipt, flashWins: (spots: readonly SettledBet[]) => Promise<void>): Promise<void> {
    const { layout } = this.motion;
    const to = this.motion.to.bind(this.motion);
    // A tie hands the Punto and Banco stakes back: their pills say "returned", not a win.
    for (const p of r.payouts) if (p.result === 'push') this.returned.add(keyOf(p.sector, p.box));
    if (this.returned.size > 0) this.render(false);
    const moves: Promise<void>[] = [];
    const dealer = { x: layout.width / 2, y: layout.playerHand.y + layout.playerHand.h / 2 };
    let lost = 0;
    if (r.payouts.some((p) => p.result === 'lose')) this.motion.cue('chipsCollect');
    for (const p of r.payouts) {
      if (p.result !== 'lose') continue;
      const key = keyOf(p.sector, p.box);
      const stack = this.stacks.get(key);
      this.collected.add(key);
      if (!stack || !stack.visible) continue;
      moves.push(to(stack, { x: dealer.x, y: dealer.y, alpha: 0 }, TIMING.collect, { delay: lost++ * 40, ease: easeInCubic }));
    }
    let paid = 0;
    for (const p of r.payouts) {
      if (p.result !== 'win') continue;
      const spot = spotOf(layout, p.sector, p.box);
      if (!spot) continue;
      const key = keyOf(p.sector, p.box);
      const stack = this.payoutStack(p);
      stack.position.set(dealer.x, dealer.y);
      stack.alpha = 0;
      const at = this.stackSpot(spot, 'payout', true, stack.amount);
      const delay = (lost > 0 ? TIMING.payAfter : 0) + paid++ * TIMING.payGap;
      moves.push(to(stack, { alpha: 1 }, 120, { delay }));
      moves.push(to(stack, { x: at.x, y: at.y }, TIMING.pay, { delay, ease: easeOutCubic }));
      // Where the box is narrow the bet steps aside for it, so that both read as a pair.
      const bet = this.stacks.get(key);
      const aside = this.stackSpot(spot, 'bet', true, bet?.amount ?? 0);
      if (bet && (bet.x !== aside.x || bet.y !== aside.y)) {
        bet.show(this.chipArt, bet.amount, bet.caption, bet.kind, aside.away);
        moves.push(to(bet, { x: aside.x, y: aside.y }, TIMING.pay, { delay, ease: easeOutCubic }));
      }
    }
    const winners = r.payouts.filter((p) => p.result === 'win');
    if (winners.length > 0) {
      this.motion.cue('chipsPay', lost > 0 ? TIMING.payAfter : 0);
      this.motion.cue('win');
    }
    // The pulse runs on past the payouts: the round is settled when the chips are.
    if (winners.length > 0) void flashWins(winners);
    await Promise.all(moves);
    // Pills are laid along their boxes where the stacks have come to rest.
    for (const [key, stack] of [...this.stacks, ...this.payouts]) {
      const spot = spotOf(layout, ...splitKey(key));
      if (spot) this.keepOnTable(stack, spot);
    }
    for (const key of this.collected) {
      const stack = this.stacks.get(key);
      if (stack) stack.visible = false;
    }
  }

  /** Winnings go to the player: down into the chip tray (the sweep before the next deal). */
  sweep(): Promise<void>[] {
    const tray = this.motion.layout.chipTray;
    return [...this.payouts.values()].map((p) => this.motion.to(p, { y: tray.y + tray.h / 2, alpha: 0 }, TIMING.collect, { ease: easeInCubic }));
  }

  /** Drops the round's payouts at once (the bets' stacks stay). */
  clear(): void {
    for (const p of this.payouts.values()) {
      p.visible = false;
      p.removeFromParent();
      this.stackPool.push(p);
    }
    this.payouts.clear();
    this.paid.clear();
    this.returned.clear();
  }

  /** Visible bet stacks and payout stacks, for the scene's inspect(). */
  counts(): { stacks: number; payouts: number } {
    return { stacks: [...this.stacks.values()].filter((s) => s.visible && s.alpha > 0).length, payouts: this.payouts.size };
  }

  /** Every stack's pill as a rect (table CSS px), with the box it belongs to. */
  pills(): { name: string; of: string; x: number; y: number; w: number; h: number; angle?: number }[] {
    const out: { name: string; of: string; x: number; y: number; w: number; h: number; angle?: number }[] = [];
    for (const [key, stack] of [...this.stacks, ...this.payouts]) {
      const pill = stack.pillRect();
      const [sector, box] = key.split(':');
      if (pill) out.push({ name: `pill of sector ${Number(sector) + 1} ${box}`, of: `sector ${Number(sector) + 1} ${box}`, ...pill });
    }
    return out;
  }

  /** Where the top chip of a box's bet stands (table CSS px), its diameter and the colours it was drawn in. */
  peek(sector: number, box: Box): { x: number; y: number; diameter: number; colours: ChipColours[] } | null {
    const stack = this.stacks.get(keyOf(sector, box));
    if (!stack?.visible) return null;
    const top = stack.topChipY();
    return {
      x: stack.x,
      y: stack.y + top,
      diameter: this.chipArt.diameter,
      colours: chipsFor(stack.amount, this.chips).map((c) => this.chipArt.coloursOf(c)),
    };
  }

  destroy(): void {
    for (const s of this.stackPool) s.destroy({ children: true });
    this.stackPool.length = 0;
  }

  private winCaption(p: SettledBet): string {
    return `+${this.motion.opts.formatAmount(p.returned - p.amount)}`;
  }

  private returnedCaption(amount: number): string {
    return `${this.motion.opts.labels.returned ?? '↩'} ${this.motion.opts.formatAmount(amount)}`;
  }

  /** A payout stack for a winning box, on the pay layer (placed by the caller). */
  private payoutStack(p: RoundReceipt['payouts'][number]): ChipStack {
    const key = keyOf(p.sector, p.box);
    const win = p.returned - p.amount;
    const stack = this.stackPool.pop() ?? new ChipStack();
    const spot = spotOf(this.motion.layout, p.sector, p.box);
    stack.show(this.chipArt, win, this.winCaption(p), 'win', spot ? this.stackSpot(spot, 'payout', true, win).away : 1);
    this.paid.set(key, p);
    stack.scale.set(1);
    stack.alpha = 1;
    stack.visible = true;
    this.payLayer.addChild(stack);
    this.payouts.get(key)?.removeFromParent();
    this.payouts.set(key, stack);
    return stack;
  }

  /**
   * Lays a stack's pill along its own box (turned with it, clear of the ring's edges and of the
   * neighbouring boxes): see ChipStack.keepPillWithin.
   */
  private keepOnTable(stack: ChipStack, spot: BoxSpot): void {
    const { cx, cy } = this.motion.layout.arc;
    const { a0, a1, r0, r1 } = spot.wedge;
    const mid = (a0 + a1) / 2;
    const rMid = (r0 + r1) / 2;
    const rho = Math.hypot(stack.x - cx, stack.y - cy);
    const phi = Math.atan2(stack.y - cy, stack.x - cx);
    stack.keepPillWithin({
      angle: spot.angle,
      // The box's local x runs clockwise on screen, towards smaller angles.
      along: rho * (mid - phi),
      across: rho - rMid,
      // The inner of the pill's two long edges is the shorter: measure the box there.
      halfAlong: (across) => ((rMid + across - 8) * (a0 - a1)) / 2,
      halfAcross: (r1 - r0) / 2,
    });
  }

  /**
   * Where a stack stands on a box: beside the printed name, never on it — the bet to the left of the
   * name (in reading direction), the payout to the right. Where the box is too short for that
   * (phones), the pair stands under the name, over the smaller payout print.
   */
  private stackSpot(spot: BoxSpot, role: 'bet' | 'payout', paired: boolean, amount: number): { x: number; y: number; away: -1 | 0 | 1 } {
    const d = this.chipArt.diameter;
    const { cx, cy } = this.motion.layout.arc;
    const w = spot.wedge;
    const rMid = (w.r0 + w.r1) / 2;
    const mid = (w.a0 + w.a1) / 2;
    const half = (rMid * (w.a0 - w.a1)) / 2;
    const thick = w.r1 - w.r0;
    const printed = this.felt.printed[spot.box];
    const side = role === 'bet' ? -1 : 1;
    let along = printed.name + d / 2 + 3;
    // Across the box: on the name's line (the felt prints it a little inside the middle).
    let across = -thick * 0.12;
    // Pills reach away from the name (or from the pair's partner).
    let away: -1 | 0 | 1 = side;
    if (along + d / 2 > half - 2) {
      along = paired ? d * 0.62 : 0;
      // Under the name, clear of it even at the stack's top chip.
      across = printed.nameBottom + d / 2 + 3 + (stackChips(amount, this.chips) - 1) * chipRise(d);
      away = paired ? side : 0;
    }
    const a = spot.angle;
    return {
      x: cx + rMid * Math.cos(mid) + Math.cos(a) * along * side - Math.sin(a) * across,
      y: cy + rMid * Math.sin(mid) + Math.sin(a) * along * side + Math.cos(a) * across,
      away,
    };
  }
}

function keyOf(sector: number, box: Box): string {
  return `${sector}:${box}`;
}

function splitKey(key: string): [number, Box] {
  const [sector, box] = key.split(':');
  return [Number(sector), box as Box];
}

/** One chip size for the whole table: as large as the smallest box comfortably holds. */
function chipDiameter(layout: TableLayout): number {
  let thick = Number.POSITIVE_INFINITY;
  for (const s of layout.boxes) thick = Math.min(thick, s.wedge.r1 - s.wedge.r0);
  // Under half a box's depth: a stack stands beside the box's name, not over it.
  return Math.max(16, Math.min(32, thick * 0.46));
}
