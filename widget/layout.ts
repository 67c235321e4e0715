/**
 * The table's geometry, shared by the Pixi canvas and the DOM overlay so that a button sits exactly
 * on the box the felt prints. Pure: no Pixi, no DOM. All figures are CSS pixels with the origin at
 * the top-left of the table and y pointing down.
 *
 * The betting area is a printed arc around the dealer (who stands above the top edge): five sectors
 * left to right, each with three boxes from the player's edge inwards: Player (outer ring), Banker,
 * Tie (inner ring). The shoe sits top-right, the discard tray top-left, the two hands in between.
 */
import { BOXES, type Box, SECTORS } from '../shared/table.ts';

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The printed ring segment of one box: radii and angles (radians, y down, 0 = pointing right). */
export interface Wedge {
  r0: number;
  r1: number;
  a0: number;
  a1: number;
}

/**
 * One betting box. The Rect is the box's button: centred on the printed wedge, unrotated. `angle`
 * (radians, clockwise, as CSS `rotate()` and Pixi `rotation`) turns it about its centre so that it
 * lines up with the arc; rects do not overlap whether or not the rotation is applied.
 */
export interface BoxSpot extends Rect {
  sector: number;
  box: Box;
  angle: number;
  wedge: Wedge;
}

/** The arc the boxes are printed on: centre, and the four ring radii from inner (tie) to outer (player). */
export interface ArcGeometry {
  cx: number;
  cy: number;
  /** [tie inner, tie/banker, banker/player, player outer]. */
  radii: readonly [number, number, number, number];
  /** Angle of the arc's left end (sector 0's outer edge) and right end; left > right (y down). */
  left: number;
  right: number;
}

export interface TableLayout {
  width: number;
  height: number;
  /** Phone portrait: smaller cards, flatter arc, shorter labels. */
  compact: boolean;
  /** The three cards of a hand stand upright and fanned (compact, and wide tables too short for a sideways third card). */
  fan: boolean;
  /** 15 spots, sector-major: sector 0 player, banker, tie, sector 1 player, … */
  boxes: BoxSpot[];
  shoe: Rect;
  discard: Rect;
  /** Where the Player's cards land (the label and total are drawn above the cards, inside the rect). */
  playerHand: Rect;
  bankerHand: Rect;
  /** Where the result banner shows. */
  result: Rect;
  /** Bottom strip where chips sit (DOM chip buttons go here). */
  chipTray: Rect;
  /** Extra (optional to use): the arc the boxes are printed on. */
  arc: ArcGeometry;
  /** Extra: card size for this layout (upright card). */
  card: { w: number; h: number };
  /** Extra: height of the label strip at the top of each hand's rect. */
  handHeader: number;
  /** Extra: where the payouts are printed as one line when the boxes are too small for them. */
  legend: Rect;
  /** Extra: where the table name and limits are printed. */
  plaque: Rect;
  /**
   * Extra: where the dealer offers the cut of a new shoe (its words, the stack to cut, the
   * choices): the room above the arc, between the discard tray and the shoe (compact: the whole
   * width under them), from the hands' top down to just above anything printed on the arc.
   */
  cutOffer: Rect;
  /**
   * Extra: where a refusal's toast stands, centred, clear of every box, printed wedge, sector
   * number and the chip tray. `toast`: while the felt is empty (from its top over the empty hands
   * and the result's place, its one large empty room). `toastByCards`: while the dealt cards lie
   * there, above or under them. `toastByOffer`: while the offer of the cut stands over the hands,
   * above or under it; where that leaves less than two lines (a phone's felt) it starts at the
   * felt's top, over the offer's top, far from its choices (a toast takes no pointer: the offer
   * stays usable under it). The toast starts at `y` and should take no more than `h`; beside
   * the cards or the offer, in a smaller type (styles/console.ts).
   */
  toast: Rect;
  toastByCards: Rect;
  toastByOffer: Rect;
}

/**
 * The compact (phone portrait) arrangement: a felt taller than ~0.9 of its width, or narrower than
 * this. A small felt that is wide (a phone held sideways, the controls in a column beside it) keeps
 * the wide arrangement, with a flatter arc and the cards fanned (see `fan`).
 */
