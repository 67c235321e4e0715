/**
 * The panels inside <punto-banco-table>: the drawer (launchers, pane, phone sheet), the scoreboard
 * and history fed from the receipts of the shoe in play, the help panel fed from the table, and
 * the panel texts in every language.
 */
import { expect } from 'chai';
import { roundForDisplay } from '../../shared/money.ts';
import { sendKeys } from '@web/test-runner-commands';
import { action, FakeWorker, mountTable, playRounds, settle, shadow, unmountAll, until } from './helpers.ts';
import type { PuntoBancoTable } from '../../widget/element/punto-banco-table.ts';
import type { PbHelp, PbHistory, PbScoreboard } from '../../widget/panels/index.ts';
import { cardFace } from '../../widget/panels/card-face.ts';
import { PANEL_STRINGS } from '../../widget/panels/strings.ts';
import { panelsEl } from '../../widget/i18n/panels-el.ts';
import { panelsIt } from '../../widget/i18n/panels-it.ts';
import { panelsRu } from '../../widget/i18n/panels-ru.ts';
import { computeRoads } from '../../shared/roads.ts';
import type { Receipt, Signed } from '../../shared/fairness/index.ts';

function launcher(el: PuntoBancoTable, name: string): HTMLButtonElement {
  const b = shadow(el).querySelector<HTMLButtonElement>(`.drawer-bar .launcher[data-panel="${name}"]`);
  if (!b) throw new Error(`no ${name} launcher`);
  return b;
}

function pane(el: PuntoBancoTable): HTMLDialogElement {
  return shadow(el).querySelector<HTMLDialogElement>('dialog.pane')!;
}

async function panel<T extends Element>(el: PuntoBancoTable, tag: string): Promise<T> {
  await until(() => shadow(el).querySelector(`${tag}:not([hidden])`), `<${tag}> in the pane`, 10_000);
  const found = shadow(el).querySelector(`${tag}:not([hidden])`) as T & { updateComplete?: Promise<unknown> };
  await found.updateComplete;
  return found;
}

