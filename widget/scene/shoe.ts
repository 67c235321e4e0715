/**
 * The dealing shoe (top-right) and the discard tray (top-left). Both are redrawn only when their
 * rect or their counts change, never per frame.
 */
import { Container, Graphics, Sprite, Text } from './pixi.ts';
import type { Rect } from '../layout.ts';
import type { CardArt } from './cards.ts';
import { acrylicGradient } from './gradients.ts';
import { FELT, SANS, SERIF } from './palette.ts';
import { CUT_CARD } from './shuffle.ts';
import { fitText } from './felt.ts';

export interface ShoeInfo {
  cardsLeft: number;
  total: number;
  discarded: number;
  /** Cards left in the shoe when the cut card comes out (unknown: not drawn in the shoe). */
  cutAt?: number;
  /** Words engraved on the shoe's body: a reshuffle table's "Fresh shoe every round". */
  caption?: string;
}

/** Whether the cut card is still in the shoe for `info` (it lies in the discard tray otherwise). */
export function cutCardInShoe(info: ShoeInfo): boolean {
  return info.cutAt !== undefined && info.total > 0 && info.cardsLeft > info.cutAt;
}

/** The plastic cut card lying flat, `w` × `h`, centred on the origin. */
export function drawCutCard(g: Graphics, w: number, h: number): Graphics {
  g.clear();
  g.roundRect(-w / 2 + 2, -h / 2 + 3, w, h, Math.max(2, w * 0.08)).fill({ color: 0x000000, alpha: 0.3 });
  g.roundRect(-w / 2, -h / 2, w, h, Math.max(2, w * 0.08))
    .fill(CUT_CARD.face)
    .stroke({ width: 1, color: CUT_CARD.edge });
  g.roundRect(-w / 2 + 3, -h / 2 + 3, w - 6, h * 0.3, 2).fill({ color: 0xffffff, alpha: 0.25 });
  return g;
}

/** The shoe: a smoked body, the stack of cards inside shown by how full it is, a card at the mouth. */
export class ShoeView extends Container {
  private readonly under = new Graphics();
  private readonly lip = new Graphics();
  private readonly body = new Graphics();
  private readonly fill = new Graphics();
  private readonly mouthCard = new Sprite();
  private readonly count: Text;
  private readonly caption: Text;
  private rect: Rect = { x: 0, y: 0, w: 0, h: 0 };
  private info: ShoeInfo = { cardsLeft: 0, total: 0, discarded: 0 };
  /** False while the cut card is on its way out (or out before the count says so). */
  private cutShown = true;

  constructor() {
    super();
    this.count = new Text({ text: '', style: { fontFamily: SANS, fontWeight: 'bold', fontSize: 12, fill: 0xf2e6c4 } });
    this.count.anchor.set(0.5);
    this.caption = new Text({ text: '', style: { fontFamily: SANS, fontWeight: 'bold', fontSize: 11, fill: 0xf2e6c4, letterSpacing: 0.5 } });
    this.caption.anchor.set(0.5);
    this.mouthCard.anchor.set(0.5);
    // The next card lies in the mouth, under the smoked front (the lip) and the body: it shows
    // through the lip's acrylic and never outside the shoe's outline.
    this.addChild(this.under, this.mouthCard, this.lip, this.body, this.fill, this.count, this.caption);
  }

  /** Where a card leaves the shoe (its mouth), in table coordinates. */
  get mouth(): { x: number; y: number } {
    return { x: this.rect.x + this.rect.w * 0.12, y: this.rect.y + this.rect.h * 0.55 };
  }

