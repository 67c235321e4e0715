/**
 * The scene itself: owns the Pixi application, the layers and the choreography of a round.
 * Renders on demand: the ticker runs only while something moves (or once after a change), so an idle
 * table costs no CPU or GPU time and allocates nothing.
 */
import { Container, createRenderer, Graphics, type Renderer, Text, Ticker, UPDATE_PRIORITY } from './pixi.ts';
import { type CardCode, handTotal, parseCard } from '../../shared/cards.ts';
import type { Bet, Box } from '../../shared/table.ts';
import { type BoxSpot, cardSpot, spotOf, type TableLayout, tableLayout } from '../layout.ts';
import { CardArt } from './cards.ts';
import { ChipArt, chipRise, chipsFor, ChipStack, stackChips } from './chips.ts';
import { FeltView, wedgePath } from './felt.ts';
import type { RoundReceipt, SceneCue, SceneOptions, TableScene } from './index.ts';
import type { SettledBet } from '../../shared/settle.ts';
import { BOX_ACCENT, type ChipColours, FELT } from './palette.ts';
import { type BannerText, CardView, ResultBanner, TotalBadge } from './pieces.ts';
import { cutCardInShoe, DiscardView, drawCutCard, type ShoeInfo, ShoeView } from './shoe.ts';
import { ShuffleView } from './shuffle.ts';
import { upper } from '../i18n/upper.ts';
import { Animator, easeInCubic, easeInOutCubic, easeOutBack, easeOutCubic, type Numeric } from './tween.ts';

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

type Hand = 'player' | 'banker';

export class PixiTable implements TableScene {
  static async create(opts: SceneOptions, width: number, height: number): Promise<PixiTable> {
    // A WebGL renderer of our own (see pixi.ts) rather than Application/autoDetectRenderer: that keeps
    // the WebGPU and canvas renderers, events, filters and loaders out of the bundle.
    const renderer = await createRenderer({
      width,
      height,
      antialias: true,
      backgroundAlpha: 0,
      resolution: Math.min(3, globalThis.devicePixelRatio || 1),
      autoDensity: true,
    });
    return new PixiTable(renderer, opts, width, height);
  }

  readonly canvas: HTMLCanvasElement;
  private readonly renderer: Renderer;
  private readonly stage = new Container();
  private readonly ticker = new Ticker();
  private opts: SceneOptions;
  private layout: TableLayout;
  private readonly anim = new Animator();
  private readonly cardArt: CardArt;
  private readonly chipArt: ChipArt;
  private readonly gl: WebGLRenderingContext | WebGL2RenderingContext | null;

  private readonly felt = new FeltView();
  private readonly highlight = new Graphics();
  private readonly winGlow = new Graphics();
  /** The short pulse on the player's winning boxes. */
  private readonly winFlash = new Graphics();
  /** The cut card in flight from the shoe to the tray. */
  private readonly flyingCut = new Graphics();
  private readonly shuffle = new ShuffleView();
  private shoeInfo: ShoeInfo = { cardsLeft: 0, total: 0, discarded: 0 };
  /** Set by cutCardOut until a new shoe: the cut card stays in the tray whatever the count says. */
  private cutIsOut = false;
  private readonly shoe = new ShoeView();
  private readonly discard = new DiscardView();
  private readonly cardLayer = new Container();
  private readonly stackLayer = new Container();
  private readonly payLayer = new Container();
  private readonly totals: Record<Hand, TotalBadge> = { player: new TotalBadge(BOX_ACCENT.player), banker: new TotalBadge(BOX_ACCENT.banker) };
  private readonly banner = new ResultBanner();

  private bets: Bet[] = [];
  private chips: number[] = [];
  private readonly stacks = new Map<string, ChipStack>();
  private readonly stackPool: ChipStack[] = [];
  /** Payout stacks of the settled round, by box key, and the settled bets they pay. */
  private readonly payouts = new Map<string, ChipStack>();
  private readonly paid = new Map<string, SettledBet>();
  /** Boxes whose stake a tie hands back: their pill says so. */
  private readonly returned = new Set<string>();
  /** The round on the felt (for relabelling its banner on a language switch). */
  private receipt: RoundReceipt | null = null;
  /** Boxes whose stack the dealer collected this round (hidden until the next setBets). */
  private readonly collected = new Set<string>();
  private readonly cards: CardView[] = [];
  private readonly cardPool: CardView[] = [];
  private highlighted: { sector: number; box: Box } | null = null;
  private outcome: Box | null = null;
  private running = true;
  private destroyed = false;
  /** Bumped by every new round, clear and destroy: a choreography whose id is stale stops. */
  private roundId = 0;

