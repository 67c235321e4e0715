/**
 * The felt's effects: the glow of a box under the pointer or a dragged chip, the result banner
 * with the winning boxes' steady glow, and the short pulse on the player's winning boxes.
 */
import type { Box } from '../../shared/table.ts';
import { spotOf } from '../layout.ts';
import { upper } from '../i18n/upper.ts';
import { type FeltView, wedgePath } from './felt.ts';
import { TIMING, type SceneMotion } from './motion.ts';
import { FELT } from './palette.ts';
import { type BannerText, ResultBanner } from './pieces.ts';
import { Graphics } from './pixi.ts';
import { easeInCubic, easeOutBack, easeOutCubic } from './tween.ts';
import type { RoundReceipt } from './types.ts';

export class TableEffects {
  readonly highlight = new Graphics();
  readonly winGlow = new Graphics();
  /** The short pulse on the player's winning boxes. */
  readonly winFlash = new Graphics();
  readonly banner = new ResultBanner();
  private highlighted: { sector: number; box: Box } | null = null;
  private outcome: Box | null = null;
  /** The round on the felt (for relabelling its banner on a language switch). */
  private receipt: RoundReceipt | null = null;
  private readonly motion: SceneMotion;
  /** Where the felt printed the sector numbers (the banner keeps clear of them). */
  private readonly felt: FeltView;

  constructor(motion: SceneMotion, felt: FeltView) {
    this.motion = motion;
    this.felt = felt;
  }

  /** The scene's layout changed (the felt is already drawn). */
  relayout(): void {
    this.banner.layout(this.bannerRect());
  }

  /** Redraws the glows where the layout puts the boxes now. */
  redraw(): void {
    this.drawHighlight();
    this.drawWinGlow();
  }

  setHighlight(spot: { sector: number; box: Box } | null): void {
    this.highlighted = spot ? { sector: spot.sector, box: spot.box } : null;
    this.drawHighlight();
  }

  /** Shows the result banner and the winning boxes' glow (at full strength). */
  putResult(r: RoundReceipt): void {
    this.receipt = r;
    this.banner.show(this.bannerText(r));
    this.banner.alpha = 1;
    this.banner.scale.set(1);
    this.outcome = r.outcome;
    this.drawWinGlow();
    this.winGlow.alpha = 1;
  }

  /** The banner and the glow come up. */
  async showResult(r: RoundReceipt): Promise<void> {
    this.putResult(r);
    this.banner.alpha = 0;
    this.banner.scale.set(0.86);
    this.winGlow.alpha = 0;
    this.motion.cue('result');
    await Promise.all([
      this.motion.to(this.banner, { alpha: 1 }, TIMING.banner),
      this.motion.to(this.banner.scale, { x: 1, y: 1 }, TIMING.banner, { ease: easeOutBack }),
      this.motion.to(this.winGlow, { alpha: 1 }, TIMING.banner),
    ]);
  }

  /** The banner says it again in the new language. */
  relabel(): void {
    if (this.receipt && this.banner.visible) this.banner.show(this.bannerText(this.receipt));
  }

  /** Two quick pulses on the given boxes, then gone: the steady glow stays with the result. */
  async flashWins(spots: readonly { sector: number; box: Box }[], alive: () => boolean): Promise<void> {
    const g = this.winFlash;
    g.clear();
    const { cx, cy } = this.motion.layout.arc;
    for (const s of spots) {
      const spot = spotOf(this.motion.layout, s.sector, s.box);
      if (!spot) continue;
      wedgePath(g, cx, cy, spot.wedge).fill({ color: FELT.goldLight, alpha: 0.32 });
      wedgePath(g, cx, cy, spot.wedge).stroke({ width: 3, color: 0xffffff, alpha: 0.9 });
    }
    g.alpha = 0;
    for (let i = 0; i < 2; i++) {
      await this.motion.to(g, { alpha: 1 }, 140, { ease: easeOutCubic });
      await this.motion.to(g, { alpha: 0 }, 260, { ease: easeInCubic });
    }
    if (alive()) g.clear();
  }

  /** The banner and the glow fade (the sweep before the next deal). */
  sweep(): Promise<void>[] {
    return [this.motion.to(this.banner, { alpha: 0 }, 200), this.motion.to(this.winGlow, { alpha: 0 }, 200)];
  }

  /** Drops the result at once. */
  clear(): void {
    this.receipt = null;
    this.banner.hide();
    this.banner.alpha = 1;
    this.outcome = null;
    this.winFlash.clear();
    this.winGlow.alpha = 1;
    this.drawWinGlow();
  }

  /** The result rect, narrowed where needed so that the plate never covers a sector number. */
  private bannerRect(): { x: number; y: number; w: number; h: number } {
    const r = this.motion.layout.result;
    const mid = r.x + r.w / 2;
    let half = r.w / 2;
    for (const disc of this.felt.sectorDiscs) {
      if (disc.y + disc.r < r.y || disc.y - disc.r > r.y + r.h) continue;
      half = Math.min(half, Math.abs(disc.x - mid) - disc.r - 4);
    }
    half = Math.max(r.h * 2, half);
    return { x: mid - half, y: r.y, w: half * 2, h: r.h };
  }

  /** The banner's words for `r` in the current language. */
  private bannerText(r: RoundReceipt): BannerText {
    const labels = this.motion.opts.labels;
    const lang = this.motion.opts.language ?? '';
    const headline = upper(labels.result?.[r.outcome] ?? labels[r.outcome], lang);
    // The totals with their hands' names, winner first ("BANKER 7 · PLAYER 4"): never "7 : 4", which reads as odds.
    const player = `${upper(labels.player, lang)} ${r.playerTotal}`;
    const banker = `${upper(labels.banker, lang)} ${r.bankerTotal}`;
    const score = r.outcome === 'banker' ? `${banker} · ${player}` : `${player} · ${banker}`;
    const detail = r.natural && labels.natural ? `${score} · ${upper(labels.natural, lang)}` : score;
    return { headline, detail, outcome: r.outcome };
  }

  private drawHighlight(): void {
    const g = this.highlight;
    g.clear();
    const h = this.highlighted;
    const { layout } = this.motion;
    const spot = h ? spotOf(layout, h.sector, h.box) : undefined;
    if (!spot) return;
    const { cx, cy } = layout.arc;
    wedgePath(g, cx, cy, spot.wedge).fill({ color: 0xffffff, alpha: 0.12 });
    wedgePath(g, cx, cy, spot.wedge).stroke({ width: 6, color: FELT.goldLight, alpha: 0.22 });
    wedgePath(g, cx, cy, spot.wedge).stroke({ width: 2, color: FELT.goldLight, alpha: 0.95 });
  }

  private drawWinGlow(): void {
    const g = this.winGlow;
    g.clear();
    if (!this.outcome) return;
    const { cx, cy } = this.motion.layout.arc;
    for (const spot of this.motion.layout.boxes) {
      if (spot.box !== this.outcome) continue;
      wedgePath(g, cx, cy, spot.wedge).fill({ color: FELT.goldLight, alpha: 0.16 }).stroke({ width: 2, color: FELT.goldLight, alpha: 0.7 });
    }
  }
}
