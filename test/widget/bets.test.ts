/** The pure bet-building steps (widget/element/bets.ts): every refusal is the shared engine's rule. */
import { expect } from 'chai';
import { addToBox, amountAt, betsLeftOnFelt, doubleBets, moveBet, placeMinimum, removeBox, repeatBets, sameBets, sortBets } from '../../widget/element/bets.ts';
import { ROOMS } from '../../shared/table.ts';

const hall1 = ROOMS['hall-1'].limits; // 0.1 – 10, step 0.1
const BAL = 1_000_000;

describe('bet building', () => {
  it('adds chips to a box and keeps table order', () => {
    let bets = addToBox([], { sector: 3, box: 'tie' }, 500, hall1, BAL);
    expect(bets.ok).to.equal(true);
    bets = addToBox(bets.ok ? bets.value : [], { sector: 0, box: 'banker' }, 1000, hall1, BAL);
    bets = addToBox(bets.ok ? bets.value : [], { sector: 0, box: 'player' }, 100, hall1, BAL);
    bets = addToBox(bets.ok ? bets.value : [], { sector: 3, box: 'tie' }, 500, hall1, BAL);
    expect(bets.ok && bets.value).to.deep.equal([
      { sector: 0, box: 'player', amount: 100 },
      { sector: 0, box: 'banker', amount: 1000 },
      { sector: 3, box: 'tie', amount: 1000 },
    ]);
  });

  it('the minimum on an empty box is the room minimum', () => {
    const vip = ROOMS.vip.limits;
    const bets = placeMinimum([], { sector: 2, box: 'player' }, vip, BAL);
    expect(bets.ok && bets.value).to.deep.equal([{ sector: 2, box: 'player', amount: 25_000 }]);
  });

  it('refusals carry the engine code and what was tried', () => {
    const full = [{ sector: 0, box: 'player' as const, amount: 10_000 }];
    const over = addToBox(full, { sector: 0, box: 'player' }, 100, hall1, BAL);
    expect(over.ok || over.error).to.deep.include({ code: 'over_maximum', amount: 10_100, sector: 0, box: 'player' });
    const three = [0, 1, 2].map((sector) => ({ sector, box: 'tie' as const, amount: 100 }));
    const fourth = addToBox(three, { sector: 4, box: 'banker' }, 100, hall1, BAL);
    expect(fourth.ok || fourth.error).to.deep.include({ code: 'fourth_sector', sector: 4, box: 'banker' });
    const broke = addToBox([], { sector: 0, box: 'tie' }, 5_000, hall1, 4_000);
    expect(broke.ok || broke.error.code).to.equal('insufficient_balance');
    const offStep = addToBox([], { sector: 0, box: 'tie' }, 150, hall1, BAL);
    expect(offStep.ok || offStep.error.code).to.equal('amount_off_step');
  });

  it('a chip that would pass the maximum fills the box up to it; only a full box refuses it; a moved bet is never cut', () => {
    const near = [{ sector: 0, box: 'player' as const, amount: 9_500 }];
    const filled = addToBox(near, { sector: 0, box: 'player' }, 1_000, hall1, BAL, true);
    expect(filled.ok && filled.value).to.deep.equal([{ sector: 0, box: 'player', amount: 10_000 }]);
    const full = addToBox(filled.ok ? filled.value : [], { sector: 0, box: 'player' }, 100, hall1, BAL, true);
    expect(full.ok || full.error).to.deep.include({ code: 'over_maximum', amount: 10_100 });
    // The type's sum over the boxes: two Banker bets of 4.00, a 5.00 chip on a third fills it to 2.00.
    const two = [0, 1].map((sector) => ({ sector, box: 'banker' as const, amount: 4_000 }));
    const third = addToBox(two, { sector: 2, box: 'banker' }, 5_000, hall1, BAL, true);
    expect(third.ok && third.value.map((b) => b.amount)).to.deep.equal([4_000, 4_000, 2_000]);
    // Without `fill` (a bet dragged across the felt) the whole amount moves or nothing does.
    const moved = moveBet([...near, { sector: 1, box: 'player', amount: 1_000 }], { sector: 1, box: 'player' }, { sector: 0, box: 'player' }, hall1, BAL);
    expect(moved.ok || moved.error.code).to.equal('over_maximum');
  });

  it('removes, moves, doubles and repeats', () => {
    const bets = sortBets([
      { sector: 1, box: 'banker', amount: 2_000 },
      { sector: 0, box: 'player', amount: 1_000 },
    ]);
    expect(removeBox(bets, { sector: 1, box: 'banker' })).to.deep.equal([{ sector: 0, box: 'player', amount: 1_000 }]);
    const moved = moveBet(bets, { sector: 1, box: 'banker' }, { sector: 0, box: 'player' }, hall1, BAL);
    expect(moved.ok && moved.value).to.deep.equal([{ sector: 0, box: 'player', amount: 3_000 }]);
    const doubled = doubleBets(bets, hall1, BAL);
    expect(doubled.ok && doubled.value.map((b) => b.amount)).to.deep.equal([2_000, 4_000]);
    const tooMuch = doubleBets([{ sector: 0, box: 'player', amount: 6_000 }], hall1, BAL);
    expect(tooMuch.ok || tooMuch.error.code).to.equal('over_maximum');
    const again = repeatBets(bets, hall1, 2_500);
    expect(again.ok || again.error.code).to.equal('insufficient_balance');
    expect(amountAt(bets, { sector: 0, box: 'player' })).to.equal(1_000);
    expect(amountAt(bets, { sector: 4, box: 'tie' })).to.equal(0);
  });

  it('compares sets regardless of order', () => {
    const a = [
      { sector: 0, box: 'player' as const, amount: 100 },
      { sector: 2, box: 'tie' as const, amount: 200 },
    ];
    expect(sameBets(a, [...a].reverse())).to.equal(true);
    expect(sameBets(a, [a[0]!, { ...a[1]!, amount: 300 }])).to.equal(false);
  });

  it('after a round only the bets that pushed stay on the felt, if still legal (Player and Banker on a tie)', () => {
    const round = [
      { sector: 0, box: 'player' as const, amount: 1_000 },
      { sector: 1, box: 'banker' as const, amount: 2_000 },
      { sector: 2, box: 'tie' as const, amount: 500 },
    ];
    expect(betsLeftOnFelt(round, 'tie', hall1, BAL)).to.deep.equal(round.slice(0, 2));
    expect(betsLeftOnFelt(round, 'banker', hall1, BAL)).to.deep.equal([]);
    expect(betsLeftOnFelt(round, 'player', hall1, BAL)).to.deep.equal([]);
    // The balance no longer covers them, or the limits are not known: the felt is cleared.
    expect(betsLeftOnFelt(round, 'tie', hall1, 2_500)).to.deep.equal([]);
    expect(betsLeftOnFelt(round, 'tie', null, BAL)).to.deep.equal([]);
  });
});
