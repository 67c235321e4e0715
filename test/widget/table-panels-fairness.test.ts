/**
 * The fairness panel inside <punto-banco-table>: the player's seed and cut start the shoe (or the
 * shown defaults, on a Deal), "End the shoe" reveals it, and a revealed shoe verifies in the
 * widget round by round with the table's JWKS — also after the next shoe has started.
 */
import { expect } from 'chai';
import { FakeWorker, mountTable, playRounds, settle, shadow, unmountAll, until } from './helpers.ts';
import type { PuntoBancoTable } from '../../widget/element/punto-banco-table.ts';
import type { PbCutStack, PbFairness, PbScoreboard, PbVerifyReport } from '../../widget/panels/index.ts';
import type { VerifyReport } from '../../shared/fairness/index.ts';

function current(el: PuntoBancoTable): PbFairness | null {
  return shadow(el).querySelector<PbFairness>('pb-fairness[data-current]');
}

async function currentPanel(el: PuntoBancoTable): Promise<PbFairness> {
  await until(() => current(el), 'the fairness panel', 10_000);
  await current(el)!.updateComplete;
  return current(el)!;
}

/** Waits until `find` returns an element, and returns it. */
async function waitFor<T>(find: () => T | null | undefined, what: string): Promise<T> {
  await until(() => find(), what, 10_000);
  return find()!;
}

function inner<E extends Element = HTMLElement>(el: Element, selector: string): E {
  const found = el.shadowRoot!.querySelector<E>(selector);
  if (!found) throw new Error(`no ${selector} in <${el.localName}>`);
  return found;
}

function type(input: HTMLInputElement, value: string): void {
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
}

/** Clicks "Verify this shoe" on a panel and waits for its report. */
async function verify(panel: PbFairness): Promise<VerifyReport> {
  await until(() => panel.jwks, 'the JWKS');
  await panel.updateComplete;
  const done = new Promise<VerifyReport>((resolve) => panel.addEventListener('pb-verified', (e) => resolve((e as CustomEvent).detail.report), { once: true }));
  inner<HTMLButtonElement>(panel, '.verify-button').click();
  return done;
}