describe('<punto-banco-table> panels', () => {
  afterEach(unmountAll);

  it('offers four launchers under the controls; each opens its panel in the pane, again closes it', async () => {
    const { el } = await mountTable({ width: 1200 });
    const names = [...shadow(el).querySelectorAll('.drawer-bar .launcher')].map((b) => b.textContent.trim());
    expect(names).to.deep.equal(['Scoreboard', 'History', 'Fairness', 'Help']);
    // The launchers come after the table controls in focus order.
    const buttons = [...shadow(el).querySelectorAll('button')];
    expect(buttons.indexOf(launcher(el, 'scoreboard'))).to.be.greaterThan(buttons.indexOf(action(el, 'deal')));
    // The first shoe waits for its cut: on a wide table the fairness panel is already open (no focus taken).
    await panel(el, 'pb-fairness');
    expect(launcher(el, 'fairness').getAttribute('aria-pressed')).to.equal('true');
    expect(pane(el).open).to.equal(true);
    expect(pane(el).matches(':modal')).to.equal(false);
    expect(document.activeElement).to.not.equal(el);
    launcher(el, 'help').click();
    const help = await panel<PbHelp>(el, 'pb-help');
    expect(launcher(el, 'help').getAttribute('aria-pressed')).to.equal('true');
    expect(launcher(el, 'fairness').getAttribute('aria-pressed')).to.equal('false');
    expect(shadow(el).querySelector('.fairness-tab')!.hasAttribute('hidden')).to.equal(true);
    expect(help.decks).to.equal(6);
    expect(help.roomName).to.equal('Hall 1');
    expect(help.limits).to.deep.equal(el.limits);
    expect(help.formatAmount(1500)).to.equal('€1.50');
    launcher(el, 'help').click();
    await settle(el);
    expect(pane(el).open).to.equal(false);
    expect(el.hasAttribute('data-pane')).to.equal(false);
  });

  it('updates the scoreboard and the history after every round from the receipts of the shoe', async () => {
    const { el } = await mountTable();
    launcher(el, 'scoreboard').click();
    const board = await panel<PbScoreboard>(el, 'pb-scoreboard');
    expect(board.results).to.deep.equal([]);
    const receipts: Signed<Receipt>[] = [];
    for (let round = 1; round <= 4; round++) {
      receipts.push(...(await playRounds(el, 1)));
      await settle(el);
      // The very results of the receipts, in shoe order, after each round.
      expect(board.results.map((r) => r.outcome)).to.deep.equal(receipts.map((r) => r.body.outcome));
    }
    await board.updateComplete;
    // Drawn: one bead per round, its letter the receipt's outcome.
    const letters = [...board.shadowRoot!.querySelectorAll('.road.bead .letter')].map((t) => t.textContent);
    expect(letters).to.deep.equal(receipts.map((r) => ({ banker: 'B', player: 'P', tie: 'T' })[r.body.outcome]));
    expect(computeRoads(board.results).stats.rounds).to.equal(4);
    expect(shadow(el).querySelector('.pane .context')!.textContent).to.contain('Shoe 1').and.to.contain('4');
    launcher(el, 'history').click();
    const history = await panel<PbHistory>(el, 'pb-history');
    expect(history.rounds.map((r) => r.record.hash)).to.deep.equal(receipts.map((r) => r.hash));
  });

  it("shows in the history each receipt's cards and balance, in the table's currency", async () => {
    const worker = new FakeWorker();
    worker.script = [
      ['4S', '7H', 'AD', 'KC', '9H'],
      ['QS', '9D', '3C', 'KH'],
      ['2S', '2H', '3D', '3C', '5S', '6H'],
    ];
    const { el } = await mountTable({ worker, attrs: { currency: 'USD' } });
    const receipts = await playRounds(el, 3);
    launcher(el, 'history').click();
    const history = await panel<PbHistory>(el, 'pb-history');
    await until(() => history.shadowRoot!.querySelectorAll('li.round').length === 3, 'three rows');
    const rows = [...history.shadowRoot!.querySelectorAll('li.round')];
    rows.forEach((row, i) => {
      const body = receipts[receipts.length - 1 - i]!.body;
      const shown = [...row.querySelectorAll('summary .card')].map((c) => c.getAttribute('aria-label'));
      const inHand = (hand: string) => body.cards.filter((c) => c.hand === hand).map((c) => cardFace(c.code).name);
      expect(shown).to.deep.equal([...inHand('player'), ...inHand('banker')]);
      const balance = row.querySelector('.balance')!.textContent;
      // In the dollar's own unit (cents): the row rounds, the receipt's details keep every digit.
      const cents = (minor: number) => `$${(roundForDisplay(minor, 2) / 1000).toLocaleString('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
      expect(balance).to.contain(cents(body.balanceBefore));
      expect(balance).to.contain(cents(body.balanceAfter));
      expect(balance).to.not.match(/\.\d{3}/);
    });
    // The last balance is the table's.
    expect(receipts.at(-1)!.body.balanceAfter).to.equal(el.balance);
  });

  it('on a wide table the pane stands beside the felt, as tall as the table, and its panel is readable', async () => {
    const { el } = await mountTable({ width: 1400 });
    const fairness = await panel(el, 'pb-fairness');
    await settle(el);
    expect(pane(el).matches(':modal')).to.equal(false);
    const table = shadow(el).querySelector('[part~="table"]')!.getBoundingClientRect();
    const stage = shadow(el).querySelector('.stage')!.getBoundingClientRect();
    const side = pane(el).getBoundingClientRect();
    // A column to the right of the felt, top to bottom of the table (not a collapsed strip).
    expect(side.left).to.be.at.least(stage.right - 1);
    expect(Math.round(side.top)).to.equal(Math.round(table.top));
    expect(Math.round(side.bottom)).to.equal(Math.round(table.bottom));
    const body = shadow(el).querySelector('.pane-body')!.getBoundingClientRect();
    expect(body.height).to.be.greaterThan(side.height / 2);
    expect(fairness.getBoundingClientRect().height).to.be.greaterThan(200);
  });

  it('on a phone the pane is a modal bottom sheet, opened by the player only', async () => {
    const { el } = await mountTable({ width: 390 });
    await settle(el);
    // No sheet over the page uninvited: a line invites the player to cut instead.
    expect(pane(el).open).to.equal(false);
    const invite = shadow(el).querySelector<HTMLElement>('.invite');
    expect(invite?.textContent).to.contain('Shoe 1').and.to.contain('Cut it yourself');
    invite!.querySelector('button')!.click();
    await panel(el, 'pb-fairness');
    expect(pane(el).matches(':modal')).to.equal(true);
    // The sheet has its own tabs: switch to the scoreboard without closing.
    shadow(el).querySelector<HTMLButtonElement>('.sheet-tabs .launcher[data-panel="scoreboard"]')!.click();
    await panel(el, 'pb-scoreboard');
    expect(pane(el).matches(':modal')).to.equal(true);
    // Escape closes it, as any dialog.
    await sendKeys({ press: 'Escape' });
    await until(() => !pane(el).open, 'the sheet to close');
    await settle(el);
    expect(launcher(el, 'scoreboard').getAttribute('aria-pressed')).to.equal('false');
  });

  // A phone's felt 390 px wide and short (the viewport is 600 px high) has no room beside the offer,
  // which fills its top band and the hands' place: there the message stands over the offer's top,
  // never on its choices.
  for (const [width, part] of [
    [900, '.invite'],
    [390, '.invite-actions'],
  ] as const)
    it(`a refused bet's message never covers the offer of the cut (${width} px: ${part})`, async () => {
      const { el } = await mountTable({ width });
      await settle(el);
      const root = shadow(el);
      const invite = root.querySelector<HTMLElement>(part)!;
      el.selectChip(10_000);
      el.placeBet(0, 'player');
      el.selectChip(100);
      expect(el.placeBet(0, 'player')).to.equal(false); // over the maximum: refused
      await settle(el);
      const toast = root.querySelector<HTMLElement>('.toast')!;
      expect(toast.textContent).to.contain('over the table maximum');
      const a = invite.getBoundingClientRect();
      const b = toast.getBoundingClientRect();
      const overlap = a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      expect(
        overlap,
        `toast [${[b.left, b.top, b.right, b.bottom].map(Math.round)}] on the offer [${[a.left, a.top, a.right, a.bottom].map(Math.round)}]`,
      ).to.equal(false);
      // Still on the felt.
      const felt = root.querySelector('.stage')!.getBoundingClientRect();
      expect(b.bottom).to.be.at.most(felt.bottom);
      expect(b.top).to.be.at.least(felt.top);
    });

  it('offers the cut on the felt, over the hands, and "cut for me" starts the shoe; the felt stands still when the offer goes', async () => {
    const worker = new FakeWorker();
    const { el } = await mountTable({ worker, width: 900, attrs: { 'reduced-motion': '' } });
    await settle(el);
    const root = shadow(el);
    const invite = root.querySelector<HTMLElement>('.invite')!;
    // On the felt (inside the stage), not in the strip under it.
    expect(root.querySelector('.stage')!.contains(invite)).to.equal(true);
    expect(root.querySelector('.drawer-bar .invite')).to.equal(null);
    // Measured from the element's own top left: the felt must not move inside the table. (Once in a
    // full CI run the whole page scrolled by 5 px as the offer went, which moves the table with its felt.)
    const rect = (e: Element): string => {
      const r = e.getBoundingClientRect();
      const host = el.getBoundingClientRect();
      return [r.x - host.x, r.y - host.y, r.width, r.height].map((v) => Math.round(v)).join(' ');
    };
    const felt = rect(root.querySelector('.stage')!);
    const box = rect(root.querySelector('.box[data-sector="2"][data-box="banker"]')!);
    const random = invite.querySelector<HTMLButtonElement>('.invite-random')!;
    expect(random.textContent.trim()).to.equal('Cut for me');
    random.click();
    await until(() => worker.requests('start').length === 1, 'the shoe started');
    await until(() => root.querySelector('.invite') === null, 'the offer gone');
    await settle(el);
    await new Promise((r) => requestAnimationFrame(() => r(null)));
    expect(rect(root.querySelector('.stage')!), `the felt (page scrolled to ${window.scrollY})`).to.equal(felt);
    expect(rect(root.querySelector('.box[data-sector="2"][data-box="banker"]')!), 'a box').to.equal(box);
  });

  it('opens the fairness pane by itself only on a table with room for it beside the felt (its own width, not the window)', async () => {
    // The window is 800 px wide throughout: only the element's width decides.
    const invited = async (width: number, style = ''): Promise<{ el: PuntoBancoTable; open: boolean; line: boolean }> => {
      const { el } = await mountTable({ width, setup: (e) => (e.style.cssText = style) });
      await settle(el);
      return { el, open: pane(el).open, line: shadow(el).querySelector('.invite') !== null };
    };
    for (const [width, style, beside] of [
      [1100, '', true],
      [1400, '', true],
      [1099, '', false],
      [900, '', false],
      [760, '', false],
      // A padded host: the content box (1070 px) is what the pane's layout sees.
      [1150, 'display: block; padding: 0 40px', false],
    ] as const) {
      const { el, open, line } = await invited(width, style);
      expect({ width, style, open, line }, 'pane open by itself, or the line inviting').to.deep.equal({ width, style, open: beside, line: !beside });
      if (beside) {
        // Beside the felt, never under it.
        const stage = shadow(el).querySelector('.stage')!.getBoundingClientRect();
        expect(pane(el).getBoundingClientRect().left).to.be.at.least(stage.right - 1);
      } else {
        expect(launcher(el, 'fairness').getAttribute('aria-pressed')).to.equal('false');
        expect(el.hasAttribute('data-pane')).to.equal(false);
      }
      unmountAll();
    }
    // A table that narrows takes its invitation back (the line asks instead) without counting it as declined.
    const { el } = await invited(1200);
    expect(pane(el).open).to.equal(true);
    el.parentElement!.style.width = '900px';
    await until(() => !pane(el).open && shadow(el).querySelector('.invite'), 'the pane closed and the line inviting');
    launcher(el, 'fairness').click();
    await panel(el, 'pb-fairness');
    expect(pane(el).open).to.equal(true);
  });

  it("speaks the element's language in the drawer and in every panel", async () => {
    const { el } = await mountTable({ width: 1200, attrs: { lang: 'ru' } });
    await until(() => launcher(el, 'scoreboard').textContent.trim() === 'Табло', 'Russian launchers');
    const fairness = await panel(el, 'pb-fairness');
    await until(() => fairness.shadowRoot!.textContent.includes('Снять и начать'), 'the Russian fairness panel');
    el.lang = 'it';
    await until(() => fairness.shadowRoot!.textContent.includes('Taglia e inizia'), 'the Italian fairness panel');
    launcher(el, 'help').click();
    const help = await panel<PbHelp>(el, 'pb-help');
    await help.oddsReady();
    expect(help.shadowRoot!.textContent).to.contain('Probabilità esatte').and.to.contain('Sala 1');
    el.lang = 'el';
    await until(() => help.shadowRoot!.textContent.includes('Ακριβείς πιθανότητες'), 'the Greek help panel');
  });

  it('has every panel text in ru, it and el, with the same {{placeholders}}', () => {
    const placeholders = (text: string) =>
      [...text.matchAll(/\{\{(\w+)\}\}/g)]
        .map((m) => m[1])
        .sort()
        .join(',');
    for (const [name, catalog] of Object.entries({ ru: panelsRu, it: panelsIt, el: panelsEl })) {
      expect(Object.keys(catalog).sort(), name).to.deep.equal(Object.keys(PANEL_STRINGS).sort());
      for (const [key, text] of Object.entries(PANEL_STRINGS)) {
        expect(placeholders((catalog as Record<string, string>)[key]!), `${name}.${key}`).to.equal(placeholders(text));
      }
    }
  });
});