  layout(rect: Rect, art: CardArt): void {
    this.rect = rect;
    const { x, y, w, h } = rect;
    const u = this.under;
    const lip = this.lip;
    const g = this.body;
    u.clear();
    lip.clear();
    g.clear();
    const bx = x + w * 0.16;
    const bw = w * 0.84;
    const by = y + h * 0.12;
    const bh = h * 0.76;
    const tip = x + w * 0.02;
    u.roundRect(x + 3, by + 5, bw + bx - x, bh, 8).fill({ color: 0x000000, alpha: 0.35 });
    // The sloped lip where the dealer slides cards out: smoked acrylic over the next card.
    lip
      .poly([tip, by + bh * 0.14, bx + 6, by + bh * 0.02, bx + 6, by + bh * 0.98, tip, by + bh * 0.86])
      .fill({ color: 0x15171b, alpha: 0.5 })
      .stroke({ width: 1, color: 0x6c727d });
    lip
      .moveTo(tip + 1, by + bh * 0.17)
      .lineTo(bx + 4, by + bh * 0.06)
      .stroke({ width: 1, color: 0xffffff, alpha: 0.12 });
    g.roundRect(bx, by, bw, bh, 8).fill(acrylicGradient()).stroke({ width: 1.5, color: 0x6c727d });
    g.roundRect(bx + 4, by + 4, bw - 8, bh * 0.22, 4).fill({ color: 0xffffff, alpha: 0.07 });
    // Brass plate for the count.
    g.roundRect(bx + bw - w * 0.3, by + bh - h * 0.3, w * 0.26, h * 0.22, 3)
      .fill(0xb08a3e)
      .stroke({ width: 1, color: 0xe7cf8a });
    this.count.style.fontSize = Math.max(9, Math.round(h * 0.15));
    this.count.style.fill = 0x2a1c05;
    this.count.position.set(bx + bw - w * 0.17, by + bh - h * 0.19);

    // The card at the mouth: lying sideways, its end just inside the lip's tip, the rest under the body.
    this.mouthCard.texture = art.back();
    const scale = (bh * 0.6) / art.width;
    const long = art.height * scale;
    this.mouthCard.scale.set(scale);
    this.mouthCard.rotation = Math.PI / 2;
    this.mouthCard.position.set(x + w * 0.05 + long / 2, by + bh / 2);
    this.redrawFill();
  }

  setInfo(info: ShoeInfo): void {
    this.info = { ...info };
    this.redrawFill();
  }

  /** Whether the cut card is drawn in the stack (when the count puts it there). */
  showCutCard(on: boolean): void {
    if (on === this.cutShown) return;
    this.cutShown = on;
    this.redrawFill();
  }

  /** Whether the shoe shows the cut card in its stack now. */
  get cutCardShown(): boolean {
    return this.cutShown && cutCardInShoe(this.info);
  }

  private redrawFill(): void {
    const { x, y, w, h } = this.rect;
    const g = this.fill;
    g.clear();
    if (w === 0) return;
    const bx = x + w * 0.16;
    const bw = w * 0.84;
    const by = y + h * 0.12;
    const bh = h * 0.76;
    const frac = this.info.total > 0 ? Math.max(0, Math.min(1, this.info.cardsLeft / this.info.total)) : 0;
    // Card edges seen through the smoked top: a cream band as long as the shoe is full.
    const ix = bx + w * 0.08;
    const iw = (bw - w * 0.12) * frac;
    const iy = by + bh * 0.32;
    const ih = bh * 0.3;
    if (iw > 0) {
      g.rect(ix, iy, iw, ih).fill({ color: 0xece3cc, alpha: 0.85 });
      for (let lx = ix + 2; lx < ix + iw; lx += 3) g.moveTo(lx, iy).lineTo(lx, iy + ih);
      g.stroke({ width: 0.6, color: 0x8d8068, alpha: 0.6 });
    }
    // The cut card stands in the stack, as many cards from its back as it will come out at.
    if (this.cutCardShown && iw > 0) {
      const full = bw - w * 0.12;
      const cx = ix + (full * (this.info.cardsLeft - (this.info.cutAt ?? 0))) / this.info.total;
      g.rect(cx - 1.5, iy - ih * 0.35, 3, ih * 1.5)
        .fill(CUT_CARD.face)
        .stroke({ width: 0.8, color: CUT_CARD.edge });
    }
    this.mouthCard.visible = this.info.cardsLeft > 0;
    this.count.text = String(this.info.cardsLeft);
    // The caption across the body's top, above the cards' edges.
    this.caption.text = this.info.caption ?? '';
    this.caption.visible = this.caption.text !== '';
    if (this.caption.visible) {
      this.caption.style.fontSize = Math.max(8, Math.round(h * 0.13));
      this.caption.position.set(bx + bw / 2, by + bh * 0.17);
      fitText(this.caption, bw * 0.86, bh * 0.26);
    }
  }
}

/** The discard tray with a pile that grows with the cards discarded. */
export class DiscardView extends Container {
  private readonly tray = new Graphics();
  private readonly pile = new Container();
  /** The plastic cut card, lying on the pile when it is not in the shoe. */
  readonly cutCard = new Graphics();
  private readonly nameText: Text;
  private readonly count: Text;
  private rect: Rect = { x: 0, y: 0, w: 0, h: 0 };
  private discarded = 0;
  private art: CardArt | null = null;

