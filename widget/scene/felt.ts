/**
 * The printed felt: rail, lit cloth, the gold arc of five sectors × three boxes with their labels and
 * payouts, the hand areas, the table's name and limits, and the chip tray. Static: rebuilt on resize
 * or language change only, then cached as one texture.
 */
import { Container, Graphics, Text, type TextStyleOptions } from './pixi.ts';
import { clothGradient, railGradient } from './gradients.ts';
import type { Box } from '../../shared/table.ts';
import { arcBorderGap, cardSpot, sectorDisc, type TableLayout, totalBadgeSpot, type Wedge } from '../layout.ts';
import { BOX_ACCENT, BOX_TINT, FELT, SANS, SERIF } from './palette.ts';
import { drawSuit } from './suits.ts';
import { upper } from '../i18n/upper.ts';

export interface FeltText {
  labels: { player: string; banker: string; tie: string; pays: { player: string; banker: string; tie: string } };
  limitsText: string;
  /** Printed on the plaque; empty: the limits alone. */
  title: string;
  /** The labels' language: capitals follow its rules (Greek drops the tonos). */
  language: string;
}

/** Adds the path of one ring segment to `g` (call fill/stroke after). */
export function wedgePath(g: Graphics, cx: number, cy: number, w: Wedge): Graphics {
  const { r0, r1, a0, a1 } = w;
  return g
    .moveTo(cx + r1 * Math.cos(a0), cy + r1 * Math.sin(a0))
    .arc(cx, cy, r1, a0, a1, true)
    .lineTo(cx + r0 * Math.cos(a1), cy + r0 * Math.sin(a1))
    .arc(cx, cy, r0, a1, a0, false)
    .closePath();
}

/** Scales a text down (never up) to fit `maxW` × `maxH`; returns the scale used. */
export function fitText(t: Text, maxW: number, maxH = Number.POSITIVE_INFINITY): number {
  t.scale.set(1);
  const s = Math.min(1, maxW / Math.max(1, t.width), maxH / Math.max(1, t.height));
  t.scale.set(s);
  return s;
}

export class FeltView extends Container {
  /** Half the printed width of each box's name and payout line (table px): chips stand beside them. */
  readonly printed: Record<Box, { name: number; nameBottom: number; pays: number }> = {
    player: { name: 0, nameBottom: 0, pays: 0 },
    banker: { name: 0, nameBottom: 0, pays: 0 },
    tie: { name: 0, nameBottom: 0, pays: 0 },
  };
  /** The printed box names, and the sector numbers' discs (centre and radius): what nothing may cover. */
  readonly names: Text[] = [];
  readonly sectorDiscs: { x: number; y: number; r: number }[] = [];
  /** The hands' printed names (Player, then Banker). */
  readonly handLabels: Text[] = [];

  /** Rebuilds everything for `layout` and `text`, then caches it as one texture at `resolution`. */
  draw(layout: TableLayout, text: FeltText, resolution: number): void {
    if (this.isCachedAsTexture) this.cacheAsTexture(false);
    for (const child of this.removeChildren()) child.destroy({ children: true });
    this.names.length = 0;
    this.sectorDiscs.length = 0;
    this.handLabels.length = 0;

    const { width: W, height: H, compact } = layout;
    const g = new Graphics();
    this.addChild(g);

    // Rail and cloth.
    const rail = compact ? 6 : 12;
    const R = compact ? 14 : 26;
    g.roundRect(0, 0, W, H, R).fill(railGradient());
    g.roundRect(rail, rail, W - 2 * rail, H - 2 * rail, R - rail * 0.6).fill(clothGradient());
    this.drawNap(g, rail, W, H);
    // A soft inner shadow where the cloth meets the rail.
    for (let i = 0; i < 6; i++) {
      g.roundRect(rail + i, rail + i, W - 2 * (rail + i), H - 2 * (rail + i), R - rail * 0.6).stroke({ width: 1, color: 0x000000, alpha: 0.16 - i * 0.025 });
    }

    this.drawArc(g, layout, text);
    this.drawHands(g, layout, text);
    this.drawPlaque(g, layout, text);
    this.drawTray(g, layout);
    if (compact) this.drawOrnament(g, layout);
    // Dozens of shapes and texts that never move: one textured quad per frame instead.
    this.cacheAsTexture({ antialias: true, resolution });
  }

