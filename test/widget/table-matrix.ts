/**
 * The table over the full matrix of screens and languages (table-matrix-*.test.ts run it in two
 * halves, each within the runner's time for a file), in Chromium with the real scene: at
 * 1280×720, 1366×768, 1440×900, 390×844, 844×390, 360×640 and 640×360, in en, ru, it and el, a
 * settled round with bets on three boxes (a fourth sector refused). Measured on the DOM (the boxes'
 * buttons, the control bar) and on the scene's own rects (hands, cards, result banner, pills): no
 * card area, banner or pill on a bet box, a printed wedge or a sector number, nothing off the felt;
 * the felt and every control inside the viewport; no button's words spill out of it, no meter's;
 * no word cut anywhere in the table (an ellipsis, a clipped box), while betting and settled. A
 * refused click's toast, while betting (the first language's under the offer of the cut) and over
 * the settled round: on no bet box, sector number, chip or dealt card. The roads at a glance: shown
 * under or beside the felt on the desktops and the phone held sideways (844×390), with the shoe's
 * rounds, on screen and clear of the felt and of every control; an upright phone may keep them in
 * the scoreboard.
 */
import { expect } from 'chai';
import { setViewport } from '@web/test-runner-commands';
import { type Rect, tableLayout } from '../../widget/layout.ts';
import { en } from '../../widget/i18n/en.ts';
import { ru } from '../../widget/i18n/ru.ts';
import { it as itCatalog } from '../../widget/i18n/it.ts';
import { el as elCatalog } from '../../widget/i18n/el.ts';
import type { PixiTable } from '../../widget/scene/table-scene.ts';
import { corners, cutTexts, feltProblems, frameWidth, LANGUAGES, layoutPicture, overlaps, type Quad, quadsOverlap, VIEWPORTS } from './layout-checks.ts';
import type { PuntoBancoTable } from '../../widget/element/punto-banco-table.ts';
import { action, boxButton, FakeWorker, mountTable, shadow, toastText, unmountAll, until } from './helpers.ts';

export { LANGUAGES, VIEWPORTS };

/** A box button's place on the stage, unrotated, and its rotation (as view.ts sets them). */
function boxQuad(b: HTMLElement): Quad & { name: string } {
  const angle = Number(/rotate\(([-\d.e]+)rad\)/.exec(b.style.transform)?.[1] ?? 0);
  const name = `sector ${Number(b.dataset['sector']) + 1} ${b.dataset['box']}`;
  return { x: b.offsetLeft, y: b.offsetTop, w: b.offsetWidth, h: b.offsetHeight, angle, name };
}

/** The matrix's tests for `viewports`, in a describe of their own. */
export function matrix(title: string, viewports: readonly (readonly [number, number])[]): void {
  describe(`the table over the screen × language matrix: ${title}`, function () {
    this.timeout(120_000);

    afterEach(async () => {
      unmountAll();
      document.body.style.margin = '';
      await setViewport({ width: 800, height: 600 });
    });

    for (const [width, height] of viewports) {
      it(`${width}×${height}, in ${LANGUAGES.join(', ')}: cards, banner and pills off the boxes and on the felt; every control on screen and its words inside it`, async () => {
        await setViewport({ width, height });
        document.body.style.margin = '0';
        const worker = new FakeWorker();
        // Both hands draw a third card (the widest hands there are); Banker wins 9 to 7.
        worker.script = LANGUAGES.map(() => ['2S', '3H', '3D', 'KC', '2D', '6C']);
        const { el } = await mountTable({ worker, width: frameWidth(width, height), scene: 'real', attrs: { lang: 'en', 'reduced-motion': '' } });
        await until(() => el.scene, 'the scene', 30_000);
        // Every language's problems, told together.
        const problems: string[] = [];
        for (const lang of LANGUAGES) {
          el.lang = lang;
          await el.updateComplete;
          await until(() => shadow(el).querySelector('.table')?.getAttribute('lang') === lang, lang, 10_000);
          for (const [sector, box] of [
            [0, 'banker'],
            [1, 'player'],
            [3, 'tie'],
          ] as const)
            el.placeBet(sector, box);
          // A fourth sector, clicked as a player would: refused, and the refusal's toast must leave
          // every box, card area and chip in sight (the first language's cell under the offer of the cut).
          const refused = await refusal(el, 'a fourth sector', () => boxButton(el, 4, 'player').click());
          const betting = [...refused, ...cutTexts(shadow(el), el)].map((p) => `${lang}, bets: ${p}`);
          await el.deal();
          await until(() => el.state === 'settled', 'settled', 30_000);
          await el.updateComplete;
          await new Promise((r) => requestAnimationFrame(() => r(null)));
          const rounds = LANGUAGES.indexOf(lang) + 1;
          const settled = [...measure(el, width, height), ...glanceProblems(el, width, height, rounds), ...cutTexts(shadow(el), el)];
          // The settled round's cards are on the felt: a refusal now must leave them in sight too.
          settled.push(...(await refusal(el, 'Deal with no bet', () => action(el, 'deal').click())));
          problems.push(...betting, ...settled.map((p) => `${lang}: ${p}`));
        }
        expect(problems, `${width}×${height}`).to.deep.equal([]);
      });
    }
  });
}

