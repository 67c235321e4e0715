/**
 * The moving pieces besides chips: a card (shadow + face/back, turned by squeezing scale.x), a hand's
 * total badge and the result banner.
 */
import { Container, Graphics, Sprite, Text } from './pixi.ts';
import type { CardCode } from '../../shared/cards.ts';
import type { Rect } from '../layout.ts';
import type { CardArt } from './cards.ts';
import { fitText } from './felt.ts';
import { BOX_ACCENT, FELT, SANS, SERIF } from './palette.ts';

/** One dealt card. Its origin is the card's centre so it turns and rotates about it. */
export class CardView extends Container {
  readonly shadow = new Sprite();
  readonly face = new Sprite();
  code: CardCode = 'AS';
  hand: 'player' | 'banker' = 'player';
  slot = 0;
  faceUp = false;

  constructor() {
    super();
    this.shadow.anchor.set(0.5);
    this.face.anchor.set(0.5);
    this.shadow.position.set(2, 3);
    this.addChild(this.shadow, this.face);
  }

  /** Sets the textures for the current card size and side. */
  paint(art: CardArt): void {
    this.shadow.texture = art.shadow();
    this.face.texture = this.faceUp ? art.face(this.code) : art.back();
  }
}

/** A round badge with a hand's total, next to the hand's label. */
export class TotalBadge extends Container {
  private readonly disc = new Graphics();
  private readonly digits: Text;
  private readonly accent: number;
  value: number | null = null;

  constructor(accent: number) {
    super();
    this.digits = new Text({ text: '', style: { fontFamily: SERIF, fontWeight: 'bold', fontSize: 16, fill: 0x1a1206 } });
    this.digits.anchor.set(0.5);
    this.addChild(this.disc, this.digits);
    this.accent = accent;
    this.visible = false;
  }

  /** Draws the badge with radius `r`. */
  size(r: number): void {
    this.disc.clear();
    this.disc.circle(0, 0, r + 2).fill({ color: 0x000000, alpha: 0.3 });
    this.disc.circle(0, 0, r).fill(FELT.goldLight).stroke({ width: 2, color: this.accent });
    this.digits.style.fontSize = Math.round(r * 1.25);
    this.digits.y = 0.5;
  }

  show(value: number | null): void {
    this.value = value;
    this.visible = value !== null;
    if (value !== null) this.digits.text = String(value);
  }
}

export interface BannerText {
  headline: string;
  detail: string;
  outcome: 'player' | 'banker' | 'tie';
}

/** Side by side, the banner's words may shrink to this share of their size; smaller, they go on two lines. */
const BANNER_MIN_SCALE = 0.75;

/** The result plaque shown over the middle of the table. */
export class ResultBanner extends Container {
  private readonly plate = new Graphics();
  private readonly headline: Text;
  private readonly detail: Text;
  private rect: Rect = { x: 0, y: 0, w: 0, h: 0 };
  private current: BannerText | null = null;

  constructor() {
    super();
    this.headline = new Text({ text: '', style: { fontFamily: SERIF, fontWeight: 'bold', fontSize: 24, fill: FELT.goldLight, letterSpacing: 3 } });
    this.detail = new Text({ text: '', style: { fontFamily: SANS, fontWeight: 'bold', fontSize: 14, fill: 0xffffff, letterSpacing: 1 } });
    this.headline.anchor.set(0.5);
    this.detail.anchor.set(0.5);
    this.addChild(this.plate, this.headline, this.detail);
    this.visible = false;
  }

  layout(rect: Rect): void {
    this.rect = rect;
    this.position.set(rect.x + rect.w / 2, rect.y + rect.h / 2);
    if (this.current) this.show(this.current);
  }

  show(text: BannerText): void {
    this.current = text;
    const { w, h } = this.rect;
    const accent = BOX_ACCENT[text.outcome];
    const g = this.plate;
    g.clear();
    g.roundRect(-w / 2 + 3, -h / 2 + 5, w, h, h / 2).fill({ color: 0x000000, alpha: 0.35 });
    g.roundRect(-w / 2, -h / 2, w, h, h / 2)
      .fill(0x0b140f)
      .stroke({ width: 2, color: FELT.gold });
    g.roundRect(-w / 2 + 4, -h / 2 + 4, w - 8, h - 8, h / 2 - 4).stroke({ width: 1, color: accent, alpha: 0.8 });
    this.headline.text = text.headline;
    this.headline.style.fontSize = Math.round(h * 0.44);
    this.headline.style.letterSpacing = 3;
    this.detail.style.letterSpacing = 1;
    this.headline.style.fill = accent;
    this.detail.text = text.detail;
    this.detail.style.fontSize = Math.round(h * 0.26);
    const both = text.detail !== '';
    // Headline and score side by side, both inside the plate's straight part (its round ends are
    // h/2 deep each): the score first (short), the headline in what is left.
    const inner = w - h * 0.9;
    const gap = Math.max(8, h * 0.3);
    if (both) fitText(this.detail, inner * 0.42, h * 0.5);
    const side = fitText(this.headline, both ? inner - gap - this.detail.width : inner, h * 0.6);
    if (both && (side < BANNER_MIN_SCALE || this.detail.scale.x < BANNER_MIN_SCALE)) {
      // Too narrow for both on one line (a phone): the headline over the score, each as wide as the plate lets it.
      this.headline.style.fontSize = Math.round(h * 0.4);
      this.headline.style.letterSpacing = 1;
      this.detail.style.fontSize = Math.round(h * 0.27);
      this.detail.style.letterSpacing = 0;
      fitText(this.headline, inner, h * 0.5);
      fitText(this.detail, inner, h * 0.34);
      const stack = this.headline.height + this.detail.height;
      this.headline.position.set(0, -stack / 2 + this.headline.height / 2);
      this.detail.position.set(0, stack / 2 - this.detail.height / 2);
    } else if (both) {
      const total = this.headline.width + gap + this.detail.width;
      this.headline.position.set(-total / 2 + this.headline.width / 2, 0);
      this.detail.position.set(total / 2 - this.detail.width / 2, 1);
    } else {
      this.headline.position.set(0, 0);
    }
    this.detail.visible = both;
    this.visible = true;
  }

  hide(): void {
    this.current = null;
    this.visible = false;
  }

  /** The words' sizes as drawn (font px times their scale) and their rects (table px), for tests. */
  words(): { headline: number; detail: number; rects: { name: string; x: number; y: number; w: number; h: number }[] } | null {
    if (!this.visible) return null;
    const px = (t: Text): number => Number(t.style.fontSize) * t.scale.y;
    const rect = (name: string, t: Text) => {
      const b = t.getBounds();
      return { name, x: b.x, y: b.y, w: b.width, h: b.height };
    };
    return {
      headline: px(this.headline),
      detail: this.detail.visible ? px(this.detail) : 0,
      rects: [rect('result headline', this.headline), ...(this.detail.visible ? [rect('result score', this.detail)] : [])],
    };
  }
}
