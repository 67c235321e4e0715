/**
 * The cut as a moment of the game, in Chromium with the real scene and real input: when a shoe
 * waits for its cut, the felt shows the shuffled stack (drawn by the scene) and a cut card over it;
 * the player drags the card into the stack (real mouse events) or moves it with the arrow keys and
 * puts it in with Enter (real keys). The start request carries the cut where the card was dropped,
 * kept inside the shoe's cut range; the offer's words, stack and choices stay clear of one another,
 * of the boxes and of everything printed on the arc, in every language, on a phone either way up
 * and on a desktop.
 */
import { expect } from 'chai';
import { sendKeys, sendMouse, setViewport } from '@web/test-runner-commands';
import { tableLayout } from '../../widget/layout.ts';
import type { PixiTable } from '../../widget/scene/table-scene.ts';
import type { PuntoBancoTable } from '../../widget/element/punto-banco-table.ts';
import { corners, feltProblems, frameWidth, LANGUAGES, layoutPicture, quadsOverlap, type Quad } from './layout-checks.ts';
import { drag, FakeWorker, mountTable, shadow, startChoice, unmountAll, unmountAllAndResetMouse, until } from './helpers.ts';

/** Cards in the fake's six-deck stack, and the cuts it takes (1 … 311). */
const SIZE = 312;
const MIN = 1;
const MAX = 311;

const sceneOf = (el: PuntoBancoTable): PixiTable => el.scene as unknown as PixiTable;
const slider = (el: PuntoBancoTable): HTMLElement => shadow(el).querySelector<HTMLElement>('.invite .cut-felt')!;
const place = (el: PuntoBancoTable): DOMRect => shadow(el).querySelector<HTMLElement>('.invite .cut-place')!.getBoundingClientRect();

/** A table with the real scene, waiting for the cut of shoe 1, its offer drawn. */
async function offered(width = 900): Promise<{ el: PuntoBancoTable; worker: FakeWorker }> {
  const worker = new FakeWorker();
  const { el } = await mountTable({ worker, width, scene: 'real', attrs: { 'reduced-motion': '' } });
  await until(() => el.scene && sceneOf(el).inspect().cutOffer, 'the offer of the cut drawn by the scene', 30_000);
  return { el, worker };
}

/** Where the card stands now (viewport px): its x over the stack, the stack's middle height. */
function cardPoint(el: PuntoBancoTable): [number, number] {
  const r = place(el);
  const value = Number(slider(el).getAttribute('aria-valuenow'));
  return [Math.round(r.left + (value / SIZE) * r.width), Math.round(r.top + r.height / 2)];
}

/** The cut the one start request carried. */
async function sentCut(worker: FakeWorker): Promise<number> {
  await until(() => worker.requests('start').length === 1, 'the start request');
  return startChoice(worker.requests('start')[0]!).cut;
}

