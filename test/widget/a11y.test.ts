/**
 * An automated accessibility audit (axe-core, WCAG 2.x A and AA rules) of the table in real
 * Chromium, through its shadow roots: ready with bets on the felt, after a round, every panel
 * open, and the error notice. Automated rules catch only part of what matters (names, roles,
 * contrast, ARIA use); the keyboard and live-region tests elsewhere cover the rest.
 */
import { expect } from 'chai';
import axe from 'axe-core';
import type { PuntoBancoTable } from '../../widget/element/punto-banco-table.ts';
import { mountTable, shadow, unmountAll, until } from './helpers.ts';
import type { PbVerifyPage } from '../../widget/panels/index.ts';
import { playShoe, tamperedCopy } from './panels-fixture.ts';
import { $, mount, type, unmountAll as unmountPanels } from './panels-helpers.ts';
import { FakeSharedTable } from './fake-shared-table.ts';
import { FakeWorker } from './fake-worker.ts';

/** The violations axe finds in `el` (and its shadow trees), as "rule: target" lines for a readable failure. */
async function audit(el: Element): Promise<string[]> {
  const result = await axe.run(el, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    resultTypes: ['violations'],
  });
  return result.violations.flatMap((v) =>
    v.nodes.map((n) => `${v.id} (${v.impact}): ${JSON.stringify(n.target)} — ${n.failureSummary?.split('\n')[1]?.trim() ?? v.help}`),
  );
}

async function openPanel(el: PuntoBancoTable, name: string, tag: string): Promise<void> {
  const launcher = shadow(el).querySelector<HTMLButtonElement>(`.drawer-bar .launcher[data-panel="${name}"]`)!;
  if (launcher.getAttribute('aria-pressed') !== 'true') launcher.click();
  await until(() => shadow(el).querySelector(`${tag}:not([hidden])`), `<${tag}> open`, 10_000);
  await (shadow(el).querySelector(`${tag}:not([hidden])`) as Element & { updateComplete: Promise<unknown> }).updateComplete;
}

describe('accessibility audit (axe-core)', function () {
  this.timeout(60_000);
  afterEach(() => {
    unmountAll();
    unmountPanels();
  });

  it('a shared table, betting and after a round dealt for all: no WCAG A/AA violations', async () => {
    const worker = new FakeWorker();
    const table = new FakeSharedTable(worker);
    const { el } = await mountTable({ width: 900, worker, attrs: { table: 'hall-1/a' }, setup: (e) => (e.socketFactory = table.socketFactory) });
    await until(() => shadow(el).querySelector('.shared-clock.open'), 'the window');
    table.otherBet('someone-else', [{ sector: 1, box: 'banker', amount: 2000 }]);
    el.placeBet(0, 'player');
    await until(() => shadow(el).querySelector('.box-total'), 'a box total');
    expect(await audit(el)).to.deep.equal([]);
    await el.deal();
    await until(() => table.bets.size === 2, 'the bet in');
    table.closeWindow();
    table.deal(['9S', '2H', 'KD', '5C']);
    await until(() => el.state === 'settled' && shadow(el).querySelector('pb-scoreboard'), 'the round');
    await (shadow(el).querySelector('pb-scoreboard') as Element & { updateComplete: Promise<unknown> }).updateComplete;
    expect(await audit(el)).to.deep.equal([]);
  });

  it('the table with bets, after a round, and with each panel open: no WCAG A/AA violations', async () => {
    const { el } = await mountTable({ width: 900 });
    el.placeBet(0, 'player');
    el.placeBet(2, 'tie');
    await el.updateComplete;
    expect(await audit(el)).to.deep.equal([]);
    await el.deal();
    await until(() => el.state === 'settled', 'the round');
    await el.updateComplete;
    expect(await audit(el)).to.deep.equal([]);
    for (const [name, tag] of [
      ['scoreboard', 'pb-scoreboard'],
      ['history', 'pb-history'],
      ['fairness', 'pb-fairness'],
      ['help', 'pb-help'],
    ] as const) {
      await openPanel(el, name, tag);
      expect(await audit(el), `with the ${name} panel open`).to.deep.equal([]);
    }
  });

  it('the squeeze: the face-down cards and the Reveal button over the felt: no WCAG A/AA violations', async () => {
    const m = await mountTable({ width: 900, attrs: { squeeze: '' } });
    // The scene says two Player cards wait (the fake scene draws nothing; the element renders their controls).
    const rect = { x: 300, y: 60, w: 50, h: 70 };
    m.scene!.options.onSqueeze!([
      { card: 0, hand: 'player', slot: 0, rect },
      { card: 2, hand: 'player', slot: 1, rect: { ...rect, x: 360 } },
    ]);
    await m.el.updateComplete;
    expect(shadow(m.el).querySelectorAll('.squeeze-card, .squeeze-reveal')).to.have.length(3);
    expect(await audit(m.el)).to.deep.equal([]);
  });

  it('the phone layout and the error notice: no WCAG A/AA violations', async () => {
    const { el, worker } = await mountTable({ width: 380 });
    worker.faults.push({ route: 'rounds', times: 1, kind: 'network' });
    el.placeBet(0, 'banker');
    await el.deal();
    await until(() => el.state === 'error', 'the error notice');
    await el.updateComplete;
    expect(await audit(el)).to.deep.equal([]);
  });

  it('the plain felt (no WebGL) with bets and after a round: no WCAG A/AA violations', async () => {
    const { el } = await mountTable({ scene: 'none', width: 900 });
    await until(() => el.hasAttribute('data-plain'), 'the plain felt');
    el.placeBet(0, 'player');
    el.placeBet(1, 'tie');
    await el.updateComplete;
    expect(await audit(el)).to.deep.equal([]);
    el.removeBet(1, 'tie');
    await el.deal();
    await until(() => el.state === 'settled', 'the round');
    await el.updateComplete;
    expect(await audit(el)).to.deep.equal([]);
  });

  it('the verify page with a tampered transcript: no WCAG A/AA violations', async () => {
    const { transcript, jwks } = await playShoe({ rounds: 12 });
    const page = await mount<PbVerifyPage>('pb-verify-page', { autoFetchJwks: false });
    type($<HTMLTextAreaElement>(page, '#transcript'), JSON.stringify({ transcripts: [tamperedCopy(transcript, 5)] }));
    type($<HTMLTextAreaElement>(page, '#jwks'), JSON.stringify(jwks));
    await page.updateComplete;
    $<HTMLButtonElement>(page, 'button.verify').click();
    await until(() => page.shadowRoot!.querySelector('.summary'), 'a verification result');
    await page.updateComplete;
    expect(await audit(page)).to.deep.equal([]);
  });
});