  private constructor(renderer: Renderer, opts: SceneOptions, width: number, height: number) {
    this.renderer = renderer;
    this.opts = { ...opts, labels: { ...opts.labels } };
    this.canvas = renderer.canvas;
    this.canvas.setAttribute('aria-hidden', 'true');
    this.canvas.style.display = 'block';
    this.gl = renderer.gl ?? null;
    this.cardArt = new CardArt(renderer);
    this.chipArt = new ChipArt(renderer);
    this.layout = tableLayout(width, height);
    this.stage.addChild(
      this.felt,
      this.winGlow,
      this.winFlash,
      this.highlight,
      this.discard,
      this.shoe,
      this.cardLayer,
      this.totals.player,
      this.totals.banker,
      this.stackLayer,
      this.payLayer,
      this.banner,
      this.shuffle,
      this.flyingCut,
    );
    this.flyingCut.visible = false;
    // Per frame: advance the tweens, render, and stop when nothing moves any more.
    this.ticker.autoStart = false;
    this.ticker.add(this.onTick, this, UPDATE_PRIORITY.NORMAL);
    this.ticker.add(this.renderNow, this, UPDATE_PRIORITY.LOW);
    this.ticker.add(this.afterRender, this, UPDATE_PRIORITY.UTILITY);
    this.updateSpeed();
    this.rebuild();
  }

  // ── TableScene ────────────────────────────────────────────────────────────────────────────────

  resize(width: number, height: number): void {
    if (this.destroyed) return;
    const w = Math.max(1, Math.round(width));
    const h = Math.max(1, Math.round(height));
    if (w === this.layout.width && h === this.layout.height) return;
    this.renderer.resize(w, h);
    this.layout = tableLayout(w, h);
    this.rebuild();
  }

  setBets(bets: readonly Bet[], chips: readonly number[]): void {
    if (this.destroyed) return;
    this.bets = bets.map((b) => ({ ...b }));
    this.chips = [...chips].sort((a, b) => a - b);
    this.collected.clear();
    this.returned.clear();
    this.renderStacks(true);
    this.invalidate();
  }

  setHighlight(spot: { sector: number; box: Box } | null): void {
    if (this.destroyed) return;
    this.highlighted = spot ? { sector: spot.sector, box: spot.box } : null;
    this.drawHighlight();
    this.invalidate();
  }

  setShoe(info: ShoeInfo): void {
    if (this.destroyed) return;
    this.shoeInfo = { ...info };
    // A full shoe is a new one: its cut card is back in the stack.
    if (info.total > 0 && info.cardsLeft >= info.total) this.cutIsOut = false;
    this.shoe.setInfo(info);
    this.discard.setDiscarded(info.discarded);
    this.placeCutCard();
    this.invalidate();
  }

  async playRound(receipt: RoundReceipt): Promise<void> {
    if (this.destroyed) return;
    this.clearNow();
    const id = ++this.roundId;
    const live = (): boolean => id === this.roundId && !this.destroyed;
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
      const from = this.shoe.mouth;
      v.position.set(from.x, from.y);
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
    if (!live()) return;
    const shown: Record<Hand, CardCode[]> = { player: [], banker: [] };
    for (const hand of ['player', 'banker'] as const) {
      const pair = firstFour.filter((v) => v.hand === hand);
      await Promise.all(pair.map((v, i) => this.flip(v, i * 60)));
      if (!live()) return;
      for (const v of pair) shown[hand].push(v.code);
      this.showTotal(hand, totalOf(shown[hand]));
      await this.wait(TIMING.pause / 2);
      if (!live()) return;
    }
    // Third cards, in the order the receipt dealt them.
    for (const v of views.slice(4)) {
      await this.wait(TIMING.pause);
      if (!live()) return;
      await this.dealCard(v, 0);
      if (!live()) return;
      await this.flip(v, 0);
      if (!live()) return;
      shown[v.hand].push(v.code);
      this.showTotal(v.hand, totalOf(shown[v.hand]));
    }
    // The receipt's totals are the truth; the running totals above only mirror them.
    this.showTotal('player', receipt.playerTotal);
    this.showTotal('banker', receipt.bankerTotal);
    await this.wait(TIMING.pause);
    if (!live()) return;
    await this.showResult(receipt);
    if (!live()) return;
    await this.settle(receipt);
    this.invalidate();
  }