  /** The cloth's nap: a faint, fixed speckle of light and dark fibres (baked into the cache). */
  private drawNap(g: Graphics, rail: number, W: number, H: number): void {
    let seed = 0x9e3779b9;
    const rnd = (): number => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) / 4294967296;
    };
    const count = Math.round(((W - 2 * rail) * (H - 2 * rail)) / 90);
    const light: number[] = [];
    const dark: number[] = [];
    for (let i = 0; i < count; i++) {
      const x = rail + rnd() * (W - 2 * rail);
      const y = rail + rnd() * (H - 2 * rail);
      (rnd() < 0.5 ? light : dark).push(x, y);
    }
    for (let i = 0; i < light.length; i += 2) g.rect(light[i]!, light[i + 1]!, 1, 1);
    g.fill({ color: 0xffffff, alpha: 0.035 });
    for (let i = 0; i < dark.length; i += 2) g.rect(dark[i]!, dark[i + 1]!, 1, 1);
    g.fill({ color: 0x000000, alpha: 0.07 });
  }

  private drawArc(g: Graphics, layout: TableLayout, text: FeltText): void {
    const { arc, boxes, compact } = layout;
    const { cx, cy, radii, left, right } = arc;
    // Box tints, then every line in gold.
    for (const spot of boxes) {
      wedgePath(g, cx, cy, spot.wedge).fill({ color: BOX_TINT[spot.box], alpha: spot.box === 'tie' ? 0.28 : 0.22 });
    }
    const lineW = compact ? 1.2 : 1.6;
    for (const r of radii) arcLine(g, cx, cy, r, left, right).stroke({ width: lineW, color: FELT.gold, alpha: 0.9 });
    const step = (left - right) / 5;
    for (let i = 0; i <= 5; i++) {
      const a = left - i * step;
      g.moveTo(cx + radii[0] * Math.cos(a), cy + radii[0] * Math.sin(a)).lineTo(cx + radii[3] * Math.cos(a), cy + radii[3] * Math.sin(a));
    }
    g.stroke({ width: lineW, color: FELT.gold, alpha: 0.9 });
    // A fine second line outside the outer ring and inside the inner one: the printed border. Both
    // end on the arc's own end angles: the arc's radius is large (up to ~10× its thickness), so even
    // a hundredth of a radian past the ends ran the outer line out across the cloth into the rail.
    const gap = arcBorderGap(compact);
    arcLine(g, cx, cy, radii[3] + gap, left, right).stroke({ width: 0.8, color: FELT.gold, alpha: 0.6 });
    arcLine(g, cx, cy, radii[0] - gap, left - 0.004, right + 0.004).stroke({ width: 0.8, color: FELT.gold, alpha: 0.6 });

    // Labels and payouts, turned with each box, all printed at one size: the largest that fits every box.
    const labelOf: Record<Box, string> = { player: text.labels.player, banker: text.labels.banker, tie: text.labels.tie };
    const minThick = Math.min(radii[1] - radii[0], radii[2] - radii[1], radii[3] - radii[2]);
    const labelSize = Math.round(minThick * 0.36);
    const paysSize = Math.round(minThick * 0.19);
    const placed: { holder: Container; label: Text; pays: Text; maxW: number; thick: number; box: Box }[] = [];
    let labelScale = 1;
    let paysScale = 1;
    for (const spot of boxes) {
      const { wedge } = spot;
      const rMid = (wedge.r0 + wedge.r1) / 2;
      const mid = (wedge.a0 + wedge.a1) / 2;
      const thick = wedge.r1 - wedge.r0;
      const maxW = rMid * (wedge.a0 - wedge.a1) * (compact ? 0.9 : 0.84);
      const holder = new Container();
      holder.position.set(cx + rMid * Math.cos(mid), cy + rMid * Math.sin(mid));
      holder.rotation = spot.angle;
      const label = new Text({
        text: upper(labelOf[spot.box], text.language),
        style: style({ fontFamily: SERIF, fontWeight: 'bold', fontSize: labelSize, fill: BOX_ACCENT[spot.box], letterSpacing: compact ? 0 : 2 }),
      });
      label.anchor.set(0.5);
      const pays = new Text({
        text: upper(text.labels.pays[spot.box], text.language),
        style: style({ fontFamily: SANS, fontSize: paysSize, fill: FELT.cream, letterSpacing: 0.3 }),
      });
      pays.anchor.set(0.5);
      pays.alpha = 0.85;
      labelScale = Math.min(labelScale, fitText(label, maxW, thick * 0.44));
      paysScale = Math.min(paysScale, fitText(pays, maxW, thick * 0.26));
      placed.push({ holder, label, pays, maxW, thick, box: spot.box });
    }
    // Below ~6.5 px a payout line is unreadable: the legend under the hands says it instead.
    const showPays = paysSize * paysScale >= 6.5;
    for (const { holder, label, pays, thick, box } of placed) {
      label.scale.set(labelScale);
      pays.scale.set(paysScale);
      if (showPays && pays.text !== '') {
        label.y = -thick * 0.12;
        pays.y = thick * 0.22;
        holder.addChild(label, pays);
      } else {
        pays.destroy();
        holder.addChild(label);
      }
      this.names.push(label);
      this.printed[box] = { name: label.width / 2, nameBottom: label.y + label.height / 2, pays: showPays ? pays.width / 2 : 0 };
      this.addChild(holder);
    }
    if (!showPays) this.drawLegend(layout, text);

    // Sector numbers just inside the arc.
    for (let s = 0; s < 5; s++) {
      const a = left - (s + 0.5) * step;
      const { x, y, r: rr } = sectorDisc(layout, s);
      this.sectorDiscs.push({ x, y, r: rr });
      g.circle(x, y, rr).fill({ color: 0x000000, alpha: 0.18 }).stroke({ width: 1, color: FELT.gold, alpha: 0.75 });
      const n = new Text({ text: String(s + 1), style: style({ fontFamily: SERIF, fontWeight: 'bold', fontSize: rr * 1.3, fill: FELT.goldLight }) });
      n.anchor.set(0.5);
      n.position.set(x, y + 0.5);
      n.rotation = a - Math.PI / 2;
      this.addChild(n);
    }
  }

  /** One line: "PLAYER PAYS 1 TO 1 · BANKER PAYS 19 TO 20 · TIE PAYS 8 TO 1". */
  private drawLegend(layout: TableLayout, text: FeltText): void {
    const r = layout.legend;
    if (r.h < 8) return;
    const { labels } = text;
    const parts = (['player', 'banker', 'tie'] as const)
      .filter((b) => labels.pays[b] !== '')
      .map((b) => upper(`${labels[b]} ${labels.pays[b]}`, text.language));
    if (parts.length === 0) return;
    const legend = new Text({
      text: parts.join('  ·  '),
      style: style({ fontFamily: SANS, fontSize: Math.round(Math.min(12, r.h * 0.6)), fill: FELT.cream, letterSpacing: 0.3 }),
    });
    legend.anchor.set(0.5);
    legend.alpha = 0.85;
    fitText(legend, r.w, r.h);
    legend.position.set(r.x + r.w / 2, r.y + r.h / 2);
    this.addChild(legend);
  }

  private drawHands(g: Graphics, layout: TableLayout, text: FeltText): void {
    const { card, compact } = layout;
    const hands: ['player' | 'banker', typeof layout.playerHand][] = [
      ['player', layout.playerHand],
      ['banker', layout.bankerHand],
    ];
    for (const [box, r] of hands) {
      g.roundRect(r.x, r.y, r.w, r.h, 8).fill({ color: 0x000000, alpha: 0.12 }).stroke({ width: 1, color: FELT.gold, alpha: 0.55 });
      const head = layout.handHeader;
      const label = new Text({
        text: upper(box === 'player' ? text.labels.player : text.labels.banker, text.language),
        style: style({ fontFamily: SERIF, fontWeight: 'bold', fontSize: Math.round(head * 0.62), fill: BOX_ACCENT[box], letterSpacing: compact ? 1 : 3 }),
      });
      label.anchor.set(0.5);
      label.position.set(r.x + r.w / 2, r.y + head / 2 + 1);
      // Centred, and ending 6 px before the total's disc (and its shadow) on the right.
      const badge = totalBadgeSpot(layout, box);
      fitText(label, 2 * (badge.x - badge.r - 2 - 6 - (r.x + r.w / 2)));
      this.addChild(label);
      this.handLabels.push(label);
      // Faint outlines where the first two cards land (not where the cards fan).
      for (const slot of layout.fan ? [] : [0, 1]) {
        const p = cardSpot(layout, box, slot);
        g.roundRect(p.x - card.w / 2, p.y - card.h / 2, card.w, card.h, card.w * 0.08).stroke({ width: 1, color: FELT.gold, alpha: 0.28 });
      }
    }
  }

  private drawPlaque(g: Graphics, layout: TableLayout, text: FeltText): void {
    const p = layout.plaque;
    const { compact } = layout;
    const title = new Text({
      text: text.title,
      style: style({
        fontFamily: SERIF,
        fontWeight: 'bold',
        fontSize: Math.round(p.h * (compact ? 0.3 : 0.46)),
        fill: FELT.gold,
        letterSpacing: compact ? 2 : 5,
      }),
    });
    title.anchor.set(0.5);
    title.alpha = 0.9;
    fitText(title, p.w * 0.9);
    const limits = new Text({
      text: text.limitsText,
      style: style({ fontFamily: SANS, fontSize: Math.round(p.h * (compact ? 0.2 : 0.26)), fill: FELT.cream, letterSpacing: 1 }),
    });
    limits.anchor.set(0.5);
    limits.alpha = 0.8;
    // Without the title (a shared table on a phone), its clock stands at the plaque's right end.
    fitText(limits, p.w * (text.title ? 0.9 : 0.5));
    const midY = p.y + p.h / 2;
    if (compact) {
      title.position.set(p.x + p.w / 2, midY - p.h * 0.17);
      limits.position.set(p.x + p.w / 2, midY + p.h * 0.2);
    } else {
      title.position.set(p.x + p.w / 2, midY - p.h * 0.12);
      limits.position.set(p.x + p.w / 2, midY + p.h * 0.42);
    }
    // Flourishes either side of the title.
    const tw = title.width / 2 + 10;
    // Line and dot stay inside the plaque (on phones the discard tray and the shoe flank it).
    const lw = Math.min(60, p.w * 0.5 - tw - 6);
    if (lw > 8 && text.title) {
      for (const sgn of [-1, 1]) {
        const x0 = title.x + sgn * tw;
        g.moveTo(x0, title.y)
          .lineTo(x0 + sgn * lw, title.y)
          .stroke({ width: 1, color: FELT.gold, alpha: 0.6 });
        g.circle(x0 + sgn * (lw + 3), title.y, 2).fill({ color: FELT.gold, alpha: 0.8 });
      }
    }
    this.addChild(title, limits);
  }

  /** Phones: the four suits printed faintly where the result banner shows. */
  private drawOrnament(g: Graphics, layout: TableLayout): void {
    const r = layout.result;
    const size = Math.min(18, r.h * 0.45);
    const gap = size * 2.2;
    const cy = r.y + r.h / 2;
    const suits = ['S', 'H', 'D', 'C'] as const;
    suits.forEach((suit, i) => drawSuit(g, suit, r.x + r.w / 2 + (i - 1.5) * gap, cy, size, FELT.gold, false, 0.4));
    g.moveTo(r.x + r.w / 2 - 2.5 * gap, cy)
      .lineTo(r.x + r.w / 2 - 2 * gap - 2, cy)
      .moveTo(r.x + r.w / 2 + 2 * gap + 2, cy)
      .lineTo(r.x + r.w / 2 + 2.5 * gap, cy);
    g.stroke({ width: 1, color: FELT.gold, alpha: 0.5 });
  }

  private drawTray(g: Graphics, layout: TableLayout): void {
    const t = layout.chipTray;
    const rail = layout.compact ? 6 : 12;
    const y = t.y + 2;
    const h = t.h - rail - 2;
    g.roundRect(rail + 6, y, t.w - 2 * rail - 12, h, 10)
      .fill({ color: 0x000000, alpha: 0.22 })
      .stroke({ width: 1, color: FELT.gold, alpha: 0.35 });
    g.moveTo(rail + 18, y + 1)
      .lineTo(t.w - rail - 18, y + 1)
      .stroke({ width: 1, color: 0xffffff, alpha: 0.05 });
  }
}

/** Starts a fresh sub-path at the arc's first point, so no chord joins it to anything before. */
function arcLine(g: Graphics, cx: number, cy: number, r: number, from: number, to: number): Graphics {
  return g.moveTo(cx + r * Math.cos(from), cy + r * Math.sin(from)).arc(cx, cy, r, from, to, from > to);
}

function style(s: TextStyleOptions): TextStyleOptions {
  return s;
}