export const COMPACT_MAX_WIDTH = 400;

/** Card width / height. */
export const CARD_RATIO = 0.714;
/** Fanned cards: each next card is this fraction of a card width to the right. */
export const FAN_STEP = 0.56;

/** Ring thickness shares, outer to inner: player, banker, tie. */
const RING_SHARE: Readonly<Record<Box, number>> = { player: 0.37, banker: 0.34, tie: 0.29 };

/** The sector numbers' discs, printed just inside the arc's inner ring: how far in, and their radius. */
export function sectorDiscSize(compact: boolean): { inset: number; r: number } {
  return compact ? { inset: 13, r: 7 } : { inset: 18, r: 9 };
}

/** Gap between the outer ring and the fine border line printed outside it (and inside the inner one). */
export function arcBorderGap(compact: boolean): number {
  return compact ? 4 : 6;
}

/** The disc of sector `s`'s number (table px). */
export function sectorDisc(layout: Pick<TableLayout, 'arc' | 'compact'>, s: number): { x: number; y: number; r: number } {
  const { cx, cy, radii, left, right } = layout.arc;
  const { inset, r } = sectorDiscSize(layout.compact);
  const a = left - (s + 0.5) * ((left - right) / SECTORS);
  return { x: cx + (radii[0] - inset) * Math.cos(a), y: cy + (radii[0] - inset) * Math.sin(a), r };
}

/**
 * The highest y (smallest) anything printed on the arc reaches over the columns x0..x1: the rings,
 * their border lines and the sector numbers' discs. +Infinity where the arc does not reach those
 * columns. Whatever stands above the arc (hands, result banner, plaque) must end above it.
 */
export function arcTopOver(layout: Pick<TableLayout, 'arc' | 'compact'>, x0: number, x1: number): number {
  const { cx, cy, radii, left } = layout.arc;
  const { inset, r } = sectorDiscSize(layout.compact);
  const rIn = radii[0] - inset - r;
  const rOut = radii[3] + arcBorderGap(layout.compact);
  const half = left - Math.PI / 2; // half the arc's span
  const sin = Math.sin(half);
  const cos = Math.cos(half);
  // Column by column the arc's top is the inner circle, rising from the middle out to the inner
  // ring's ends, then the arc's straight end edges, falling again out to the outer ring's ends.
  const top = (dx: number): number => (dx <= rIn * sin ? cy + Math.sqrt(rIn * rIn - dx * dx) : cy + (dx / sin) * cos);
  const near = x0 <= cx && cx <= x1 ? 0 : Math.min(Math.abs(x0 - cx), Math.abs(x1 - cx));
  const far = Math.min(Math.max(Math.abs(x0 - cx), Math.abs(x1 - cx)), rOut * sin);
  if (near > rOut * sin) return Number.POSITIVE_INFINITY;
  return near <= rIn * sin ? top(Math.min(far, rIn * sin)) : top(near);
}

/**
 * Computes the whole table's geometry for a canvas of `width` × `height` CSS pixels. Deterministic;
 * every rect lies inside the canvas, and the hands, the result banner and the plaque stand clear of
 * everything printed on the arc.
 */