describe('<punto-banco-table> fairness panel', () => {
  afterEach(unmountAll);

  it('starts the shoe with the seed and cut the player chose ("Cut and start")', async () => {
    const { el, worker } = await mountTable();
    const panel = await currentPanel(el);
    expect(panel.status).to.equal('awaiting-start');
    // The signed commitment is there before anything else, and checks against the table's JWKS.
    expect(inner(panel, '.commitment').textContent).to.contain(panel.commitment!.body.serverSeedHash);
    await until(() => panel.shadowRoot!.querySelector('.signature.ok'), 'the commitment signature check');
    expect(worker.log.some((r) => r.path === '/.well-known/jwks.json')).to.equal(true);
    type(inner<HTMLInputElement>(panel, '#seed'), 'my own lucky seed');
    const stack = inner<PbCutStack>(panel, 'pb-cut-stack');
    type(inner<HTMLInputElement>(stack, 'input[type=range]'), '77');
    await panel.updateComplete;
    inner<HTMLButtonElement>(panel, '.start-button').click();
    await until(() => panel.status === 'in-play', 'the shoe in play');
    expect(worker.requests('start').map((r) => r.body)).to.deep.equal([{ clientSeed: 'my own lucky seed', cut: 77 }]);
    await panel.updateComplete;
    expect(inner(panel, '.during').textContent).to.contain('my own lucky seed').and.to.contain('77');
    expect(el.state).to.equal('ready');
    // The deal uses the started shoe: no second start.
    await playRounds(el, 2);
    expect(worker.requests('start')).to.have.length(1);
    await until(() => panel.rounds === 2, 'two rounds counted');
    expect(panel.transcript!.start!.body).to.include({ clientSeed: 'my own lucky seed', cut: 77 });
  });

  it('a Deal on a shoe nobody cut uses the random seed and cut the panel shows', async () => {
    const { el, worker } = await mountTable();
    const panel = await currentPanel(el);
    const shown = { clientSeed: panel.clientSeed, cut: panel.cut };
    expect(shown.clientSeed).to.match(/^[0-9a-f]{32}$/);
    expect(shown.cut).to.be.within(1, 311);
    await playRounds(el, 1);
    expect(worker.requests('start').map((r) => r.body)).to.deep.equal([shown]);
    // Edited but not started: the Deal takes what the panel shows.
    const { el: other, worker: otherWorker } = await mountTable();
    const otherPanel = await currentPanel(other);
    type(inner<HTMLInputElement>(otherPanel, '#seed'), 'typed, never started');
    await playRounds(other, 1);
    expect((otherWorker.requests('start')[0]!.body as { clientSeed: string }).clientSeed).to.equal('typed, never started');
  });

  it('refuses to deal on a seed the engine refuses, and says why in the panel', async () => {
    const { el, worker } = await mountTable();
    const panel = await currentPanel(el);
    type(inner<HTMLInputElement>(panel, '#seed'), '');
    el.placeBet(0, 'player');
    await el.deal();
    await settle(el);
    expect(worker.requests('start')).to.have.length(0);
    expect(worker.requests('rounds')).to.have.length(0);
    expect(el.state).to.equal('ready');
    expect(el.bets).to.have.length(1);
    await panel.updateComplete;
    expect(inner(panel, '#seed-error').textContent).to.contain('1 to 128 characters');
  });

  it('ends the shoe on request; the revealed shoe verifies in the widget, every round verified', async () => {
    const { el, worker } = await mountTable();
    await currentPanel(el);
    await playRounds(el, 5);
    const panel = current(el)!;
    await until(() => panel.status === 'in-play' && panel.allowEndShoe, 'the end button');
    await panel.updateComplete;
    inner<HTMLButtonElement>(panel, '.end-button').click();
    await until(() => worker.requests('end').length === 1 && el.state === 'settled', 'the shoe to end');
    // The ended shoe is shown, revealed; the next one is committed and waits for its cut.
    const ended = await waitFor(() => shadow(el).querySelector<PbFairness>('pb-fairness[data-shoe="1"]:not([hidden])'), 'shoe 1 shown');
    await ended.updateComplete;
    expect(ended.status).to.equal('ended');
    expect(ended.transcript!.reveal!.body.reason).to.equal('ended-early');
    expect(ended.transcript!.receipts).to.have.length(5);
    expect(current(el)!.commitment!.body.shoe).to.equal(2);
    const report = await verify(ended);
    expect(report.ok).to.equal(true);
    expect(report.pending).to.equal(false);
    expect(report.rounds.map((r) => r.status)).to.deep.equal(['verified', 'verified', 'verified', 'verified', 'verified']);
    await ended.updateComplete;
    const view = inner<PbVerifyReport>(ended, 'pb-verify-report');
    await view.updateComplete;
    expect(view.shadowRoot!.querySelectorAll('.chip.verified')).to.have.length(5);
    expect(inner(view, '.headline').textContent).to.contain('all 5 rounds verified');
    // The records the widget verified are the server's records, byte for byte.
    expect(JSON.stringify(ended.transcript)).to.equal(JSON.stringify(worker.transcript(el.sessionId!, 1)));
  });

  it('keeps a shoe revealed by the cut card verifiable after the next shoe starts; the scoreboard starts over', async () => {
    const worker = new FakeWorker();
    worker.params = { ...worker.params, decks: 1, cutCardFromEnd: 16 }; // 52 cards: the cut card comes out within a few rounds
    const { el } = await mountTable({ worker });
    await currentPanel(el);
    let rounds = 0;
    while (worker.requests('start').length < 2 || rounds === 0) {
      await playRounds(el, 1);
      rounds++;
      if (current(el)!.commitment!.body.shoe === 2 && current(el)!.status === 'awaiting-start') {
        // Shoe 1 just ended with the cut card; the scoreboard still shows it until shoe 2 starts.
        const shoe1Rounds = rounds;
        shadow(el).querySelector<HTMLButtonElement>('.drawer-bar .launcher[data-panel="scoreboard"]')!.click();
        const board = await waitFor(() => shadow(el).querySelector<PbScoreboard>('pb-scoreboard'), 'the scoreboard');
        expect(board.results).to.have.length(shoe1Rounds);
        await playRounds(el, 1); // starts shoe 2 with the default cut and deals its first round
        await until(() => board.results.length === 1, 'the scoreboard of shoe 2');
        break;
      }
      expect(rounds).to.be.lessThan(20);
    }
    expect(worker.requests('start')).to.have.length(2);
    shadow(el).querySelector<HTMLButtonElement>('.drawer-bar .launcher[data-panel="fairness"]')!.click();
    await settle(el);
    const chips = [...shadow(el).querySelectorAll<HTMLButtonElement>('.shoe-picker .shoe-chip')];
    expect(chips.map((c) => c.dataset.shoe)).to.deep.equal(['2', '1']);
    chips[1]!.click();
    const shoe1 = await waitFor(() => shadow(el).querySelector<PbFairness>('pb-fairness[data-shoe="1"]:not([hidden])'), 'shoe 1');
    expect(shoe1.transcript!.reveal!.body.reason).to.equal('cut-card');
    const report = await verify(shoe1);
    expect(report.ok).to.equal(true);
    expect(report.rounds.every((r) => r.status === 'verified')).to.equal(true);
    expect(report.rounds).to.have.length(shoe1.transcript!.receipts.length);
  });
});