describe('the cut on the felt', function () {
  this.timeout(60_000);

  afterEach(unmountAllAndResetMouse);

  it('the card dragged into the stack cuts where it was dropped; the shuffle and cut then take the offer’s place', async () => {
    const { el, worker } = await offered();
    const r = place(el);
    // The scene draws the stack where the DOM keeps its place, and the card where the slider says.
    const canvas = el.scene!.canvas.getBoundingClientRect();
    const drawn = Object.fromEntries(
      sceneOf(el)
        .drawnRects()
        .map((d) => [d.name, d]),
    );
    expect(drawn['cut stack'], 'the stack drawn').to.not.equal(undefined);
    expect(Math.abs(drawn['cut stack']!.x + canvas.left - r.left)).to.be.below(2);
    expect(Math.abs(drawn['cut stack']!.w - r.width)).to.be.below(3);
    const before = Number(slider(el).getAttribute('aria-valuenow'));
    expect(sceneOf(el).inspect().cutOffer!.fraction).to.be.closeTo(before / SIZE, 1e-9);
    // The drop: 30 % of the way along the stack, on a whole pixel.
    const x = Math.round(r.left + r.width * 0.3);
    const expected = Math.round(((x - r.left) / r.width) * SIZE);
    expect(expected).to.not.equal(before);
    await drag(cardPoint(el), [x, Math.round(r.top + r.height / 2)]);
    expect(await sentCut(worker)).to.equal(expected);
    await until(() => shadow(el).querySelector('.invite') === null, 'the offer gone once the shoe started');
    await until(() => sceneOf(el).inspect().cutOffer === null, 'the scene’s offer gone');
    // Only the one start, and the first Deal deals from it (no second cut).
    el.placeBet(0, 'player');
    await el.deal();
    await until(() => el.state === 'settled', 'the round settled');
    expect(worker.requests('start')).to.have.length(1);
  });

  it('while dragged the card follows the pointer and is held; a drop past either end of the stack clamps to the range', async () => {
    for (const [side, expected] of [
      ['left', MIN],
      ['right', MAX],
    ] as const) {
      const { el, worker } = await offered();
      const r = place(el);
      const y = Math.round(r.top + r.height / 2);
      const from = cardPoint(el);
      await sendMouse({ type: 'move', position: from });
      await sendMouse({ type: 'down' });
      const mid: [number, number] = [Math.round(r.left + r.width * 0.6), y];
      await sendMouse({ type: 'move', position: mid });
      await until(() => sceneOf(el).inspect().cutOffer?.state === 'held', 'the card held');
      expect(Number(slider(el).getAttribute('aria-valuenow'))).to.equal(Math.round(((mid[0] - r.left) / r.width) * SIZE));
      expect(worker.requests('start'), 'nothing sent before the drop').to.have.length(0);
      // Out past the end of the stack (and above it): the cut stays inside the range.
      const out: [number, number] = [side === 'left' ? Math.round(r.left - 60) : Math.round(r.right + 60), y - 30];
      await sendMouse({ type: 'move', position: out });
      await sendMouse({ type: 'up' });
      expect(await sentCut(worker), side).to.equal(expected);
      unmountAll();
    }
  });

  it('the keyboard: Tab reaches the card, the arrow keys, Page Up and Home move it, Enter cuts there', async () => {
    const { el, worker } = await offered();
    const card = slider(el);
    expect(card.getAttribute('role')).to.equal('slider');
    expect([card.getAttribute('aria-valuemin'), card.getAttribute('aria-valuemax')]).to.deep.equal([String(MIN), String(MAX)]);
    expect(card.getAttribute('aria-label')).to.contain('Cut card');
    // Tab from the top of the table until the card has the focus.
    shadow(el).querySelector<HTMLElement>('.table')?.focus();
    for (let i = 0; i < 40 && shadow(el).activeElement !== card; i++) await sendKeys({ press: 'Tab' });
    expect(shadow(el).activeElement, 'the card focused by Tab').to.equal(card);
    await until(() => sceneOf(el).inspect().cutOffer?.state === 'held', 'the focused card held');
    await sendKeys({ press: 'Home' });
    await sendKeys({ press: 'ArrowRight' });
    await sendKeys({ press: 'ArrowRight' });
    await sendKeys({ press: 'ArrowUp' });
    await sendKeys({ press: 'ArrowLeft' });
    await sendKeys({ press: 'PageUp' });
    await until(() => card.getAttribute('aria-valuenow') === String(MIN + 2 + 52), 'the card moved by the keys');
    expect(card.getAttribute('aria-valuetext')).to.equal(`card ${MIN + 2 + 52} of ${SIZE}`);
    await until(() => Math.abs(sceneOf(el).inspect().cutOffer!.fraction - (MIN + 2 + 52) / SIZE) < 1e-9, 'the scene’s card moved');
    expect(worker.requests('start'), 'keys alone send nothing').to.have.length(0);
    // The end clamps too.
    await sendKeys({ press: 'End' });
    await sendKeys({ press: 'ArrowRight' });
    await until(() => card.getAttribute('aria-valuenow') === String(MAX), 'the card at the end');
    await sendKeys({ press: 'PageDown' });
    await sendKeys({ press: 'Enter' });
    expect(await sentCut(worker)).to.equal(MAX - 52);
  });

  it('a Deal without a drop deals from the card’s place; “cut for me” stays; the seed and details are one tap away', async () => {
    const { el, worker } = await offered();
    const root = shadow(el);
    slider(el).focus();
    await sendKeys({ press: 'Home' });
    await sendKeys({ press: 'ArrowRight' });
    await until(() => slider(el).getAttribute('aria-valuenow') === String(MIN + 1), 'the card moved');
    expect(root.querySelector('.invite-random')!.textContent.trim()).to.equal('Cut for me');
    // The fairness panel shows the same cut.
    root.querySelector<HTMLButtonElement>('.invite-cut')!.click();
    const fairness = await (async () => {
      await until(() => root.querySelector('pb-fairness'), 'the fairness panel');
      return root.querySelector('pb-fairness') as HTMLElement & { cut: number };
    })();
    await until(() => fairness.cut === MIN + 1, 'the panel’s cut is the card’s');
    el.placeBet(0, 'player');
    await el.deal();
    expect(await sentCut(worker)).to.equal(MIN + 1);
  });
});