/** Everything out of place in the settled table, as sentences. */
function measure(el: PuntoBancoTable, width: number, height: number): string[] {
  const out: string[] = [];
  const root = shadow(el);
  const stage = root.querySelector<HTMLElement>('.stage')!;
  const W = stage.clientWidth;
  const H = stage.clientHeight;
  const layout = tableLayout(W, H);
  const boxes = [...root.querySelectorAll<HTMLElement>('.box')].map(boxQuad);
  if (boxes.length !== 15) out.push(`${boxes.length} boxes`);
  // The DOM boxes are the layout's boxes.
  for (const [i, b] of boxes.entries()) {
    const spot = layout.boxes[i]!;
    // offsetLeft and the like are whole pixels; the layout's figures have one decimal.
    const off = [b.x - spot.x, b.y - spot.y, b.w - spot.w, b.h - spot.h].some((d) => Math.abs(d) > 1);
    if (off) out.push(`${b.name}: button [${[b.x, b.y, b.w, b.h].join(' ')}], layout [${[spot.x, spot.y, spot.w, spot.h].join(' ')}]`);
  }
  const scene = el.scene as unknown as PixiTable;
  const drawn = scene.drawnRects();
  if (drawn.filter((r) => r.name.startsWith('card')).length !== 6) out.push('not six cards on the felt');
  if (!drawn.some((r) => r.name === 'result banner')) out.push('no result banner');
  if (!drawn.some((r) => r.name.startsWith('pill'))) out.push('no pill');
  const own = layoutPicture(layout);
  out.push(...feltProblems({ ...own, boxes, pieces: [...own.pieces, ...drawn] }));

  // The felt and every control inside the viewport; the felt not cut by the frame.
  const controls = [stage, ...root.querySelectorAll<HTMLElement>('.chip:not(.ghost), .bar button, .meter, .status, .drawer-bar button')].filter(
    (c) => getComputedStyle(c).display !== 'none' && c.getClientRects().length > 0,
  );
  // A 640 px high phone held upright is the one screen where the page may scroll: the felt yields
  // so that the meters, the status line and every action button (Deal) are on screen; the tools and
  // the panels' strip may follow below.
  const scrolls = height === 640 && width < height;
  const mustShow = (c: HTMLElement): boolean => stage.contains(c) || !!c.closest('.actions') || c.matches('.meter, .status');
  for (const c of controls) {
    const r = c.getBoundingClientRect();
    const below = r.bottom > height + 0.5 && !(scrolls && !mustShow(c));
    if (r.left < -0.5 || r.top < -0.5 || r.right > width + 0.5 || below)
      out.push(`${c.className} ${c.dataset['action'] ?? c.dataset['tool'] ?? ''} [${[r.left, r.top, r.right, r.bottom].map(Math.round).join(' ')}] off screen`);
  }
  // Every button of the bar shows, the status line too, and no word runs out of its button.
  for (const name of ['undo', 'clear', 'double', 'repeat', 'repeatDeal', 'deal']) {
    const b = root.querySelector<HTMLElement>(`.bar [data-action="${name}"]`)!;
    if (getComputedStyle(b).display === 'none') out.push(`${name} hidden`);
    else if (b.scrollWidth > b.clientWidth + 1) out.push(`${name} "${b.textContent?.trim()}" spills out of its button (${b.scrollWidth} > ${b.clientWidth})`);
    else if (name === 'deal' || name === 'repeatDeal') {
      // Nor is a word of Deal broken inside it: never more lines than words. (A single long word
      // of a small button, such as the Greek Double on a phone, may still break, never spill.)
      const range = document.createRange();
      range.selectNodeContents(b);
      const lines = new Set([...range.getClientRects()].filter((q) => q.width > 0).map((q) => Math.round(q.top))).size;
      const words = (b.textContent ?? '').trim().split(/\s+/).length;
      if (lines > words) out.push(`${name} "${b.textContent?.trim()}" breaks a word (${lines} lines, ${words} words)`);
    }
  }
  // No word broken inside a small button either ("Διπλασιασ-μός" on a phone): never more lines than words.
  for (const b of root.querySelectorAll<HTMLElement>('.bar .action')) {
    const lines = textLines(b);
    const words = (b.textContent ?? '').trim().split(/\s+/).length;
    if (lines > words) out.push(`${b.dataset['action']} "${b.textContent?.trim()}" breaks a word (${lines} lines, ${words} words)`);
  }
  // The mode switch shows its whole word, in either mode ("Башма…" was cut at 640×360 in Russian).
  const mode = root.querySelector<HTMLElement>('.bar .tool.mode');
  if (mode) {
    const style = getComputedStyle(mode);
    const room = mode.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const lang = (shadow(el).querySelector('.table')?.getAttribute('lang') ?? 'en') as keyof typeof CATALOGS;
    // Where the switch takes the row's room (the column of a phone held sideways) the other mode's word must fit it too.
    const words = style.flexGrow === '0' ? [mode.textContent?.trim() ?? ''] : Object.values(CATALOGS[lang].mode);
    if (mode.scrollWidth > mode.clientWidth + 1) out.push(`the mode switch cuts "${mode.textContent?.trim()}" (${mode.scrollWidth} > ${mode.clientWidth})`);
    for (const word of words)
      if (textWidth(word, style) > room + 0.5) out.push(`the mode switch cuts "${word}" (${Math.round(textWidth(word, style))} > ${Math.round(room)} px)`);
  }
  // A meter's name and figure stay inside it (not cut, nor spilling onto the next meter).
  for (const part of root.querySelectorAll<HTMLElement>('.meter, .meter .label, .meter output'))
    if (part.scrollWidth > part.clientWidth + 1) out.push(`the meter's "${part.textContent?.trim()}" spills out (${part.scrollWidth} > ${part.clientWidth})`);
  if (getComputedStyle(root.querySelector('.bar .status')!).display === 'none') out.push('no status line');
  // No button alone on a row of the bar (as Deal was, wrapped under the others in Italian); the
  // column beside the felt of a phone held sideways gives Deal a row of its own on purpose.
  const sideways = getComputedStyle(root.querySelector('.bar')!).flexDirection === 'column';
  const tops = [...root.querySelectorAll<HTMLElement>('.bar .action')].map((b) => Math.round(b.getBoundingClientRect().top));
  for (const top of sideways ? [] : new Set(tops))
    if (tops.filter((t) => Math.abs(t - top) <= 2).length === 1) out.push(`a button alone on its row (top ${top})`);
  return out.map((p) => `felt ${W}×${H}: ${p}`);
}

