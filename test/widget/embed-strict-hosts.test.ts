/**
 * The BUILT widget (dist/punto-banco-table.js and its lazy chunks, real Pixi scene) on host pages
 * we do not control, each in an iframe served by embed-host.ts with
 * `Content-Security-Policy: default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'`:
 * - a plain strict page: the table loads, takes a bet and plays a round with zero CSP violations;
 * - a hostile-CSS page (`* { all: unset !important }`, resets, `button { display: none }`,
 *   `canvas { width: 1px }`, inherited typography): the table still renders, reads and plays.
 * Clicks are real mouse clicks (sendMouse) at the boxes' centres, so hidden or covered controls fail.
 * Needs `npm run build` first (`npm run test:widget` does it).
 */
import { expect } from 'chai';
import { resetMouse, sendMouse, setViewport } from '@web/test-runner-commands';
import type { PuntoBancoTable } from '../../widget/element/punto-banco-table.ts';
import type { Receipt, Signed } from '../../widget/session/api-types.ts';
import { action, boxButton, shadow, until } from './helpers.ts';

interface Violation {
  directive: string;
  blocked: string;
  sample: string;
  source: string;
  line: number;
}
interface HostWindow extends Window {
  pbViolations: Violation[];
  pbEvents: { type: string; table: string; detail: unknown }[];
}
interface Host {
  frame: HTMLIFrameElement;
  win: HostWindow;
  table: PuntoBancoTable;
}

const frames: HTMLIFrameElement[] = [];

/** Opens a host page in an 800 × 640 iframe and waits for its table to be ready with the real scene. */
async function openHost(page: string): Promise<Host> {
  const frame = document.createElement('iframe');
  frame.width = '800';
  frame.height = '640';
  frame.style.border = '0';
  frame.style.display = 'block';
  frames.push(frame);
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  frame.src = `/test/widget/embed/${page}`;
  document.body.prepend(frame);
  await loaded;
  const win = frame.contentWindow as HostWindow;
  const table = win.document.querySelector('punto-banco-table') as PuntoBancoTable;
  await until(() => win.pbEvents.some((e) => e.type === 'pb-ready') || win.pbEvents.some((e) => e.type === 'pb-error'), 'pb-ready in the host page', 30_000);
  await until(() => table.scene && shadow(table).querySelectorAll('.box').length === 15, 'the scene and the 15 boxes', 30_000);
  return { frame, win, table };
}

/** A real mouse click at the centre of an element inside the iframe. */
async function clickIn(host: Host, target: Element): Promise<void> {
  const outer = host.frame.getBoundingClientRect();
  const r = target.getBoundingClientRect();
  await sendMouse({ type: 'click', position: [Math.round(outer.left + r.left + r.width / 2), Math.round(outer.top + r.top + r.height / 2)] });
}

/** The element a click at `target`'s centre would reach, through the table's shadow root. */
function hitAt(host: Host, target: Element): Element | null {
  const r = target.getBoundingClientRect();
  return shadow(host.table).elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
}

/** Bets the table minimum on Player of sector 1 and deals, by mouse; returns the receipt. */
async function playOneRound(host: Host): Promise<Signed<Receipt>> {
  const { table, win } = host;
  const player = boxButton(table, 0, 'player');
  expect(hitAt(host, player), 'the Player box is the element under its centre').to.equal(player);
  await clickIn(host, player);
  await until(() => table.bets.length === 1, 'the bet on the felt');
  const deal = action(table, 'deal');
  expect(hitAt(host, deal), 'the Deal button is the element under its centre').to.equal(deal);
  await clickIn(host, deal);
  await until(() => table.state === 'settled', 'the round to settle', 30_000).catch((err: Error) => {
    throw new Error(
      `${err.message} (state ${table.state}; events ${JSON.stringify(win.pbEvents.map((e) => [e.type, e.type === 'pb-error' ? e.detail : null]))}; violations ${JSON.stringify(win.pbViolations)})`,
    );
  });
  const settled = win.pbEvents.filter((e) => e.type === 'pb-round-settled');
  expect(settled).to.have.length(1);
  return settled[0]!.detail as Signed<Receipt>;
}

/** The bets a pb-fair-2 receipt paid (its payouts name each bet of the acceptance, in order). */
function betsOf(receipt: { body: { payouts: { sector: number; box: string; amount: number }[] } }): { sector: number; box: string; amount: number }[] {
  return receipt.body.payouts.map(({ sector, box, amount }) => ({ sector, box, amount }));
}