  showRound(receipt: RoundReceipt): void {
    if (this.destroyed) return;
    this.clearNow();
    this.roundId++; // a choreography still running is over: this is its end state
    const counts: Record<Hand, number> = { player: 0, banker: 0 };
    for (const c of receipt.cards) {
      const v = this.cardPool.pop() ?? new CardView();
      v.code = c.code;
      v.hand = c.hand;
      v.slot = counts[c.hand]++;
      v.faceUp = true;
      v.paint(this.cardArt);
      const p = cardSpot(this.layout, v.hand, v.slot);
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
    this.putResult(receipt);
    // As settle() leaves them: losing stacks collected, each winning box with its payout.
    for (const p of receipt.payouts) {
      if (p.result === 'lose') this.collected.add(keyOf(p.sector, p.box));
      else if (p.result === 'push') this.returned.add(keyOf(p.sector, p.box));
      else if (p.result === 'win' && spotOf(this.layout, p.sector, p.box)) this.payoutStack(p);
    }
    this.renderStacks(false);
    this.invalidate();
  }

  async clearRound(opts: { instant?: boolean } = {}): Promise<void> {
    if (this.destroyed) return;
    const id = ++this.roundId;
    if (opts.instant) {
      this.clearNow();
      this.renderStacks(false);
      this.invalidate();
      return;
    }
    const target = this.discard.centre;
    const scale = Math.min((this.layout.discard.h * 0.62) / this.cardArt.height, (this.layout.discard.w * 0.7) / this.cardArt.width);
    const moves: Promise<void>[] = [];
    this.cards.forEach((v, i) => {
      moves.push(
        this.to(v, { x: target.x, y: target.y - i * 0.6, rotation: Math.PI / 2 + (i % 2 ? 0.06 : -0.05) }, TIMING.sweep, {
          delay: i * 35,
          ease: easeInOutCubic,
        }),
      );
      moves.push(this.to(v.scale, { x: scale, y: scale }, TIMING.sweep, { delay: i * 35, ease: easeInOutCubic }));
      moves.push(this.to(v, { alpha: 0 }, 120, { delay: i * 35 + TIMING.sweep - 100, ease: easeInCubic }));
    });
    // Winnings go to the player: down into the chip tray.
    const tray = this.layout.chipTray;
    for (const p of this.payouts.values()) moves.push(this.to(p, { y: tray.y + tray.h / 2, alpha: 0 }, TIMING.collect, { ease: easeInCubic }));
    moves.push(this.to(this.banner, { alpha: 0 }, 200));
    moves.push(this.to(this.winGlow, { alpha: 0 }, 200));
    moves.push(this.to(this.totals.player, { alpha: 0 }, 200));
    moves.push(this.to(this.totals.banker, { alpha: 0 }, 200));
    await Promise.all(moves);
    if (id !== this.roundId || this.destroyed) return;
    this.clearNow();
    this.renderStacks(false);
    this.invalidate();
  }

  async cutCardOut(): Promise<void> {
    if (this.destroyed) return;
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
    const size = Math.min((this.layout.discard.h * 0.62) / this.cardArt.height, (this.layout.discard.w * 0.7) / this.cardArt.width);
    // Out of the mouth first (a short slide), then across to the tray.
    await this.to(card, { x: from.x - this.layout.card.w * 0.5 }, TIMING.deal * 0.6, { ease: easeOutCubic });
    await Promise.all([
      this.to(card, { x: to.x, y: to.y, rotation: to.rotation }, TIMING.deal * 2, { ease: easeInOutCubic }),
      this.to(card.scale, { x: size, y: size }, TIMING.deal * 2, { ease: easeInOutCubic }),
    ]);
    if (this.destroyed) return;
    card.visible = false;
    this.placeCutCard();
    this.invalidate();
  }

  async shuffleAndCut(cutFraction: number): Promise<void> {
    if (this.destroyed) return;
    this.clearNow();
    this.renderStacks(false);
    const id = ++this.roundId;
    const live = (): boolean => id === this.roundId && !this.destroyed;
    const s = this.shuffle;
    const { w, h } = s.size;
    const parts = s.split(0.5);
    s.alpha = 0;
    s.scale.set(1);
    s.visible = true;
    this.cutIsOut = false;
    this.shoe.showCutCard(false);
    this.discard.showCutCard(false);
    await this.to(s, { alpha: 1 }, 160);
    await this.riffle(parts, 2, 1, live);
    if (!live()) return;
    // The player's cut: the cut card goes in where they cut, the stack parts there and the back part
    // goes to the front.
    const cut = s.split(cutFraction);
    s.marker.alpha = 0;
    s.marker.y = -h * 1.6;
    await Promise.all([this.to(s.marker, { alpha: 1 }, 120), this.to(s.marker, { y: 0 }, 260, { ease: easeOutCubic })]);
    if (!live()) return;
    await this.wait(TIMING.pause);
    const frontW = cut.back - cut.front;
    const backW = w - frontW;
    await Promise.all([this.to(s.front, { y: -h / 2 - h * 1.3 }, 220, { ease: easeOutCubic }), this.to(s.marker, { alpha: 0 }, 220)]);
    await Promise.all([
      this.to(s.back, { x: cut.front }, 260, { ease: easeInOutCubic }),
      this.to(s.front, { x: cut.front + backW }, 260, { ease: easeInOutCubic }),
    ]);
    await this.to(s.front, { y: -h / 2 }, 180, { ease: easeInCubic });
    if (!live()) return;
    // Into the shoe.
    const mouth = this.shoe.mouth;
    await this.wait(TIMING.pause);
    await Promise.all([
      this.to(s, { x: mouth.x + this.layout.shoe.w * 0.35, y: mouth.y, alpha: 0 }, 360, { ease: easeInCubic }),
      this.to(s.scale, { x: 0.25, y: 0.6 }, 360, { ease: easeInCubic }),
    ]);
    if (!live()) return;
    s.visible = false;
    this.shuffle.layout(this.layout.result);
    s.alpha = 1;
    s.scale.set(1);
    this.placeCutCard();
    this.invalidate();
  }

  /** The riffle: the stack's halves part and go back into one another, `times` times (`pace` scales the time). */
  private async riffle(parts: { front: number; back: number }, times: number, pace: number, live: () => boolean): Promise<void> {
    const s = this.shuffle;
    const { w, h } = s.size;
    for (let i = 0; i < times && live(); i++) {
      await Promise.all([
        this.to(s.front, { x: parts.front - w * 0.08, y: -h / 2 - h * 0.35 }, 150 * pace, { ease: easeOutCubic }),
        this.to(s.back, { x: parts.back + w * 0.08, y: -h / 2 + h * 0.35 }, 150 * pace, { ease: easeOutCubic }),
      ]);
      await Promise.all([
        this.to(s.front, { x: parts.front, y: -h / 2 }, 170 * pace, { ease: easeInOutCubic }),
        this.to(s.back, { x: parts.back, y: -h / 2 }, 170 * pace, { ease: easeInOutCubic }),
      ]);
    }
  }

  async reshuffle(): Promise<void> {
    if (this.destroyed) return;
    const id = ++this.roundId;
    const live = (): boolean => id === this.roundId && !this.destroyed;
    const s = this.shuffle;
    const parts = s.split(0.5);
    // The discard goes back: the tray empties into one stack in the middle, riffled once, into the shoe.
    this.discard.setDiscarded(0);
    s.alpha = 0;
    s.scale.set(1);
    s.visible = true;
    await this.to(s, { alpha: 1 }, 120);
    await this.riffle(parts, 1, 0.85, live);
    if (live()) {
      const mouth = this.shoe.mouth;
      await Promise.all([
        this.to(s, { x: mouth.x + this.layout.shoe.w * 0.35, y: mouth.y, alpha: 0 }, 260, { ease: easeInCubic }),
        this.to(s.scale, { x: 0.25, y: 0.6 }, 260, { ease: easeInCubic }),
      ]);
    }
    s.visible = false;
    this.shuffle.layout(this.layout.result);
    s.alpha = 1;
    s.scale.set(1);
    this.invalidate();
  }

  async flashWins(spots: readonly { sector: number; box: Box }[]): Promise<void> {
    if (this.destroyed) return;
    const g = this.winFlash;
    g.clear();
    const { cx, cy } = this.layout.arc;
    for (const s of spots) {
      const spot = spotOf(this.layout, s.sector, s.box);
      if (!spot) continue;
      wedgePath(g, cx, cy, spot.wedge).fill({ color: FELT.goldLight, alpha: 0.32 });
      wedgePath(g, cx, cy, spot.wedge).stroke({ width: 3, color: 0xffffff, alpha: 0.9 });
    }
    g.alpha = 0;
    // Two quick pulses, then gone: the steady glow stays with the result.
    for (let i = 0; i < 2; i++) {
      await this.to(g, { alpha: 1 }, 140, { ease: easeOutCubic });
      await this.to(g, { alpha: 0 }, 260, { ease: easeInCubic });
    }
    if (!this.destroyed) g.clear();
  }

  setOptions(opts: Partial<SceneOptions>): void {
    if (this.destroyed) return;
    const before = this.opts;
    this.opts = { ...before, ...opts, labels: { ...(opts.labels ?? before.labels) } };
    this.updateSpeed();
    const relabel = opts.labels !== undefined || opts.language !== undefined;
    if (relabel || opts.limitsText !== undefined || opts.title !== undefined || opts.titleOnPhone !== undefined) this.drawFelt();
    // The banner and every pill say it again in the new language and money format.
    if (relabel && this.receipt && this.banner.visible) this.banner.show(this.bannerText(this.receipt));
    if (relabel || opts.formatAmount) this.renderStacks(false);
    this.invalidate();
  }

  setRunning(running: boolean): void {
    if (this.destroyed) return;
    this.running = running;
    this.updateSpeed();
    if (running) this.invalidate();
    else this.ticker.stop();
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.roundId++;
    this.anim.speed = 0; // resolves every pending tween, so awaiting callers return
    this.ticker.stop();
    this.ticker.destroy();
    for (const v of this.cardPool) v.destroy({ children: true });
    for (const s of this.stackPool) s.destroy({ children: true });
    this.cardPool.length = 0;
    this.stackPool.length = 0;
    // The stage's children (texts, graphics, the felt's cached texture) go with it; the baked card
    // and chip textures are ours, destroyed just after (shared gradients stay, see gradients.ts).
    // Pixi's GL context system calls WEBGL_lose_context; we make sure of it below.
    this.stage.destroy({ children: true, texture: false });
    this.renderer.destroy({ removeView: true });
    this.cardArt.destroy();
    this.chipArt.destroy();
    const lose = this.gl?.getExtension('WEBGL_lose_context');
    if (this.gl && !this.gl.isContextLost()) lose?.loseContext();
  }

  // ── For tests ───────────────────────────────────────────────────────────────────────────────

  /** A read-only peek at the scene's state, for tests and the screenshot harness. */
  inspect(): {
    cutCard: { shoe: boolean; tray: boolean; flying: boolean };
    shuffling: boolean;
    cards: { code: CardCode; faceUp: boolean; hand: Hand }[];
    totals: Record<Hand, number | null>;
    banner: boolean;
    stacks: number;
    payouts: number;
    baked: number;
    ticking: boolean;
    contextLost: boolean | null;
  } {
    return {
      cutCard: { shoe: this.shoe.cutCardShown, tray: this.discard.cutCard.visible, flying: this.flyingCut.visible },
      shuffling: this.shuffle.visible,
      cards: this.cards.filter((c) => c.visible).map((c) => ({ code: c.code, faceUp: c.faceUp, hand: c.hand })),
      totals: { player: this.totals.player.visible ? this.totals.player.value : null, banker: this.totals.banker.visible ? this.totals.banker.value : null },
      banner: this.banner.visible,
      stacks: [...this.stacks.values()].filter((s) => s.visible && s.alpha > 0).length,
      payouts: this.payouts.size,
      baked: this.cardArt.baked,
      ticking: this.destroyed ? false : this.ticker.started,
      contextLost: this.gl ? this.gl.isContextLost() : null,
    };
  }

  /**
   * What the scene draws now above and on the arc, as rects in table CSS px, for the layout tests:
   * the two hands' areas, every card on the felt, the result banner, the stacks' pills (`of`: the
   * box the pill belongs to, "sector N box").
   */
  drawnRects(): { name: string; of?: string; x: number; y: number; w: number; h: number; angle?: number }[] {
    const out: { name: string; of?: string; x: number; y: number; w: number; h: number; angle?: number }[] = [];
    const bounds = (c: Container): { x: number; y: number; w: number; h: number } => {
      const b = c.getBounds();
      return { x: b.x, y: b.y, w: b.width, h: b.height };
    };
    out.push({ name: 'Player hand', ...this.layout.playerHand }, { name: 'Banker hand', ...this.layout.bankerHand });
    this.cards.forEach((c, i) => c.visible && c.alpha > 0 && out.push({ name: `card ${i + 1} (${c.hand})`, ...bounds(c) }));
    if (this.banner.visible && this.banner.alpha > 0) out.push({ name: 'result banner', ...bounds(this.banner) });
    for (const [key, stack] of [...this.stacks, ...this.payouts]) {
      const pill = stack.pillRect();
      const [sector, box] = key.split(':');
      if (pill) out.push({ name: `pill of sector ${Number(sector) + 1} ${box}`, of: `sector ${Number(sector) + 1} ${box}`, ...pill });
    }
    return out;
  }

  /** Where the top chip of a box's bet stands (table CSS px), its diameter and the colours it was drawn in: for tests. */
  peekStack(sector: number, box: Box): { x: number; y: number; diameter: number; colours: ChipColours[] } | null {
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

  /** Every text the scene shows now (felt, banner, pills), in stage order: for tests. */
  texts(): string[] {
    const out: string[] = [];
    const walk = (c: Container): void => {
      if (!c.visible) return;
      if (c instanceof Text) {
        if (c.text !== '') out.push(c.text);
        return;
      }
      for (const child of c.children) walk(child);
    };
    walk(this.stage);
    return out;
  }

  /** Renders now (for screenshots and tests). */
  renderNow(): void {
    if (!this.destroyed) this.renderer.render(this.stage);
  }

  // ── Rendering on demand ──────────────────────────────────────────────────────────────────────

  private onTick(ticker: Ticker): void {
    this.anim.update(ticker.deltaMS);
  }

  private afterRender(ticker: Ticker): void {
    if (!this.anim.busy) ticker.stop();
  }

  /** Asks for at least one more frame. */
  private invalidate(): void {
    if (this.running && !this.destroyed) this.ticker.start();
  }

  private updateSpeed(): void {
    this.anim.speed = this.opts.reducedMotion || !this.running ? 0 : this.opts.speed === 'fast' ? 2 : 1;
  }

  private to(
    target: Numeric | Container | { x: number; y: number },
    props: Readonly<Record<string, number>>,
    ms: number,
    opts: { delay?: number; ease?: (t: number) => number } = {},
  ): Promise<void> {
    this.invalidate();
    return this.anim.to(target as Numeric, props, ms, opts);
  }

  private wait(ms: number): Promise<void> {
    this.invalidate();
    return this.anim.wait(ms);
  }

  // ── Drawing ──────────────────────────────────────────────────────────────────────────────────

  private rebuild(): void {
    const L = this.layout;
    this.cardArt.setSize(L.card.w, L.card.h);
    this.cardArt.back();
    this.cardArt.shadow();
    this.drawFelt();
    this.shoe.layout(L.shoe, this.cardArt);
    this.discard.layout(L.discard, this.cardArt);
    this.shuffle.layout(L.result);
    drawCutCard(this.flyingCut, L.card.w, L.card.h);
    this.placeCutCard();
    this.banner.layout(this.bannerRect());
    const head = L.handHeader;
    for (const hand of ['player', 'banker'] as const) {
      const r = hand === 'player' ? L.playerHand : L.bankerHand;
      const badge = this.totals[hand];
      badge.size(head * 0.5);
      badge.position.set(r.x + r.w - head * 0.75, r.y + head / 2 + 2);
    }
    // Cards on the table move to their new slots at the new size.
    for (const v of this.cards) {
      v.paint(this.cardArt);
      const p = cardSpot(L, v.hand, v.slot);
      v.position.set(p.x, p.y);
      v.rotation = p.rotation;
      v.scale.set(1);
    }
    this.renderStacks(false);
    this.drawHighlight();
    this.drawWinGlow();
    this.invalidate();
  }

  /** The result rect, narrowed where needed so that the plate never covers a sector number. */
  private bannerRect(): { x: number; y: number; w: number; h: number } {
    const r = this.layout.result;
    const mid = r.x + r.w / 2;
    let half = r.w / 2;
    for (const disc of this.felt.sectorDiscs) {
      if (disc.y + disc.r < r.y || disc.y - disc.r > r.y + r.h) continue;
      half = Math.min(half, Math.abs(disc.x - mid) - disc.r - 4);
    }
    half = Math.max(r.h * 2, half);
    return { x: mid - half, y: r.y, w: half * 2, h: r.h };
  }

  private drawFelt(): void {
    this.discard.setName(upper(this.opts.labels.discard ?? 'Discard', this.opts.language ?? ''));
    this.felt.draw(
      this.layout,
      {
        labels: this.opts.labels,
        limitsText: this.opts.limitsText,
        title: this.layout.compact && this.opts.titleOnPhone === false ? '' : (this.opts.title ?? 'PUNTO BANCO'),
        language: this.opts.language ?? '',
      },
      this.renderer.resolution,
    );
  }

  private drawHighlight(): void {
    const g = this.highlight;
    g.clear();
    const h = this.highlighted;
    const spot = h ? spotOf(this.layout, h.sector, h.box) : undefined;
    if (!spot) return;
    const { cx, cy } = this.layout.arc;
    wedgePath(g, cx, cy, spot.wedge).fill({ color: 0xffffff, alpha: 0.12 });
    wedgePath(g, cx, cy, spot.wedge).stroke({ width: 6, color: FELT.goldLight, alpha: 0.22 });
    wedgePath(g, cx, cy, spot.wedge).stroke({ width: 2, color: FELT.goldLight, alpha: 0.95 });
  }

  private drawWinGlow(): void {
    const g = this.winGlow;
    g.clear();
    if (!this.outcome) return;
    const { cx, cy } = this.layout.arc;
    for (const spot of this.layout.boxes) {
      if (spot.box !== this.outcome) continue;
      wedgePath(g, cx, cy, spot.wedge).fill({ color: FELT.goldLight, alpha: 0.16 }).stroke({ width: 2, color: FELT.goldLight, alpha: 0.7 });
    }
  }

  /** Shows one stack per bet (hiding collected ones) and re-places the round's payouts. */
  private renderStacks(bounce: boolean): void {
    this.chipArt.configure(chipDiameter(this.layout), this.chips);
    const keep = new Set<string>();
    for (const bet of this.bets) {
      const key = keyOf(bet.sector, bet.box);
      const spot = spotOf(this.layout, bet.sector, bet.box);
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
      else stack.show(this.chipArt, bet.amount, this.opts.formatAmount(bet.amount), 'bet', at.away);
      stack.position.set(at.x, at.y);
      this.keepOnTable(stack, spot);
      stack.alpha = 1;
      stack.visible = !this.collected.has(key);
      stack.scale.set(1);
      if (bounce && grew && stack.visible && this.anim.speed > 0) {
        this.cue('chipPlace');
        stack.scale.set(1.14);
        void this.to(stack.scale, { x: 1, y: 1 }, 140, { ease: easeOutCubic });
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
      const spot = spotOf(this.layout, sector, box);
      if (!spot) continue;
      const bet = this.paid.get(key);
      const at = this.stackSpot(spot, 'payout', true, stack.amount);
      stack.show(this.chipArt, stack.amount, bet ? this.winCaption(bet) : stack.caption, 'win', at.away);
      stack.position.set(at.x, at.y);
      this.keepOnTable(stack, spot);
    }
  }

  /**
   * Lays a stack's pill along its own box (turned with it, clear of the ring's edges and of the
   * neighbouring boxes): see ChipStack.keepPillWithin.
   */
  private keepOnTable(stack: ChipStack, spot: BoxSpot): void {
    const { cx, cy } = this.layout.arc;
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
    const { cx, cy } = this.layout.arc;
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

  /** Puts the cut card where it is now: in the shoe's stack, or lying in the discard tray. */
  private placeCutCard(): void {
    if (this.flyingCut.visible || this.shuffle.visible) return;
    const info = this.shoeInfo;
    const inShoe = !this.cutIsOut && cutCardInShoe(info);
    this.shoe.showCutCard(inShoe);
    // Unknown position (no cutAt): the card waits in the tray while the tray is empty.
    this.discard.showCutCard(info.cutAt === undefined ? info.discarded === 0 : !inShoe);
  }

  // ── Choreography ─────────────────────────────────────────────────────────────────────────────

  /** Tells the host a sound's moment has come (animated play only). */
  private cue(name: SceneCue, delay = 0, hand?: Hand): void {
    const onCue = this.opts.onCue;
    if (!onCue || this.anim.speed === 0) return;
    if (delay <= 0) {
      onCue(name, hand);
      return;
    }
    const id = this.roundId;
    void this.wait(delay).then(() => {
      if (id === this.roundId && !this.destroyed && this.anim.speed > 0) onCue(name, hand);
    });
  }

  private async dealCard(v: CardView, delay: number): Promise<void> {
    const p = cardSpot(this.layout, v.hand, v.slot);
    this.cue('cardSlide', delay, v.hand);
    await Promise.all([
      this.to(v, { alpha: 1 }, 60, { delay }),
      this.to(v, { x: p.x, y: p.y, rotation: p.rotation }, TIMING.deal, { delay, ease: easeOutCubic }),
      this.to(v.scale, { x: 1, y: 1 }, TIMING.deal, { delay, ease: easeOutCubic }),
    ]);
  }

  private async flip(v: CardView, delay: number): Promise<void> {
    await this.to(v.scale, { x: 0, y: 1.06 }, TIMING.flipHalf, { delay, ease: easeInCubic });
    this.cue('cardFlip');
    v.faceUp = true;
    v.paint(this.cardArt);
    await this.to(v.scale, { x: 1, y: 1 }, TIMING.flipHalf, { ease: easeOutCubic });
  }

  private showTotal(hand: Hand, value: number): void {
    const badge = this.totals[hand];
    const changed = badge.value !== value || !badge.visible;
    badge.show(value);
    badge.alpha = 1;
    if (changed && this.anim.speed > 0) {
      badge.scale.set(0.6);
      void this.to(badge.scale, { x: 1, y: 1 }, 220, { ease: easeOutBack });
    }
  }

  /** Shows the result banner and the winning boxes' glow (at full strength). */
  private putResult(r: RoundReceipt): void {
    this.receipt = r;
    this.banner.show(this.bannerText(r));
    this.banner.alpha = 1;
    this.banner.scale.set(1);
    this.outcome = r.outcome;
    this.drawWinGlow();
    this.winGlow.alpha = 1;
  }

  /** The banner's words for `r` in the current language. */
  private bannerText(r: RoundReceipt): BannerText {
    const labels = this.opts.labels;
    const lang = this.opts.language ?? '';
    const headline = upper(labels.result?.[r.outcome] ?? labels[r.outcome], lang);
    // The totals with their hands' names, winner first ("BANKER 7 · PLAYER 4"): never "7 : 4", which reads as odds.
    const player = `${upper(labels.player, lang)} ${r.playerTotal}`;
    const banker = `${upper(labels.banker, lang)} ${r.bankerTotal}`;
    const score = r.outcome === 'banker' ? `${banker} · ${player}` : `${player} · ${banker}`;
    const detail = r.natural && labels.natural ? `${score} · ${upper(labels.natural, lang)}` : score;
    return { headline, detail, outcome: r.outcome };
  }

  private winCaption(p: SettledBet): string {
    return `+${this.opts.formatAmount(p.returned - p.amount)}`;
  }

  private returnedCaption(amount: number): string {
    return `${this.opts.labels.returned ?? '↩'} ${this.opts.formatAmount(amount)}`;
  }

  private async showResult(r: RoundReceipt): Promise<void> {
    this.putResult(r);
    this.banner.alpha = 0;
    this.banner.scale.set(0.86);
    this.winGlow.alpha = 0;
    this.cue('result');
    await Promise.all([
      this.to(this.banner, { alpha: 1 }, TIMING.banner),
      this.to(this.banner.scale, { x: 1, y: 1 }, TIMING.banner, { ease: easeOutBack }),
      this.to(this.winGlow, { alpha: 1 }, TIMING.banner),
    ]);
  }

  /** Losing stacks go to the dealer; each winning box gets a payout stack slid from the dealer. */
  private async settle(r: RoundReceipt): Promise<void> {
    // A tie hands the Punto and Banco stakes back: their pills say "returned", not a win.
    for (const p of r.payouts) if (p.result === 'push') this.returned.add(keyOf(p.sector, p.box));
    if (this.returned.size > 0) this.renderStacks(false);
    const moves: Promise<void>[] = [];
    const dealer = { x: this.layout.width / 2, y: this.layout.playerHand.y + this.layout.playerHand.h / 2 };
    let lost = 0;
    if (r.payouts.some((p) => p.result === 'lose')) this.cue('chipsCollect');
    for (const p of r.payouts) {
      if (p.result !== 'lose') continue;
      const key = keyOf(p.sector, p.box);
      const stack = this.stacks.get(key);
      this.collected.add(key);
      if (!stack || !stack.visible) continue;
      moves.push(this.to(stack, { x: dealer.x, y: dealer.y, alpha: 0 }, TIMING.collect, { delay: lost++ * 40, ease: easeInCubic }));
    }
    let paid = 0;
    for (const p of r.payouts) {
      if (p.result !== 'win') continue;
      const spot = spotOf(this.layout, p.sector, p.box);
      if (!spot) continue;
      const key = keyOf(p.sector, p.box);
      const stack = this.payoutStack(p);
      stack.position.set(dealer.x, dealer.y);
      stack.alpha = 0;
      const to = this.stackSpot(spot, 'payout', true, stack.amount);
      const delay = (lost > 0 ? TIMING.payAfter : 0) + paid++ * TIMING.payGap;
      moves.push(this.to(stack, { alpha: 1 }, 120, { delay }));
      moves.push(this.to(stack, { x: to.x, y: to.y }, TIMING.pay, { delay, ease: easeOutCubic }));
      // Where the box is narrow the bet steps aside for it, so that both read as a pair.
      const bet = this.stacks.get(key);
      const aside = this.stackSpot(spot, 'bet', true, bet?.amount ?? 0);
      if (bet && (bet.x !== aside.x || bet.y !== aside.y)) {
        bet.show(this.chipArt, bet.amount, bet.caption, bet.kind, aside.away);
        moves.push(this.to(bet, { x: aside.x, y: aside.y }, TIMING.pay, { delay, ease: easeOutCubic }));
      }
    }
    const winners = r.payouts.filter((p) => p.result === 'win');
    if (winners.length > 0) {
      this.cue('chipsPay', lost > 0 ? TIMING.payAfter : 0);
      this.cue('win');
    }
    // The pulse runs on past the payouts: the round is settled when the chips are.
    if (winners.length > 0) void this.flashWins(winners);
    await Promise.all(moves);
    // Pills are laid along their boxes where the stacks have come to rest.
    for (const [key, stack] of [...this.stacks, ...this.payouts]) {
      const spot = spotOf(this.layout, ...splitKey(key));
      if (spot) this.keepOnTable(stack, spot);
    }
    for (const key of this.collected) {
      const stack = this.stacks.get(key);
      if (stack) stack.visible = false;
    }
  }

  /** A payout stack for a winning box, on the pay layer (placed by the caller). */
  private payoutStack(p: RoundReceipt['payouts'][number]): ChipStack {
    const key = keyOf(p.sector, p.box);
    const win = p.returned - p.amount;
    const stack = this.stackPool.pop() ?? new ChipStack();
    const spot = spotOf(this.layout, p.sector, p.box);
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

  /** Drops the round's cards, payouts and result at once. */
  private clearNow(): void {
    // Jump any sweep or deal still running to its end first: its pieces are about to be reused.
    this.anim.finishAll();
    for (const v of this.cards) {
      v.visible = false;
      v.removeFromParent();
      this.cardPool.push(v);
    }
    this.cards.length = 0;
    for (const p of this.payouts.values()) {
      p.visible = false;
      p.removeFromParent();
      this.stackPool.push(p);
    }
    this.payouts.clear();
    this.paid.clear();
    this.returned.clear();
    this.receipt = null;
    this.banner.hide();
    this.banner.alpha = 1;
    this.totals.player.show(null);
    this.totals.banker.show(null);
    this.totals.player.alpha = this.totals.banker.alpha = 1;
    this.outcome = null;
    this.winFlash.clear();
    this.winGlow.alpha = 1;
    this.drawWinGlow();
  }
}

function keyOf(sector: number, box: Box): string {
  return `${sector}:${box}`;
}

function splitKey(key: string): [number, Box] {
  const [sector, box] = key.split(':');
  return [Number(sector), box as Box];
}

function totalOf(codes: readonly CardCode[]): number {
  return handTotal(codes.map((c) => parseCard(c) ?? 0));
}

/** One chip size for the whole table: as large as the smallest box comfortably holds. */
function chipDiameter(layout: TableLayout): number {
  let thick = Number.POSITIVE_INFINITY;
  for (const s of layout.boxes) thick = Math.min(thick, s.wedge.r1 - s.wedge.r0);
  // Under half a box's depth: a stack stands beside the box's name, not over it.
  return Math.max(16, Math.min(32, thick * 0.46));
}