/**
 * A click the table refuses (`refuse`), and where its toast stands: on the felt, clear of every bet
 * box (the buttons and the printed wedges), sector number, chip (the tray's, the bets' pills), the
 * offer of the cut (its choices at least) and, while cards lie on the felt, the card areas (the hands, their names and
 * totals, the cards). It may stand over the empty hands, the result banner, the shoe and the
 * discard tray.
 */
async function refusal(el: PuntoBancoTable, what: string, refuse: () => void): Promise<string[]> {
  refuse();
  // The refusal is told at once (no frame to wait for): its toast is there after the update.
  await el.updateComplete;
  if (!toastText(el)) return [`${what}: no toast`];
  const root = shadow(el);
  const stage = root.querySelector<HTMLElement>('.stage')!;
  const origin = stage.getBoundingClientRect();
  const onStage = (e: Element): Rect => {
    const r = e.getBoundingClientRect();
    return { x: r.left - origin.left, y: r.top - origin.top, w: r.width, h: r.height };
  };
  const box = root.querySelector<HTMLElement>('.toast')!;
  const toast = { ...onStage(box), name: `the toast "${toastText(el)}"` };
  const layout = tableLayout(stage.clientWidth, stage.clientHeight);
  const boxes = [...root.querySelectorAll<HTMLElement>('.box')].map(boxQuad);
  const out = feltProblems({ ...layoutPicture(layout), boxes, pieces: [toast] });
  // The card areas while cards lie there (the hands, their names and totals, the cards), the bets' pills and the tray's chips.
  const drawn = (el.scene as unknown as PixiTable).drawnRects();
  const dealt = drawn.some((r) => r.name.startsWith('card '));
  // The offer of the cut too (where the layout finds no room of two lines beside it, as on a
  // phone, its choices at least: the toast then stands over its top).
  const offer = overlaps(layout.toastByOffer, layout.cutOffer) ? ', .invite-actions' : ', .invite';
  const clear: (Quad & { name: string })[] = [
    ...drawn.filter((r) => r.name.startsWith('pill ') || (dealt && /^(card |Player |Banker )/.test(r.name))),
    ...[...root.querySelectorAll(`.chips .chip${offer}`)].map((c) => ({ ...onStage(c), name: c.className })),
  ];
  for (const c of clear) if (quadsOverlap(corners(toast), corners(c), 0.5)) out.push(`${toast.name} [${fmt(toast)}] on the ${c.name} [${fmt(c)}]`);
  // Its words inside it (none running out under its edge onto what is beside it).
  if (box.scrollHeight > box.clientHeight + 1 || box.scrollWidth > box.clientWidth + 1) out.push(`${toast.name}: words out of it`);
  return out.map((p) => `${what}: ${p}`);
}