/** A DOM element's rect in table px (the canvas's origin), or null when it is not shown. */
function tableRect(e: Element | null, origin: DOMRect): (Quad & { name: string }) | null {
  if (!e || getComputedStyle(e).display === 'none') return null;
  const r = e.getBoundingClientRect();
  if (r.width <= 1 || r.height <= 1) return null;
  return { x: r.left - origin.left, y: r.top - origin.top, w: r.width, h: r.height, name: e.className };
}

describe('the offer of the cut over the screens and languages', function () {
  this.timeout(240_000);

  afterEach(async () => {
    unmountAll();
    document.body.style.margin = '';
    await setViewport({ width: 800, height: 600 });
  });

  for (const [width, height] of [
    [844, 390],
    [390, 844],
    [1280, 720],
    [360, 640],
  ] as const)
    it(`${width}×${height}: words, stack, card and choices clear of one another, of the boxes and of the arc, on the felt; the words inside their buttons`, async () => {
      await setViewport({ width, height });
      document.body.style.margin = '0';
      const { el } = await mountTable({ width: frameWidth(width, height), scene: 'real', attrs: { lang: 'en', 'reduced-motion': '' } });
      await until(() => el.scene && sceneOf(el).inspect().cutOffer, 'the offer drawn', 30_000);
      const problems: string[] = [];
      for (const lang of LANGUAGES) {
        el.lang = lang;
        await el.updateComplete;
        const root = shadow(el);
        await until(() => root.querySelector('.table')?.getAttribute('lang') === lang, lang, 10_000);
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(null))));
        const stage = root.querySelector<HTMLElement>('.stage')!;
        const origin = el.scene!.canvas.getBoundingClientRect();
        const layout = tableLayout(stage.clientWidth, stage.clientHeight);
        const drawn = sceneOf(el)
          .drawnRects()
          .filter((d) => d.name.startsWith('cut'));
        if (drawn.length !== 2) problems.push(`${lang}: ${drawn.length} drawn pieces of the offer`);
        const invite = root.querySelector('.invite')!;
        const say = tableRect(invite.querySelector('.invite-say'), origin);
        const hint = tableRect(invite.querySelector('.cut-hint'), origin);
        const mat = tableRect(invite.querySelector('.cut-felt'), origin)!;
        const buttons = [...invite.querySelectorAll('button')].map((b) => tableRect(b, origin)!);
        const pieces = [...drawn, ...(say && getComputedStyle(invite.querySelector('.invite-say')!).clipPath === 'none' ? [say] : []), mat, ...buttons];
        // On the felt, off every box, wedge and sector number.
        problems.push(...feltProblems({ ...layoutPicture(layout), pieces }).map((p) => `${lang}: ${p}`));
        // Inside the offer's room, and apart from one another (the stack and card stand on the mat, the hint under them).
        const room = { ...layout.cutOffer, name: 'room' };
        for (const p of pieces)
          if (p.x < room.x - 1 || p.y < room.y - 1 || p.x + p.w > room.x + room.w + 1 || p.y + p.h > room.y + room.h + 1)
            problems.push(
              `${lang}: ${p.name} [${[p.x, p.y, p.w, p.h].map(Math.round)}] out of the offer's room [${[room.x, room.y, room.w, room.h].map(Math.round)}]`,
            );
        const apart = [...(pieces.includes(say!) ? [say!] : []), mat, ...buttons];
        for (let i = 0; i < apart.length; i++)
          for (let j = i + 1; j < apart.length; j++)
            if (quadsOverlap(corners(apart[i]!), corners(apart[j]!), 0.5)) problems.push(`${lang}: ${apart[i]!.name} on ${apart[j]!.name}`);
        for (const d of drawn)
          if (d.x < mat.x - 1 || d.x + d.w > mat.x + mat.w + 1 || d.y < mat.y - 1 || d.y + d.h > mat.y + mat.h + 1)
            problems.push(`${lang}: the ${d.name} off its mat`);
        if (hint) for (const d of drawn) if (quadsOverlap(corners(d), corners(hint), 0.5)) problems.push(`${lang}: the ${d.name} on the hint`);
        for (const b of invite.querySelectorAll('button'))
          if (b.scrollWidth > b.clientWidth + 1 || b.scrollHeight > b.clientHeight + 1)
            problems.push(`${lang}: “${b.textContent.trim()}” spills out of its button`);
      }
      expect(problems, `${width}×${height}`).to.deep.equal([]);
    });
});
