import { expect } from 'chai';
import { exactOdds } from '../../shared/odds.ts';
import { bankerDraws } from '../../shared/round.ts';
import { PAYOUTS } from '../../shared/settle.ts';
import { ROOMS } from '../../shared/table.ts';
import { describeTotals as totalsText, type PbHelp } from '../../widget/panels/index.ts';
import { $, $$, mount, unmountAll } from './panels-helpers.ts';

describe('<pb-help>', () => {
  afterEach(unmountAll);

  it("renders the Banker's third-card table from the engine's bankerDraws, cell by cell", async () => {
    const help = await mount<PbHelp>('pb-help');
    const cells = $$(help, '.banker-table td');
    expect(cells).to.have.length(8 * 10);
    for (const cell of cells) {
      const draws = bankerDraws(Number(cell.dataset.total), Number(cell.dataset.third));
      expect(cell.classList.contains('draw'), `${cell.dataset.total}/${cell.dataset.third}`).to.equal(draws);
      expect(cell.textContent).to.contain(draws ? 'draws' : 'stands');
    }
    const rules = $(help, 'section').textContent.replace(/\u2060/g, '');
    expect(rules).to.contain('8 or 9 on either hand is a natural');
    expect(rules).to.contain('The Player draws a third card on 0–5 and stands on 6 or 7');
  });

  it('shows the payouts of settle.ts and the room limits', async () => {
    const help = await mount<PbHelp>('pb-help', { limits: ROOMS.vip.limits, roomName: 'VIP', formatAmount: (m: number) => `${m / 1000} u` });
    for (const item of $$(help, '.payouts li')) {
      const [num, den] = PAYOUTS[item.dataset.box as keyof typeof PAYOUTS];
      expect(item.textContent).to.contain(`pays ${num} to ${den}`);
    }
    expect($(help, '.limits').textContent).to.contain('25 u – 1000 u');
  });

  it('computes the exact odds and house edge of each bet for the table deck count', async () => {
    const help = await mount<PbHelp>('pb-help', { decks: 8 });
    await help.oddsReady();
    const expected = exactOdds(8);
    if (!expected.ok) throw new Error(expected.error.message);
    const rows = $$(help, '.odds-table tbody tr');
    expect(rows.map((r) => r.dataset.box)).to.deep.equal(['player', 'banker', 'tie']);
    for (const row of rows) {
      const box = row.dataset.box as 'player' | 'banker' | 'tie';
      expect(Number(row.dataset.edge)).to.equal(expected.value.houseEdge[box]);
      expect(Number(row.dataset.probability)).to.equal(expected.value.probability[box]);
    }
    expect(expected.value.houseEdge.banker).to.be.closeTo(0.010579, 1e-6);
    expect($(help, '.odds-table caption').textContent).to.contain('8-deck');
    help.decks = 1;
    await help.oddsReady();
    expect($(help, '.odds-table caption').textContent).to.contain('1-deck');
  });

  it('says sets of totals as people do', () => {
    const describeTotals = (values: number[]) => totalsText(values).replace(/\u2060/g, '');
    expect(describeTotals([0, 1, 2, 3, 4, 5])).to.equal('0–5');
    expect(describeTotals([6, 7])).to.equal('6 or 7');
    expect(describeTotals([0, 1, 2, 3, 4, 5, 6, 7, 9])).to.equal('0–7 or 9');
    expect(describeTotals([8])).to.equal('8');
  });
});