function fmt(r: Rect): string {
  return [r.x, r.y, r.w, r.h].map(Math.round).join(' ');
}

/** The screens where the roads must show at a glance (an upright phone, and a low one held sideways, have no room). */
const GLANCE_SCREENS = ['1280x720', '1366x768', '1440x900', '844x390'];

/** The roads at a glance: shown where there is room, with the shoe's `rounds`, on screen, on nothing else. */
function glanceProblems(el: PuntoBancoTable, width: number, height: number, rounds: number): string[] {
  const out: string[] = [];
  const root = shadow(el);
  const glance = root.querySelector<HTMLElement & { shadowRoot: ShadowRoot }>('pb-road-glance');
  const boards = glance?.shadowRoot?.querySelector<HTMLElement>('.boards');
  const shown =
    !!glance && !!boards && getComputedStyle(glance).display !== 'none' && boards.getClientRects().length > 0 && getComputedStyle(boards).display !== 'none';
  if (!shown) return GLANCE_SCREENS.includes(`${width}x${height}`) ? ['no roads at a glance'] : [];
  const beads = glance.shadowRoot.querySelectorAll('.bead .mark').length;
  if (beads !== rounds) out.push(`the glance's bead plate has ${beads} marks for ${rounds} rounds`);
  const g = boards.getBoundingClientRect();
  if (g.height < 30) out.push(`the glance is ${Math.round(g.height)} px high`);
  if (g.left < -0.5 || g.top < -0.5 || g.right > width + 0.5 || g.bottom > height + 0.5)
    out.push(`the glance [${[g.left, g.top, g.right, g.bottom].map(Math.round).join(' ')}] off screen`);
  const others = [
    root.querySelector<HTMLElement>('.stage')!,
    ...root.querySelectorAll<HTMLElement>('.bar button, .meter, .status, .drawer-bar button, .drawer-bar summary'),
  ];
  for (const o of others) {
    const r = o.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (g.left < r.right - 0.5 && r.left < g.right - 0.5 && g.top < r.bottom - 0.5 && r.top < g.bottom - 0.5)
      out.push(
        `the glance [${[g.left, g.top, g.right, g.bottom].map(Math.round).join(' ')}] on ${o.className || o.tagName} [${[r.left, r.top, r.right, r.bottom].map(Math.round).join(' ')}]`,
      );
  }
  return out;
}

/** How many lines an element's text takes. */
function textLines(el: HTMLElement): number {
  const range = document.createRange();
  range.selectNodeContents(el);
  return new Set([...range.getClientRects()].filter((q) => q.width > 0).map((q) => Math.round(q.top))).size;
}

/** The catalogs, for the words a screen does not show now (the other mode). */
const CATALOGS = { en, ru, it: itCatalog, el: elCatalog };

const measureCanvas = document.createElement('canvas').getContext('2d')!;

/** A word's width in an element's font (its letter spacing too). */
function textWidth(word: string, style: CSSStyleDeclaration): number {
  measureCanvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const spacing = parseFloat(style.letterSpacing) || 0;
  return measureCanvas.measureText(word).width + spacing * word.length;
}
