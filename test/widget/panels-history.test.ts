import { expect } from 'chai';
import { cardFace, type PbHistory } from '../../widget/panels/index.ts';
import { playShoe, roundsOf } from './panels-fixture.ts';
import { $, $$, mount, unmountAll } from './panels-helpers.ts';

describe('<pb-history>', () => {
  afterEach(unmountAll);

  it('lists the rounds of a played shoe newest first, with cards, totals, outcome and balances', async () => {
    const { transcript } = await playShoe({ rounds: 12, reveal: false });
    const formatAmount = (minor: number) => `¤${minor}`;
    const history = await mount<PbHistory>('pb-history', { rounds: roundsOf(transcript), formatAmount });
    const rows = $$(history, 'li.round');
    expect(rows).to.have.length(12);
    rows.forEach((row, i) => {
      const body = transcript.receipts[11 - i]!.body;
      expect(row.querySelector('.no')!.textContent).to.equal(`Round ${body.round}`);
      const shown = [...row.querySelectorAll('summary .card')].map((c) => c.getAttribute('aria-label'));
      const player = body.cards.filter((c) => c.hand === 'player').map((c) => cardFace(c.code).name);
      const banker = body.cards.filter((c) => c.hand === 'banker').map((c) => cardFace(c.code).name);
      expect(shown).to.deep.equal([...player, ...banker]);
      const totals = [...row.querySelectorAll('.total')].map((t) => Number(t.textContent));
      expect(totals).to.deep.equal([body.playerTotal, body.bankerTotal]);
      expect(row.querySelector('.outcome')!.classList.contains(body.outcome)).to.equal(true);
      const balance = row.querySelector('.balance')!.textContent;
      expect(balance).to.contain(`¤${body.balanceBefore}`).and.to.contain(`¤${body.balanceAfter}`);
    });
  });

  for (const width of [700, 360]) {
    it(`${width} px: every round's line is one height, with two cards or three, a natural or none, short or long amounts`, async () => {
      const { transcript } = await playShoe({ rounds: 40, reveal: false });
      const formatAmount = (minor: number) => `€${(minor / 1000).toFixed(2)}`;
      const history = await mount<PbHistory>('pb-history', { rounds: roundsOf(transcript), formatAmount }, `display: block; width: ${width}px`);
      const bodies = transcript.receipts.map((r) => r.body);
      // The shoe has what makes a line grow: three-card hands and naturals.
      expect(bodies.some((b) => b.cards.length === 6)).to.equal(true);
      expect(bodies.some((b) => b.natural)).to.equal(true);
      const heights = $$(history, 'summary').map((s) => Math.round(s.getBoundingClientRect().height));
      expect(heights).to.have.length(40);
      expect([...new Set(heights)]).to.have.length(1);
    });
  }

  it('shows each card as rank and suit glyph, red for hearts and diamonds', async () => {
    const { transcript } = await playShoe({ rounds: 6, reveal: false });
    const history = await mount<PbHistory>('pb-history', { rounds: roundsOf(transcript) });
    const first = transcript.receipts.at(-1)!.body.cards;
    const shown = $$(history, 'li.round')[0]!.querySelectorAll('summary .card');
    const byHand = [...first.filter((c) => c.hand === 'player'), ...first.filter((c) => c.hand === 'banker')];
    byHand.forEach((card, i) => {
      const el = shown[i]!;
      const rank = card.code[0] === 'T' ? '10' : card.code[0];
      expect(el.querySelector('.rank')!.textContent).to.equal(rank);
      expect(el.querySelector('.suit')!.textContent).to.equal({ S: '♠', H: '♥', D: '♦', C: '♣' }[card.code[1]!]);
      expect(el.classList.contains('red')).to.equal(card.code[1] === 'H' || card.code[1] === 'D');
    });
  });

  it('expands a round to its bets and payouts per box and the receipt details', async () => {
    const { transcript } = await playShoe({ rounds: 10, reveal: false });
    const history = await mount<PbHistory>('pb-history', { rounds: roundsOf(transcript), formatAmount: (m: number) => (m / 1000).toFixed(2) });
    const row = $$(history, 'li.round')[0]!;
    const details = row.querySelector('details')!;
    expect(details.open).to.equal(false);
    row.querySelector('summary')!.click();
    expect(details.open).to.equal(true);
    const body = transcript.receipts.at(-1)!.body;
    const lines = [...row.querySelectorAll('table.bets tbody tr')];
    expect(lines).to.have.length(body.payouts.length);
    body.payouts.forEach((p, i) => {
      const cells = lines[i]!.querySelectorAll('td');
      expect(lines[i]!.querySelector('th')!.textContent).to.contain(`Sector ${p.sector + 1}`);
      expect(cells[0]!.textContent).to.equal((p.amount / 1000).toFixed(2));
      expect(cells[1]!.textContent).to.equal({ win: 'win', lose: 'lose', push: 'returned' }[p.result]);
      expect(cells[2]!.textContent).to.equal((p.returned / 1000).toFixed(2));
    });
    expect(row.querySelector('dl.meta')!.textContent).to.contain(transcript.receipts.at(-1)!.hash);
  });

  it('keeps an open round open when a new round arrives on top', async () => {
    const { transcript } = await playShoe({ rounds: 5, reveal: false });
    const history = await mount<PbHistory>('pb-history', { rounds: roundsOf(transcript).slice(0, 4) });
    $$(history, 'li.round summary')[0]!.click();
    history.rounds = roundsOf(transcript);
    await history.updateComplete;
    const rows = $$<HTMLDetailsElement>(history, 'li.round details');
    expect(rows[0]!.open).to.equal(false);
    expect(rows[1]!.open).to.equal(true);
  });

  it('says so when no round has been played', async () => {
    const history = await mount<PbHistory>('pb-history', { rounds: [] });
    expect($(history, 'p').textContent).to.equal('No rounds played yet.');
  });
});