export function tableLayout(width: number, height: number): TableLayout {
  const W = Math.max(240, width);
  const H = Math.max(240, height);
  const compact = W < COMPACT_MAX_WIDTH || H > W * 0.9;
  const m = compact ? 8 : Math.round(Math.min(W, H) * 0.035);

  const trayH = compact ? clamp(H * 0.13, 64, 96) : clamp(H * 0.14, 54, 96);
  const chipTray: Rect = { x: 0, y: H - trayH, w: W, h: trayH };
  const arc = arcGeometry(W, H, compact, m, chipTray);
  const boxes = boxSpots(arc, compact);
  const { topH, shoe, discard } = topBand(W, H, compact, m);

  // Cards: ratio 5:7. Wide tables lay the third card sideways beside the pair; compact ones, and
  // wide ones too short for that, fan all three upright, overlapping.
  const frame: HandsFrame = {
    W,
    m,
    compact,
    arc,
    shoe,
    discard,
    topH,
    gap: compact ? 10 : round(W * 0.03),
    resultH: compact ? 40 : clamp(H * 0.085, 30, 64),
    wideResultW: compact ? W - 2 * m - 40 : clamp(W * 0.4, 260, 460),
    minResultW: compact ? 150 : clamp(W * 0.32, 140, 200),
    // Compact: the plaque's place, between the discard tray and the shoe (the result may stand there).
    plaqueW: W - 2 * m - 2 * (Math.max(shoe.w, discard.w) + 8),
  };
  const wished = compact ? Math.min(clamp(W * 0.25, 44, 120), H * 0.14) : clamp(Math.min(H * 0.16, W * 0.1), 56, 112);
  const a = handsAndResult(frame, wished);
  const { playerHand, bankerHand, result, fan } = a;

  // The payout legend, printed when the boxes are too small to say it: between result and arc.
  // Under the hands too: a compact result may stand in the top band, above them.
  const legendTop = Math.max(result.y + result.h, playerHand.y + playerHand.h) + 4;
  const legendBottom = arcTopOver({ arc, compact }, m + 4, W - m - 4) - (compact ? 24 : 30);
  const legend: Rect = { x: m + 4, y: round(legendTop), w: round(W - 2 * m - 8), h: round(Math.max(0, legendBottom - legendTop)) };

  // Compact: between the discard tray and the shoe, clear of the wider of the two on both sides.
  const wideW = Math.min(clamp(W * 0.32, 200, 380), result.w);
  const plaque: Rect = compact
    ? { x: round(W / 2 - frame.plaqueW / 2), y: m, w: round(frame.plaqueW), h: round(topH) }
    : { x: round(W / 2 - wideW / 2), y: result.y, w: round(wideW), h: result.h };

  const cutOffer = cutOfferPlace({ W, m, compact, arc, shoe, discard }, a);
  const { toast, toastByCards, toastByOffer } = toastRooms({ W, m, compact, arc }, playerHand, bankerHand, cutOffer);

  return {
    width: W,
    height: H,
    compact,
    fan,
    boxes,
    shoe,
    discard,
    playerHand,
    bankerHand,
    result,
    chipTray,
    arc,
    card: { w: a.cardW, h: round(a.cardH) },
    handHeader: a.header,
    legend,
    plaque,
    cutOffer,
    toast,
    toastByCards,
    toastByOffer,
  };
}

/** A toast's widest room (CSS px) and the narrowest it is narrowed to for height. */
const TOAST_MAX_W = 560;
const TOAST_MIN_W = 200;
/** A line of the toast's type and its padding and border, top and bottom (styles/console.ts): large, and small beside the cards. */
const TOAST_LINE = 17.5;
const TOAST_EDGE = 14;
const TOAST_SMALL_LINE = 12.65;
const TOAST_SMALL_EDGE = 6;

/**
 * The toast's rooms (see TableLayout.toast). With nothing on the felt: from the felt's top (over the
 * discard tray, the shoe, the printed name) down to just above the arc, as wide as it allows for
 * four lines of the toast's type. Beside the cards or the offer, in the small type: the roomier of
 * the band above them and the room under them (narrowed where the arc rises, for two lines).
 * A room beside the cards holds one line at least, as every felt has; beside the offer, two.
 */
