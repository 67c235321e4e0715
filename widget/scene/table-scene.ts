/**
 * The scene itself: owns the Pixi application and the stage, and orchestrates what it draws — the
 * felt (felt.ts), the round's cards and totals (dealt-cards.ts), the chip stacks (bet-stacks.ts),
 * the shoe's moves (shoe-moves.ts) and the effects (effects.ts) — through one animator
 * (motion.ts). Renders on demand: the ticker runs only while something moves (or once after a
 * change), so an idle table costs no CPU or GPU time and allocates nothing.
 */
import { Container, createRenderer, type Renderer, Text, Ticker, UPDATE_PRIORITY } from './pixi.ts';
import type { CardCode } from '../../shared/cards.ts';
import type { Bet, Box } from '../../shared/table.ts';
import { type TableLayout, tableLayout } from '../layout.ts';
import { BetStacks } from './bet-stacks.ts';
import { CardArt } from './cards.ts';
import { ChipArt } from './chips.ts';
import { DealtCards } from './dealt-cards.ts';
import { TableEffects } from './effects.ts';
import { FeltView } from './felt.ts';
import type { RoundReceipt, SceneCue, SceneOptions, TableScene } from './index.ts';
import { type Hand, type SceneMotion, TIMING } from './motion.ts';
import type { ChipColours } from './palette.ts';
import type { ShoeInfo } from './shoe.ts';
import type { CutOfferView } from './cut-offer.ts';
import { ShoeMoves } from './shoe-moves.ts';
import { upper } from '../i18n/upper.ts';
import { Animator, type Numeric } from './tween.ts';

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
  /** What the parts below read and animate through. */
  private readonly motion: SceneMotion;

  private readonly felt = new FeltView();
  private readonly effects: TableEffects;
  private readonly shoe: ShoeMoves;
  private readonly cards: DealtCards;
  private readonly stacks: BetStacks;
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
    if (opts.chipLabel) this.chipArt.relabel(opts.chipLabel);
    this.layout = tableLayout(width, height);
    // The getters read the scene's layout and options as they change.
    const scene = this;
    this.motion = {
      get layout() {
        return scene.layout;
      },
      get opts() {
        return scene.opts;
      },
      get speed() {
        return scene.anim.speed;
      },
      to: (target, props, ms, o) => this.to(target, props, ms, o),
      wait: (ms) => this.wait(ms),
      invalidate: () => this.invalidate(),
      cue: (name, delay, hand) => this.cue(name, delay, hand),
    };
    this.effects = new TableEffects(this.motion, this.felt);
    this.shoe = new ShoeMoves(this.motion, this.cardArt);
    this.cards = new DealtCards(this.motion, this.cardArt);
    this.stacks = new BetStacks(this.motion, this.chipArt, this.felt);
    this.stage.addChild(
      this.felt,
      this.effects.winGlow,
      this.effects.winFlash,
      this.effects.highlight,
      this.shoe.discard,
      this.shoe.shoe,
      this.cards.cardLayer,
      this.cards.totals.player,
      this.cards.totals.banker,
      this.stacks.stackLayer,
      this.stacks.payLayer,
      this.effects.banner,
      this.shoe.offer,
      this.shoe.shuffle,
      this.shoe.flyingCut,
    );
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
    this.stacks.setBets(bets, chips);
    this.invalidate();
  }

  setHighlight(spot: { sector: number; box: Box } | null): void {
    if (this.destroyed) return;
    this.effects.setHighlight(spot);
    this.invalidate();
  }

  setShoe(info: ShoeInfo): void {
    if (this.destroyed) return;
    this.shoe.setShoe(info);
    this.invalidate();
  }

  async playRound(receipt: RoundReceipt): Promise<void> {
    if (this.destroyed) return;
    this.clearNow();
    const live = this.liveFrom(++this.roundId);
    if (!(await this.cards.deal(receipt, this.shoe.shoe.mouth, live))) return;
    await this.wait(TIMING.pause);
    if (!live()) return;
    await this.effects.showResult(receipt);
    if (!live()) return;
    await this.stacks.settle(receipt, (winners) => this.flashWins(winners));
    this.invalidate();
  }

  showRound(receipt: RoundReceipt): void {
    if (this.destroyed) return;
    this.clearNow();
    this.roundId++; // a choreography still running is over: this is its end state
    this.cards.show(receipt);
    this.effects.putResult(receipt);
    this.stacks.show(receipt);
    this.invalidate();
  }

  async clearRound(opts: { instant?: boolean } = {}): Promise<void> {
    if (this.destroyed) return;
    const id = ++this.roundId;
    this.cards.squeeze.release(); // a squeeze still waiting is over with its round
    if (opts.instant) {
      this.clearNow();
      this.stacks.render(false);
      this.invalidate();
      return;
    }
    await Promise.all([...this.cards.sweep(this.shoe.discard.centre), ...this.stacks.sweep(), ...this.effects.sweep()]);
    if (id !== this.roundId || this.destroyed) return;
    this.clearNow();
    this.stacks.render(false);
    this.invalidate();
  }

  async cutCardOut(): Promise<void> {
    if (this.destroyed) return;
    await this.shoe.cutCardOut(() => !this.destroyed);
    if (!this.destroyed) this.invalidate();
  }

  async shuffleAndCut(cutFraction: number): Promise<void> {
    if (this.destroyed) return;
    this.clearNow();
    this.stacks.render(false);
    const live = this.liveFrom(++this.roundId);
    await this.shoe.shuffleAndCut(cutFraction, live);
    if (live()) this.invalidate();
  }

  offerCut(offer: CutOfferView | null): void {
    if (this.destroyed) return;
    this.shoe.offer.show(offer);
    this.invalidate();
  }

  async reshuffle(): Promise<void> {
    if (this.destroyed) return;
    await this.shoe.reshuffle(this.liveFrom(++this.roundId));
    this.invalidate();
  }

  peelCard(card: number, from: { x: number; y: number }, to: { x: number; y: number }, done: boolean): void {
    if (!this.destroyed) this.cards.squeeze.peel(card, from, to, done);
  }

  turnCards(card: number | 'all'): void {
    if (!this.destroyed) this.cards.squeeze.turn(card);
  }

  /** The squeeze's clock (real time by default): tests put their own here. */
  set squeezeClock(clock: (ms: number) => Promise<void>) {
    this.cards.squeeze.clock = clock;
  }

  async flashWins(spots: readonly { sector: number; box: Box }[]): Promise<void> {
    if (this.destroyed) return;
    await this.effects.flashWins(spots, () => !this.destroyed);
  }

  setOptions(opts: Partial<SceneOptions>): void {
    if (this.destroyed) return;
    const before = this.opts;
    this.opts = { ...before, ...opts, labels: { ...(opts.labels ?? before.labels) } };
    this.updateSpeed();
    if (opts.squeeze === false) this.cards.squeeze.turn('all');
    const relabel = opts.labels !== undefined || opts.language !== undefined;
    if (relabel || opts.limitsText !== undefined || opts.title !== undefined || opts.titleOnPhone !== undefined) this.drawFelt();
    // The banner and every pill say it again in the new language and money format.
    if (relabel) this.effects.relabel();
    const chipsRelabelled = opts.chipLabel ? this.chipArt.relabel(opts.chipLabel) : false;
    if (relabel || opts.formatAmount || chipsRelabelled) this.stacks.render(false);
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
    this.cards.squeeze.release();
    this.anim.speed = 0; // resolves every pending tween, so awaiting callers return
    this.ticker.stop();
    this.ticker.destroy();
    this.cards.destroy();
    this.stacks.destroy();
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
    /** The result banner's words as drawn: font px of the headline and of the score (0: none); null when no banner. */
    bannerWords: { headline: number; detail: number } | null;
    /** The offer of the cut on the felt: where its card stands (0–1 of the stack) and how; null when none. */
    cutOffer: { fraction: number; state: CutOfferView['state'] } | null;
    cards: { code: CardCode; faceUp: boolean; hand: Hand }[];
    /** The squeeze: the cards waiting to be turned (their indexes), and how many are lifted now. */
    squeeze: { waiting: number[]; peeling: number };
    totals: Record<Hand, number | null>;
    banner: boolean;
    stacks: number;
    payouts: number;
    baked: number;
    ticking: boolean;
    contextLost: boolean | null;
  } {
    const { totals } = this.cards;
    const offer = this.shoe.offer.drawn();
    const words = this.effects.banner.words();
    return {
      cutCard: this.shoe.cutCard(),
      shuffling: this.shoe.shuffle.visible,
      cutOffer: offer ? { fraction: offer.fraction, state: offer.state } : null,
      bannerWords: words ? { headline: words.headline, detail: words.detail } : null,
      cards: this.cards.cards.filter((c) => c.visible).map((c) => ({ code: c.code, faceUp: c.faceUp, hand: c.hand })),
      squeeze: { waiting: this.cards.squeeze.waiting().map((c) => c.card), peeling: this.cards.squeeze.peeling },
      totals: { player: totals.player.visible ? totals.player.value : null, banker: totals.banker.visible ? totals.banker.value : null },
      banner: this.effects.banner.visible,
      ...this.stacks.counts(),
      baked: this.cardArt.baked,
      ticking: this.destroyed ? false : this.ticker.started,
      contextLost: this.gl ? this.gl.isContextLost() : null,
    };
  }

  /**
   * What the scene draws now above and on the arc, as rects in table CSS px, for the layout tests:
   * the two hands' areas, every card on the felt, the result banner, the stacks' pills (`of`: the
   * box the pill belongs to, "sector N box"), and the offer's stack and cut card while it shows.
   */
  drawnRects(): { name: string; of?: string; x: number; y: number; w: number; h: number; angle?: number }[] {
    const out: { name: string; of?: string; x: number; y: number; w: number; h: number; angle?: number }[] = [];
    const bounds = (c: Container): { x: number; y: number; w: number; h: number } => {
      const b = c.getBounds();
      return { x: b.x, y: b.y, w: b.width, h: b.height };
    };
    out.push({ name: 'Player hand', ...this.layout.playerHand }, { name: 'Banker hand', ...this.layout.bankerHand });
    this.cards.cards.forEach((c, i) => c.visible && c.alpha > 0 && out.push({ name: `card ${i + 1} (${c.hand})`, ...bounds(c) }));
    const banner = this.effects.banner;
    if (banner.visible && banner.alpha > 0) out.push({ name: 'result banner', ...bounds(banner) });
    out.push(...this.stacks.pills());
    out.push(...(this.effects.banner.words()?.rects ?? []));
    // The hands' printed names and their totals' discs.
    this.felt.handLabels.forEach((t, i) => out.push({ name: `${i === 0 ? 'Player' : 'Banker'} label`, ...bounds(t) }));
    for (const hand of ['player', 'banker'] as const) {
      const badge = this.cards.totals[hand];
      if (badge.visible && badge.alpha > 0) out.push({ name: `${hand === 'player' ? 'Player' : 'Banker'} total`, ...bounds(badge) });
    }
    const offer = this.shoe.offer.drawn();
    if (offer) out.push({ name: 'cut stack', ...offer.stack }, { name: 'cut card', ...offer.card });
    return out;
  }

  /** Where the top chip of a box's bet stands (table CSS px), its diameter and the colours it was drawn in: for tests. */
  peekStack(sector: number, box: Box): { x: number; y: number; diameter: number; colours: ChipColours[] } | null {
    return this.stacks.peek(sector, box);
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
    this.shoe.relayout();
    this.effects.relayout();
    // Cards on the table move to their new slots at the new size.
    this.cards.relayout();
    this.stacks.render(false);
    this.effects.redraw();
    this.invalidate();
  }

  private drawFelt(): void {
    this.shoe.discard.setName(upper(this.opts.labels.discard ?? 'Discard', this.opts.language ?? ''));
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

  // ── Choreography ─────────────────────────────────────────────────────────────────────────────

  /** True while the choreography `id` is the scene's latest and the scene lives. */
  private liveFrom(id: number): () => boolean {
    return () => id === this.roundId && !this.destroyed;
  }

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

  /** Drops the round's cards, payouts and result at once. */
  private clearNow(): void {
    // Jump any sweep or deal still running to its end first: its pieces are about to be reused.
    this.anim.finishAll();
    this.cards.clear();
    this.stacks.clear();
    this.effects.clear();
  }
}