describe('the built widget on strict host pages', function () {
  this.timeout(90_000);
  // The whole iframe must be inside the viewport: sendMouse clicks in viewport coordinates.
  before(() => setViewport({ width: 1000, height: 800 }));
  afterEach(async () => {
    for (const f of frames.splice(0)) f.remove();
    await resetMouse();
  });

  it('a strict CSP page (no unsafe-eval, no unsafe-inline): loads, bets, plays a round, zero violations', async () => {
    const host = await openHost('csp.html');
    const { table, win } = host;
    // The policy really is on: an inline style attribute set from script is refused and reported.
    const probe = win.document.createElement('div');
    probe.setAttribute('style', 'color: red');
    win.document.body.append(probe);
    await until(() => win.pbViolations.length > 0, 'the control violation');
    expect(win.pbViolations.map((v) => v.directive)).to.deep.equal(['style-src-attr']);
    win.pbViolations.length = 0;
    probe.remove();

    // No endpoint attribute: the table talks to the Worker that served the script (/dist/).
    expect(table.endpoint).to.equal(new URL('/dist/', win.location.href).href);
    // Lit's styles are constructed stylesheets (adoptedStyleSheets), which style-src 'self' allows.
    expect(shadow(table).adoptedStyleSheets.length).to.be.greaterThan(0);
    expect(shadow(table).querySelector('style')).to.equal(null);

    const receipt = await playOneRound(host);
    expect(betsOf(receipt)).to.deep.equal([{ sector: 0, box: 'player', amount: 100 }]);
    expect(table.balance).to.equal(receipt.body.balanceAfter);
    expect(win.pbEvents.filter((e) => e.type === 'pb-error')).to.deep.equal([]);
    expect(win.pbViolations).to.deep.equal([]);

    // Every panel, opened after a played round, renders under the policy too (the scoreboard
    // sizes its boards from the shoe: through the CSSOM, not a style attribute).
    const tags: Record<string, string> = { scoreboard: 'pb-scoreboard', history: 'pb-history', fairness: 'pb-fairness', help: 'pb-help' };
    for (const [name, tag] of Object.entries(tags)) {
      const launcher = shadow(table).querySelector<HTMLButtonElement>(`.drawer-bar .launcher[data-panel="${name}"]`)!;
      if (launcher.getAttribute('aria-pressed') !== 'true') launcher.click();
      await until(() => shadow(table).querySelector(`${tag}:not([hidden])`), `<${tag}> open`, 10_000);
      const panel = shadow(table).querySelector(`${tag}:not([hidden])`) as Element & { updateComplete: Promise<unknown> };
      await panel.updateComplete;
      if (tag === 'pb-scoreboard') expect(panel.shadowRoot!.querySelector<SVGElement>('svg[data-columns]')!.style.width).to.match(/^calc\(/);
    }
    expect(win.pbViolations).to.deep.equal([]);
  });

  it('a hostile-CSS page (all: unset !important, resets, button/canvas rules): renders, reads and plays', async () => {
    const host = await openHost('hostile.html');
    const { table, win } = host;
    const root = shadow(table);
    // The page's reset reached the element itself…
    expect(win.getComputedStyle(win.document.body).letterSpacing).to.equal('12px');
    // …but the table keeps its layout: full width of its frame, a 16:10 felt, the canvas filling it.
    const frameWidth = win.document.querySelector('.frame')!.getBoundingClientRect().width;
    const tableBox = root.querySelector('[part~="table"]')!.getBoundingClientRect();
    expect(Math.round(tableBox.width)).to.equal(Math.round(frameWidth));
    const stage = root.querySelector('.stage')!.getBoundingClientRect();
    // 16:10, or shorter where the frame is too short for the felt and its controls (the fit).
    expect(Math.round(stage.height)).to.be.at.most(Math.round((stage.width * 10) / 16));
    const canvas = root.querySelector('canvas')!.getBoundingClientRect();
    expect(Math.round(canvas.width)).to.equal(Math.round(stage.width));
    expect(Math.round(canvas.height)).to.equal(Math.round(stage.height));
    // Buttons are shown, and the text is readable, not the page's inherited typography.
    const deal = action(table, 'deal');
    expect(deal.getBoundingClientRect().width).to.be.greaterThan(20);
    const status = root.querySelector('[part~="status"]')!;
    const style = win.getComputedStyle(status);
    expect(parseFloat(style.fontSize)).to.be.greaterThan(9);
    expect(style.letterSpacing).to.equal('normal');
    expect(style.textTransform).to.equal('none');
    expect(style.whiteSpace).to.not.equal('pre');
    expect(style.color).to.not.equal('rgba(0, 0, 0, 0)');
    expect(style.fontFamily).to.not.match(/Comic Sans/);

    const receipt = await playOneRound(host);
    expect(betsOf(receipt)).to.deep.equal([{ sector: 0, box: 'player', amount: 1000 }]); // hall-2's minimum
    expect(win.pbViolations).to.deep.equal([]);
  });
});