function toastRooms(
  f: Pick<HandsFrame, 'W' | 'm' | 'compact' | 'arc'>,
  player: Rect,
  banker: Rect,
  offer: Rect,
): { toast: Rect; toastByCards: Rect; toastByOffer: Rect } {
  const { W, m } = f;
  const top = round(m / 2);
  const toast = toastRoom(f, top, 4 * TOAST_LINE + TOAST_EDGE);
  // What a room holds, in lines of the small type times their width; nothing under `least` lines.
  const holds = (r: Rect, least: number): number => {
    const lines = Math.floor((r.h - TOAST_SMALL_EDGE) / TOAST_SMALL_LINE);
    return lines >= least ? lines * (r.w - 20) : 0;
  };
  const beside = (y0: number, y1: number, least: number): Rect => {
    const above: Rect = { x: m, y: top, w: round(W - 2 * m), h: round(Math.max(0, y0 - 2 - top)) };
    const under = toastRoom(f, y1, 2 * TOAST_SMALL_LINE + TOAST_SMALL_EDGE);
    return holds(above, least) >= holds(under, least) ? above : under;
  };
  // The dealt cards' drawing (their shadows, the deal's last settle) reaches a few px under the hands.
  const toastByCards = beside(Math.min(player.y, banker.y), Math.max(player.y + player.h, banker.y + banker.h) + 8, 1);
  // Beside the offer, two lines at least; else over its top, far from its choices at its foot.
  const byOffer = beside(offer.y, offer.y + offer.h + 4, 2);
  // Over the offer's top: as wide as three lines of the small type allow.
  const overOffer = toastRoom(f, top, 3 * TOAST_SMALL_LINE + TOAST_SMALL_EDGE);
  return { toast, toastByCards, toastByOffer: holds(byOffer, 2) > 0 ? byOffer : overOffer };
}

/**
 * A toast's room from `top` down to just above anything printed on the arc: as wide as the table
 * allows (up to TOAST_MAX_W), narrowed where the arc rises until it is `least` high (or down to
 * TOAST_MIN_W, as high as the arc leaves there).
 */
function toastRoom(f: Pick<HandsFrame, 'W' | 'm' | 'compact' | 'arc'>, top: number, least: number): Rect {
  const { W, m, compact, arc } = f;
  const foot = (half: number): number => arcTopOver({ arc, compact }, W / 2 - half, W / 2 + half) - 4;
  let half = Math.min(TOAST_MAX_W / 2, W / 2 - m);
  while (half > TOAST_MIN_W / 2 && foot(half) - top < least) half = Math.max(TOAST_MIN_W / 2, half - 4);
  return { x: round(W / 2 - half), y: round(top), w: round(2 * half), h: round(Math.max(0, foot(half) - top)) };
}

/**
 * The offer of the cut's room (see TableLayout.cutOffer): from the hands' top down to the result's
 * foot (a result in the top band: from there down to the arc), or less where the arc rises under the hands' width; as wide as the arc allows at its foot,
 * between the tray and the shoe when it is level with them.
 */
function cutOfferPlace(
  f: Pick<HandsFrame, 'W' | 'm' | 'compact' | 'arc' | 'shoe' | 'discard'>,
  hands: { playerHand: Rect; bankerHand: Rect; result: Rect },
): Rect {
  const { playerHand: p, result: r } = hands;
  const under = offerRoom(f, hands, false);
  // A result in the top band (compact, short): a room too short under it may start there instead.
  if (r.y >= p.y || under.h >= OFFER_LOW) return under;
  const up = offerRoom(f, hands, true);
  return up.h > under.h ? up : under;
}

/** A room for the offer lower than this (CSS px) has no space for the stack over the choices. */
const OFFER_LOW = 96;

/** The offer's room from the hands' top, or (`up`) from the top band's result place between the tray and the shoe. */
function offerRoom(
  f: Pick<HandsFrame, 'W' | 'm' | 'compact' | 'arc' | 'shoe' | 'discard'>,
  hands: { playerHand: Rect; bankerHand: Rect; result: Rect },
  up: boolean,
): Rect {
  const { W, m, compact, arc, shoe, discard } = f;
  const { playerHand: p, bankerHand: b, result: r } = hands;
  const y0 = up ? r.y : p.y;
  const below = r.y >= p.y ? r.y + r.h : Number.POSITIVE_INFINITY;
  // Not lower than the arc reaches over the hands' width (the result is narrower than the hands).
  const y1 = Math.max(p.y + p.h, Math.min(below, arcTopOver({ arc, compact }, p.x, b.x + b.w) - 6));
  const level = y0 < Math.max(shoe.y + shoe.h, discard.y + discard.h);
  const least = up ? 0 : Math.max(W / 2 - p.x, b.x + b.w - W / 2);
  let half = W / 2 - m;
  if (level) half = Math.min(half, W / 2 - (discard.x + discard.w + 8), shoe.x - 8 - W / 2);
  half = Math.max(least, half);
  // Narrowed until nothing printed on the arc (rings, border lines, sector numbers) reaches its foot.
  while (half > least && arcTopOver({ arc, compact }, W / 2 - half, W / 2 + half) < y1 + 6) half = Math.max(least, half - 4);
  return { x: round(W / 2 - half), y: round(y0), w: round(2 * half), h: round(y1 - y0) };
}

