/**
 * The fairness panel inside <punto-banco-table>: the player's seed and cut start the shoe (or the
 * shown defaults, on a Deal), "End the shoe" reveals it, and the table's pb-fair-2 transcript
 * verifies in the widget round by round with the table's JWKS and the player's key — also after
 * the next shoe has started; a tampered transcript is flagged, and the player's copy compared.
 */
import { expect } from 'chai';
import { FakeWorker, mountTable, playRounds, settle, shadow, startChoice, unmountAll, until } from './helpers.ts';
import type { PuntoBancoTable } from '../../widget/element/punto-banco-table.ts';
import type { PbCutStack, PbFairness, PbScoreboard } from '../../widget/panels/index.ts';
import type { PbVerifyReport, TableCheckResult } from '../../widget/panels/verify-report.ts';
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

/** Clicks "Verify the table's transcript" (or "Compare") on a panel and waits for its report. */
async function verify(panel: PbFairness, button = '.verify-table-button'): Promise<TableCheckResult> {
  await until(() => panel.jwks, 'the JWKS');
  await panel.updateComplete;
  const before = panel.shadowRoot!.querySelector<PbVerifyReport>('pb-verify-report-v2')?.check ?? null;
  inner<HTMLButtonElement>(panel, button).click();
  const view = await waitFor(() => panel.shadowRoot!.querySelector<PbVerifyReport>('pb-verify-report-v2'), 'the report');
  await until(() => view.check && view.check !== before, 'a new check');
  await view.updateComplete;
  return view.check!;
}

const reportOf = (check: TableCheckResult): VerifyReport => {
  if (check.result.version !== 'pb-fair-2') throw new Error(`not a pb-fair-2 result: ${check.result.code}`);
  return check.result.report;
};

/** Wide enough for the pane beside the felt: the first shoe's fairness panel opens by itself. */
const WIDE = 1200;