  constructor() {
    super();
    this.count = new Text({ text: '', style: { fontFamily: SANS, fontWeight: 'bold', fontSize: 12, fill: 0xf2e6c4 } });
    this.count.anchor.set(0.5);
    this.nameText = new Text({ text: '', style: { fontFamily: SERIF, fontWeight: 'bold', fontSize: 11, fill: FELT.gold, letterSpacing: 1.5 } });
    this.nameText.anchor.set(0.5);
    this.nameText.alpha = 0.75;
    this.cutCard.visible = false;
    this.addChild(this.tray, this.nameText, this.pile, this.cutCard, this.count);
  }

  /** Prints the tray's name on its floor (already in capitals). */
  setName(text: string): void {
    this.nameText.text = text;
    this.placeName();
  }

  /** Shows or hides the cut card lying in the tray. */
  showCutCard(on: boolean): void {
    this.cutCard.visible = on;
  }

  /** Where the cut card lies in the tray, and how it is turned. */
  get cutCardSpot(): { x: number; y: number; rotation: number } {
    const { x, y, w, h } = this.rect;
    return { x: x + w / 2 + w * 0.06, y: y + h * 0.42 - 6, rotation: Math.PI / 2 - 0.18 };
  }

  /** The name and the count share the tray's bottom line, clear of the pile: "DISCARD 24". */
  private placeName(): void {
    const { x, y, w, h } = this.rect;
    const line = y + h - h * 0.14;
    this.nameText.style.fontSize = Math.max(8, Math.round(h * 0.13));
    const gap = this.count.text === '' ? 0 : 6;
    const room = Math.max(1, w * 0.86 - (gap ? this.count.width + gap : 0));
    fitText(this.nameText, room);
    const total = this.nameText.width + gap + (gap ? this.count.width : 0);
    this.nameText.position.set(x + w / 2 - total / 2 + this.nameText.width / 2, line);
    this.count.position.set(x + w / 2 + total / 2 - this.count.width / 2, line);
  }

  /** The middle of the tray, where swept cards go. */
  get centre(): { x: number; y: number } {
    return { x: this.rect.x + this.rect.w / 2, y: this.rect.y + this.rect.h * 0.45 };
  }

  layout(rect: Rect, art: CardArt): void {
    this.rect = rect;
    this.art = art;
    const { x, y, w, h } = rect;
    const g = this.tray;
    g.clear();
    g.roundRect(x + 3, y + 5, w, h, 10).fill({ color: 0x000000, alpha: 0.3 });
    g.roundRect(x, y, w, h, 10).fill(acrylicGradient()).stroke({ width: 1.5, color: 0x6c727d });
    g.roundRect(x + 5, y + 5, w - 10, h - 10, 7)
      .fill({ color: 0x0e2419, alpha: 0.92 })
      .stroke({ width: 1, color: 0x000000, alpha: 0.6 });
    this.count.style.fontSize = Math.max(9, Math.round(h * 0.15));
    // Where the cards will lie: a faint outline, so that even an empty tray reads as one.
    if (art.width > 0) {
      const s = Math.min((h * 0.62) / art.height, (w * 0.7) / art.width);
      const cw = art.height * s;
      const ch = art.width * s;
      g.roundRect(x + w / 2 - cw / 2, y + h * 0.42 - ch / 2, cw, ch, 4).stroke({ width: 1, color: FELT.gold, alpha: 0.35 });
      const spot = this.cutCardSpot;
      drawCutCard(this.cutCard, art.width * s, art.height * s);
      this.cutCard.position.set(spot.x, spot.y);
      this.cutCard.rotation = spot.rotation;
    }
    this.placeName();
    this.redrawPile();
  }

  setDiscarded(n: number): void {
    if (n === this.discarded) return;
    this.discarded = n;
    this.redrawPile();
  }

  private redrawPile(): void {
    const art = this.art;
    if (!art) return;
    const layers = this.discarded === 0 ? 0 : Math.min(12, 1 + Math.floor(this.discarded / 12));
    const { x, y, w, h } = this.rect;
    const scale = Math.min((h * 0.62) / art.height, (w * 0.7) / art.width);
    while (this.pile.children.length < layers) {
      const s = new Sprite(art.back());
      s.anchor.set(0.5);
      this.pile.addChild(s);
    }
    this.pile.children.forEach((child, i) => {
      const s = child as Sprite;
      s.visible = i < layers;
      s.texture = art.back();
      s.scale.set(scale);
      // Deterministic jitter so the pile looks handled, not stamped.
      const j = Math.sin(i * 12.9898) * 43758.5453;
      const f = j - Math.floor(j);
      s.rotation = Math.PI / 2 + (f - 0.5) * 0.25;
      s.position.set(x + w / 2 + (f - 0.5) * 6, y + h * 0.42 - i * 1.2);
    });
    this.count.text = this.discarded > 0 ? String(this.discarded) : '';
    this.placeName();
  }
}