/**
 * The arc: as wide as the table allows; compact arcs are flatter to keep the inner boxes wide,
 * and so are short wide ones (a phone held sideways), to leave room for the hands above.
 */
function arcGeometry(W: number, H: number, compact: boolean, m: number, chipTray: Rect): ArcGeometry {
  const halfSpan = compact ? deg(18) : deg(clamp(40 - (560 - H) / 10, 28, 40));
  const arcHalfWidth = Math.min(W / 2 - m, (H - chipTray.h) * (compact ? 0.9 : 0.95));
  const R3 = arcHalfWidth / Math.sin(halfSpan);
  const thickness = compact ? clamp(H * 0.37, 150, 290) : clamp(H * 0.33, Math.min(140, H * 0.31), 230);
  const bottom = chipTray.y - (compact ? 6 : 10);
  return { cx: W / 2, cy: bottom - R3, radii: ringRadii(R3, thickness), left: Math.PI / 2 + halfSpan, right: Math.PI / 2 - halfSpan };
}

/** The 15 box buttons, sector-major, each a bit inside its printed wedge so neighbours never touch, rotated or not. */
function boxSpots(arc: ArcGeometry, compact: boolean): BoxSpot[] {
  const { cx, cy, radii, left, right } = arc;
  const boxes: BoxSpot[] = [];
  const step = (left - right) / SECTORS;
  for (let sector = 0; sector < SECTORS; sector++) {
    const a0 = left - sector * step;
    const a1 = a0 - step;
    const mid = (a0 + a1) / 2;
    BOXES.forEach((box) => {
      const ring = 2 - BOXES.indexOf(box); // player → outer ring (index 2), tie → inner (0)
      const r0 = radii[ring]!;
      const r1 = radii[ring + 1]!;
      const rMid = (r0 + r1) / 2;
      const w = 2 * rMid * Math.sin(step / 2) * 0.84;
      const h = (r1 - r0) * (compact ? 0.66 : 0.62);
      const px = cx + rMid * Math.cos(mid);
      const py = cy + rMid * Math.sin(mid);
      boxes.push({
        x: round(px - w / 2),
        y: round(py - h / 2),
        w: round(w),
        h: round(h),
        sector,
        box,
        angle: mid - Math.PI / 2,
        wedge: { r0, r1, a0, a1 },
      });
    });
  }
  return boxes;
}

/** Top band: discard tray (left) and shoe (right), the printed name and limits in between. */
function topBand(W: number, H: number, compact: boolean, m: number): { topH: number; shoe: Rect; discard: Rect } {
  const topH = compact ? clamp(H * 0.09, 52, 70) : clamp(H * 0.15, Math.min(64, H * 0.14), 104);
  const shoeW = compact ? topH * 1.55 : topH * 1.7;
  const shoe: Rect = { x: round(W - m - shoeW), y: m, w: round(shoeW), h: round(topH) };
  const discard: Rect = { x: m, y: m, w: round(shoeW * 0.85), h: round(topH) };
  return { topH, shoe, discard };
}

/** What the hands and the result banner are arranged in: the table, the arc, the top band and their sizes. */
interface HandsFrame {
  W: number;
  m: number;
  compact: boolean;
  arc: ArcGeometry;
  shoe: Rect;
  discard: Rect;
  topH: number;
  /** Between the two hands. */
  gap: number;
  resultH: number;
  /** The result's width as wished, and the least it may shrink to. */
  wideResultW: number;
  minResultW: number;
  /** The room between the discard tray and the shoe. */
  plaqueW: number;
}