describe('<punto-banco-table> fairness panel', () => {
  afterEach(unmountAll);

  it('starts the shoe with the seed and cut the player chose ("Cut and start")', async () => {
    const { el, worker } = await mountTable({ width: WIDE });
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
    expect(worker.requests('start').map(startChoice)).to.deep.equal([{ clientSeed: 'my own lucky seed', cut: 77 }]);
    await panel.updateComplete;
    expect(inner(panel, '.during').textContent).to.contain('my own lucky seed').and.to.contain('77');
    expect(el.state).to.equal('ready');
    // The deal uses the started shoe: no second start.
    await playRounds(el, 2);
    expect(worker.requests('start')).to.have.length(1);
    await until(() => panel.rounds === 2, 'two rounds counted');
    // The player's copy holds the start record, with the player's own signed request in it.
    const start = panel.table!.copy().records.find((r) => r.body.type === 'start')!;
    expect((start.body as { request: { body: object } }).request.body).to.include({ clientSeed: 'my own lucky seed', cut: 77 });
  });

  it('a Deal on a shoe nobody cut uses the random seed and cut the panel shows', async () => {
    const { el, worker } = await mountTable({ width: WIDE });
    const panel = await currentPanel(el);
    const shown = { clientSeed: panel.clientSeed, cut: panel.cut };
    expect(shown.clientSeed).to.match(/^[0-9a-f]{32}$/);
    expect(shown.cut).to.be.within(1, 311);
    await playRounds(el, 1);
    expect(worker.requests('start').map(startChoice)).to.deep.equal([shown]);
    // Edited but not started: the Deal takes what the panel shows.
    const { el: other, worker: otherWorker } = await mountTable({ width: WIDE });
    const otherPanel = await currentPanel(other);
    type(inner<HTMLInputElement>(otherPanel, '#seed'), 'typed, never started');
    await playRounds(other, 1);
    expect(startChoice(otherWorker.requests('start')[0]!).clientSeed).to.equal('typed, never started');
  });

  it('refuses to deal on a seed the engine refuses, and says why in the panel', async () => {
    const { el, worker } = await mountTable({ width: WIDE });
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
    const { el, worker } = await mountTable({ width: WIDE });
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
    expect(current(el)!.commitment!.body.shoe).to.equal(2);
    expect(inner(ended, '.after').textContent).to.contain('ended early');
    const check = await verify(ended);
    const report = reportOf(check);
    expect(report.ok).to.equal(true);
    // Shoe 1 is revealed, every card checked; shoe 2 is committed, not revealed yet.
    expect(report.pending).to.equal(true);
    expect(report.rounds.map((r) => r.status)).to.deep.equal(['verified', 'verified', 'verified', 'verified', 'verified']);
    const view = inner<PbVerifyReport>(ended, 'pb-verify-report-v2');
    expect(view.shadowRoot!.querySelectorAll('.chip.verified')).to.have.length(5);
    expect(inner(view, '.headline').textContent).to.contain('1 shoe, 5 rounds');
    expect(inner(view, '.shoe').dataset.verdict).to.equal('pending');
    // The commitments name the player's key: the one the session was created with.
    expect(ended.table!.playerKey).to.equal(worker.playerKey(el.sessionId!));
    // "Compare": the operator's transcript holds every record the player received.
    const compared = await verify(ended, '.compare-button');
    expect(compared.findings).to.deep.equal([]);
    expect(inner(inner<PbVerifyReport>(ended, 'pb-verify-report-v2'), '.copy.ok').textContent).to.contain('every record you received');
  });

  it('flags a tampered table transcript, and the round the operator dropped from its copy', async () => {
    const worker = new FakeWorker();
    const { el } = await mountTable({ worker, width: WIDE });
    await currentPanel(el);
    await playRounds(el, 3);
    const panel = current(el)!;
    // The operator's transcript, as served, with round 2's receipt changed after signing.
    const honest = worker.transcript(el.sessionId!)!;
    const tampered = structuredClone(honest);
    const receipt = tampered.records.find((r) => r.body.type === 'receipt' && (r.body as { round: number }).round === 2)!;
    (receipt.body as { balanceAfter: number }).balanceAfter += 1_000;
    const serve = (file: unknown) => {
      const real = worker.fetch;
      el.fetcher = (input, init) =>
        String(input).endsWith('/transcript') ? Promise.resolve(new Response(JSON.stringify(file), { status: 200 })) : real(input, init);
    };
    serve(tampered);
    const check = await verify(panel);
    expect(check.result.code).to.equal('hash_mismatch');
    expect(reportOf(check).failure!.round).to.equal(2);
    const view = inner<PbVerifyReport>(panel, 'pb-verify-report-v2');
    expect(inner(view, '.shoe').dataset.verdict).to.equal('fail');
    expect(inner(view, '.headline').textContent).to.contain('round 2');
    // An operator copy without the last round (acceptance and receipt): the player's copy shows it.
    const dropped = { ...honest, records: honest.records.slice(0, -2) };
    serve(dropped);
    const compared = await verify(panel, '.compare-button');
    expect(compared.findings!.map((f) => [f.code, f.round, f.type])).to.deep.equal([
      ['missing_in_operator_copy', 3, 'acceptance'],
      ['missing_in_operator_copy', 3, 'receipt'],
    ]);
    await inner<PbVerifyReport>(panel, 'pb-verify-report-v2').updateComplete;
    expect(inner(inner<PbVerifyReport>(panel, 'pb-verify-report-v2'), '.findings').textContent).to.contain('Shoe 1, round 3');
  });

  it('keeps a shoe revealed by the cut card verifiable after the next shoe starts; the scoreboard starts over', async () => {
    const worker = new FakeWorker();
    Object.assign(worker.params, { decks: 1, cutCardFromEnd: 16 }); // 52 cards: the cut card comes out within a few rounds
    const { el } = await mountTable({ worker, width: WIDE });
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
    await shoe1.updateComplete;
    expect(inner(shoe1, '.after').textContent).to.contain('cut card');
    const report = reportOf(await verify(shoe1));
    expect(report.ok).to.equal(true);
    // The whole table: every round of shoe 1 and the first of shoe 2 (shoe 2 is not revealed: pending).
    expect(report.rounds.filter((r) => r.shoe === 1).every((r) => r.status === 'verified')).to.equal(true);
    expect(report.rounds.filter((r) => r.shoe === 1)).to.have.length(rounds);
    expect(report.rounds.filter((r) => r.shoe === 2).map((r) => r.status)).to.deep.equal(['pending']);
  });
});
