/** The table geometry shared by canvas and DOM overlay (pure; runs in the browser with the others). */
import { expect } from 'chai';
import { BOXES, SECTORS } from '../../shared/table.ts';
import { cardSpot, type Rect, tableLayout } from '../../widget/layout.ts';
import { corners, feltProblems, layoutPicture, overlaps, quadsOverlap } from './layout-checks.ts';

const SIZES: [number, number][] = [
  [960, 600],
  [1280, 720],
  [800, 500],
  [390, 700],
  [360, 640],
  [414, 896],
  [640, 480],
];

function inside(r: Rect, W: number, H: number): boolean {
  return r.x >= 0 && r.y >= 0 && r.x + r.w <= W + 0.01 && r.y + r.h <= H + 0.01 && r.w > 0 && r.h > 0;
}

describe('tableLayout', () => {
  for (const [W, H] of SIZES) {
    it(`${W}×${H}: 15 boxes in table order, inside the canvas, none overlapping (rotated or not)`, () => {
      const L = tableLayout(W, H);
      expect(L.boxes.map((b) => `${b.sector}${b.box}`)).to.deep.equal(Array.from({ length: SECTORS }, (_, s) => BOXES.map((b) => `${s}${b}`)).flat());
      for (const b of L.boxes) expect(inside(b, W, H), `${b.sector} ${b.box}`).to.equal(true);
      for (let i = 0; i < L.boxes.length; i++) {
        for (let j = i + 1; j < L.boxes.length; j++) {
          const a = L.boxes[i]!;
          const b = L.boxes[j]!;
          expect(overlaps(a, b), `${a.sector}${a.box} × ${b.sector}${b.box}`).to.equal(false);
          expect(quadsOverlap(corners(a), corners(b)), `rotated ${a.sector}${a.box} × ${b.sector}${b.box}`).to.equal(false);
        }
      }
    });

    it(`${W}×${H}: shoe, tray, hands, result and chip tray are inside and apart from the boxes`, () => {
      const L = tableLayout(W, H);
      for (const r of [L.shoe, L.discard, L.playerHand, L.bankerHand, L.result, L.chipTray]) expect(inside(r, W, H)).to.equal(true);
      for (const r of [L.shoe, L.discard, L.playerHand, L.bankerHand, L.result]) {
        for (const b of L.boxes) expect(overlaps(r, b), JSON.stringify(r)).to.equal(false);
      }
      expect(overlaps(L.playerHand, L.bankerHand)).to.equal(false);
      expect(overlaps(L.shoe, L.playerHand) || overlaps(L.shoe, L.bankerHand)).to.equal(false);
      for (const b of L.boxes) expect(b.y + b.h <= L.chipTray.y).to.equal(true);
      // The printed name and limits (and their flourishes) stay clear of the shoe and the tray.
      expect(overlaps(L.plaque, L.shoe) || overlaps(L.plaque, L.discard), JSON.stringify(L.plaque)).to.equal(false);
    });

    it(`${W}×${H}: every card slot lies inside its hand`, () => {
      const L = tableLayout(W, H);
      for (const hand of ['player', 'banker'] as const) {
        const r = hand === 'player' ? L.playerHand : L.bankerHand;
        for (const slot of [0, 1, 2]) {
          const p = cardSpot(L, hand, slot);
          const sideways = Math.abs(p.rotation) > 0.1;
          const w = sideways ? L.card.h : L.card.w;
          const h = sideways ? L.card.w : L.card.h;
          expect(inside({ x: p.x - w / 2, y: p.y - h / 2, w, h }, W, H)).to.equal(true);
          expect(p.x - w / 2 >= r.x - 0.5 && p.x + w / 2 <= r.x + r.w + 0.5, `${hand} ${slot}`).to.equal(true);
        }
      }
    });
  }

  it('uses the compact arrangement on phones in portrait, the wide one on desktops and on phones held sideways', () => {
    expect(tableLayout(390, 700).compact).to.equal(true);
    expect(tableLayout(960, 600).compact).to.equal(false);
    expect(tableLayout(600, 900).compact).to.equal(true);
    // The felt beside the control column of a phone held sideways (844×390, 640×360).
    expect(tableLayout(648, 390).compact).to.equal(false);
    expect(tableLayout(444, 360).compact).to.equal(false);
  });

  // The felts the element gives at the matrix's screens (desktop 16:10 under the bar, phone 3:4,
  // a phone held sideways: the whole height beside the control column), and a sweep of the shapes
  // a page can give it: wide ones at least 320 px high, upright ones from 320 px wide (the narrowest
  // phones) and at least 1.18 times as high (the phone felt’s floor, widget/styles/narrow.ts).
  const felts: [number, number][] = [
    [1280, 560],
    [1366, 610],
    [1440, 740],
    [390, 520],
    [360, 440],
    [648, 390],
    [634, 390],
    [444, 360],
    [472, 360],
  ];
  for (let w = 400; w <= 1700; w += 50) for (let h = 320; h <= w * 0.65; h += 30) felts.push([w, h]);
  for (let w = 320; w <= 640; w += 20) for (const r of [1.18, 1.25, 1.33]) felts.push([w, Math.round(w * r)]);

  it(`${felts.length} felt sizes: the hands, result banner and plaque clear of every printed wedge, button and sector number, inside the felt`, () => {
    const problems: string[] = [];
    for (const [W, H] of felts) for (const p of feltProblems(layoutPicture(tableLayout(W, H)))) problems.push(`${W}×${H}: ${p}`);
    expect(problems.slice(0, 20)).to.deep.equal([]);
  });

  it(`${felts.length} felt sizes: the offer of the cut (words, stack, choices) clear of every printed wedge, button and sector number, inside the felt, over the hands`, function () {
    this.timeout(120_000); // each point of a large rect is checked against 15 wedges
    const problems: string[] = [];
    for (const [W, H] of felts) {
      const L = tableLayout(W, H);
      const offer = { ...L.cutOffer, name: 'cut offer' };
      problems.push(...feltProblems({ ...layoutPicture(L), pieces: [offer] }).map((p) => `${W}×${H}: ${p}`));
      // Where the hands will be: over their whole height, centred, and no narrower than them unless
      // it starts in the top band (between the tray and the shoe).
      const hands = { x: L.playerHand.x, y: L.playerHand.y, w: L.bankerHand.x + L.bankerHand.w - L.playerHand.x, h: L.playerHand.h };
      const narrower = offer.x > hands.x + 0.5 || offer.x + offer.w < hands.x + hands.w - 0.5;
      const up = offer.y < hands.y;
      if ((narrower && !up) || offer.y > hands.y || offer.y + offer.h < hands.y + hands.h - 0.5 || Math.abs(offer.x + offer.w / 2 - W / 2) > 0.5)
        problems.push(`${W}×${H}: cut offer [${[offer.x, offer.y, offer.w, offer.h]}] not over the hands [${[hands.x, hands.y, hands.w, hands.h]}]`);
    }
    expect(problems.slice(0, 20)).to.deep.equal([]);
  });

  // The matrix's felts and every fifth of the sweep: each point of a large rect is checked against 15 wedges.
  const toastFelts = felts.filter((_, i) => i < 9 || i % 5 === 0);
  it(`${toastFelts.length} felt sizes: the refusal's rooms clear of every printed wedge, button and sector number, inside the felt; beside the cards and the offer, off them`, function () {
    this.timeout(60_000);
    const problems: string[] = [];
    for (const [W, H] of toastFelts) {
      const L = tableLayout(W, H);
      const toast = { ...L.toast, name: 'toast' };
      const byCards = { ...L.toastByCards, name: 'toast beside the cards' };
      const byOffer = { ...L.toastByOffer, name: 'toast beside the offer' };
      problems.push(...feltProblems({ ...layoutPicture(L), pieces: [toast, byCards, byOffer] }).map((p) => `${W}×${H}: ${p}`));
      // Off the offer of the cut; where there is no room beside it, from the felt's top, with three
      // lines of the small type (11 px, 1.15, edges 6 px) clear of its choices (at most 40 px at its foot).
      if (overlaps(byOffer, L.cutOffer) && byOffer.y + 3 * 12.65 + 6 > L.cutOffer.y + L.cutOffer.h - 40)
        problems.push(
          `${W}×${H}: the toast's room beside the offer [${[byOffer.x, byOffer.y, byOffer.w, byOffer.h]}], the offer [${[L.cutOffer.x, L.cutOffer.y, L.cutOffer.w, L.cutOffer.h]}]`,
        );
      // Room for four lines of the toast's type (14 px, 1.25), or beside the cards one of the small one (11 px, 1.15).
      if (toast.h < 4 * 17.5 + 14) problems.push(`${W}×${H}: the toast's room is ${toast.h} px high`);
      if (byCards.h < 13 + 6 || byCards.w < 190) problems.push(`${W}×${H}: the toast's room beside the cards is ${byCards.w}×${byCards.h}`);
      for (const hand of [L.playerHand, L.bankerHand])
        if (overlaps(byCards, hand)) problems.push(`${W}×${H}: the toast's room beside the cards [${[byCards.x, byCards.y, byCards.w, byCards.h]}] on a hand`);
    }
    expect(problems.slice(0, 20)).to.deep.equal([]);
  });

  it('a phone held sideways (648×390) keeps readable cards: at least 50 px high, the third one sideways', () => {
    const L = tableLayout(648, 390);
    expect(L.card.h).to.be.at.least(50);
    expect(L.fan).to.equal(false);
    expect(cardSpot(L, 'player', 2).rotation).to.not.equal(0);
  });

  it('is deterministic', () => {
    expect(tableLayout(777, 555)).to.deep.equal(tableLayout(777, 555));
  });
});