/** Hands and result for one card height; `fits` when all of it clears the arc. */
interface Arrangement {
  fan: boolean;
  cardW: number;
  cardH: number;
  header: number;
  playerHand: Rect;
  bankerHand: Rect;
  result: Rect;
  fits: boolean;
}

/**
 * Wide: the sideways third card, level with the shoe, as long as the cards keep 0.8 of their
 * wished size; else the largest of the fanned arrangements. Compact: the result under the hands
 * while the cards keep 0.85 of their size there; else in the top band.
 */
function handsAndResult(f: HandsFrame, wished: number): Arrangement {
  const better = (best: Arrangement, o: Arrangement): Arrangement => (o.fits && (!best.fits || o.cardH > best.cardH * 1.1) ? o : best);
  let a = f.compact ? largest(f, wished, false, true) : largest(f, wished, true, false);
  if (!f.compact && a.cardH < wished * 0.8) a = [largest(f, wished, true, true), largest(f, wished, false, true)].reduce(better, a);
  if (f.compact && a.cardH < wished * 0.85) a = better(a, largest(f, wished, false, true, true));
  return a;
}

/** The largest cards (up to the wished size) that fit in one arrangement. */
function largest(f: HandsFrame, wished: number, level: boolean, fan: boolean, up = false): Arrangement {
  let cardH = wished;
  let a = arrange(f, cardH, level, fan, up);
  for (let i = 0; i < 60 && !a.fits && cardH > 20; i++) {
    cardH *= 0.97;
    a = arrange(f, cardH, level, fan, up);
  }
  return a;
}

/**
 * Hands and result for a card height, the hands either level with the shoe and the tray (between
 * them) or under the top band (the whole width); the result under the hands or (`up`, compact
 * tables too short for it there) in the top band where the plaque is.
 */
function arrange(f: HandsFrame, cardH: number, level: boolean, fan: boolean, up: boolean): Arrangement {
  const { W, m, compact, arc, shoe, discard, topH, gap, resultH, wideResultW, minResultW, plaqueW } = f;
  const handAvail = level ? Math.min((W - 2 * m - gap) / 2, (shoe.x - discard.x - discard.w - gap - 16) / 2) : (W - 2 * m - gap) / 2;
  const handY = round(level ? m + topH * 0.35 : m + topH + 8);
  const cardW = round(cardH * CARD_RATIO);
  const header = headerFor(cardH);
  const handW = round(Math.min(handAvail, fan ? cardW * (1 + 2 * FAN_STEP) + 24 : cardW * 2.45 + cardH));
  const handH = header + round(cardH) + (compact ? 8 : 4);
  const playerHand: Rect = { x: round(W / 2 - gap / 2 - handW), y: handY, w: handW, h: handH };
  const bankerHand: Rect = { x: round(W / 2 + gap / 2), y: handY, w: handW, h: handH };
  const handsBottom = handY + handH;
  const roomy = (fan ? cardW * (1 + 2 * FAN_STEP) : cardW * 2.25 + cardH) + 12 <= handAvail + 0.5;
  const handsFit = roomy && handsBottom + 6 <= arcTopOver({ arc, compact }, playerHand.x, bankerHand.x + bankerHand.w);
  if (up) {
    const result: Rect = { x: round(W / 2 - plaqueW / 2), y: round(m + (topH - resultH) / 2), w: round(plaqueW), h: round(resultH) };
    return { fan, cardW, cardH, header, playerHand, bankerHand, result, fits: handsFit && plaqueW >= 96 };
  }
  // The result: below the hands, as wide as wished but no wider than the arc leaves at its foot.
  const innerTop = arcTopOver({ arc, compact }, W / 2 - wideResultW / 2, W / 2 + wideResultW / 2);
  const resultY = compact
    ? round(handsBottom + 10)
    : round(Math.max(handsBottom + 6, Math.min(innerTop - resultH - 8, handsBottom + (innerTop - handsBottom - resultH) / 2)));
  const resultW = Math.min(wideResultW, 2 * halfWidthAbove(arc, compact, resultY + resultH + 6));
  const result: Rect = { x: round(W / 2 - resultW / 2), y: resultY, w: round(resultW), h: round(resultH) };
  return { fan, cardW, cardH, header, playerHand, bankerHand, result, fits: handsFit && resultW >= minResultW };
}

/** Half the width a rect may have, centred on the table, whose bottom is at `y`, to stay above the arc. */
function halfWidthAbove(arc: ArcGeometry, compact: boolean, y: number): number {
  const { inset, r } = sectorDiscSize(compact);
  const rIn = arc.radii[0] - inset - r;
  const dy = y - arc.cy;
  // Above the inner ring's ends (the arc's highest point) any width clears it.
  if (dy <= rIn * Math.cos(arc.left - Math.PI / 2)) return Number.POSITIVE_INFINITY;
  return dy >= rIn ? 0 : Math.sqrt(rIn * rIn - dy * dy);
}

/** The spot of one box, or undefined for an unknown sector. */
export function spotOf(layout: TableLayout, sector: number, box: Box): BoxSpot | undefined {
  return layout.boxes.find((s) => s.sector === sector && s.box === box);
}

/** The disc of a hand's total, at the right of its label strip: centre and radius (its shadow reaches 2 px further). */
export function totalBadgeSpot(
  layout: Pick<TableLayout, 'playerHand' | 'bankerHand' | 'handHeader'>,
  hand: 'player' | 'banker',
): { x: number; y: number; r: number } {
  const r = hand === 'player' ? layout.playerHand : layout.bankerHand;
  const head = layout.handHeader;
  return { x: r.x + r.w - head * 0.75, y: r.y + head / 2 + 2, r: head * 0.5 };
}

/** Centre of a rect. */
export function centerOf(r: Rect): { x: number; y: number } {
  return { x: r.x + r.w / 2, y: r.y + r.h / 2 };
}

/**
 * Centre and rotation of card `slot` (0, 1, 2 in the order the hand received them). Wide layouts:
 * slots 0 and 1 upright side by side, the third card sideways on the outer side (left of Player,
 * right of Banker), as dealers lay it. Fanned layouts: three upright cards fanned left to right.
 */
export function cardSpot(layout: TableLayout, hand: 'player' | 'banker', slot: number): { x: number; y: number; rotation: number } {
  const r = hand === 'player' ? layout.playerHand : layout.bankerHand;
  const { w, h } = layout.card;
  const head = layout.handHeader;
  const cy = r.y + head + (r.h - head) / 2;
  if (layout.fan) {
    const span = w * (1 + 2 * FAN_STEP);
    const x0 = r.x + (r.w - span) / 2;
    return { x: x0 + w / 2 + slot * w * FAN_STEP, y: cy, rotation: 0 };
  }
  const gap = Math.max(4, w * 0.1);
  const pairW = 2 * w + gap;
  const sideW = h;
  const total = pairW + gap * 1.5 + sideW;
  const x0 = r.x + (r.w - total) / 2;
  if (hand === 'player') {
    if (slot === 2) return { x: x0 + sideW / 2, y: cy, rotation: Math.PI / 2 };
    const px = x0 + sideW + gap * 1.5;
    return { x: px + w / 2 + slot * (w + gap), y: cy, rotation: 0 };
  }
  if (slot === 2) return { x: x0 + pairW + gap * 1.5 + sideW / 2, y: cy, rotation: Math.PI / 2 };
  return { x: x0 + w / 2 + slot * (w + gap), y: cy, rotation: 0 };
}

function headerFor(cardH: number): number {
  return Math.round(clamp(cardH * 0.3, 18, 28));
}

function ringRadii(outer: number, thickness: number): readonly [number, number, number, number] {
  const r3 = outer;
  const r2 = r3 - thickness * RING_SHARE.player;
  const r1 = r2 - thickness * RING_SHARE.banker;
  const r0 = r1 - thickness * RING_SHARE.tie;
  return [round(r0), round(r1), round(r2), round(r3)];
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}

function deg(d: number): number {
  return (d * Math.PI) / 180;
}

function round(v: number): number {
  return Math.round(v * 10) / 10;
}
