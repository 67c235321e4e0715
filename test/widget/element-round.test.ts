/** Limits as the player bets, the controls (Repeat/Clear/Undo/Double), and a whole round. */
import { expect } from 'chai';
import type { Fair1ReceiptBody } from '../../shared/fairness/index.ts';
import { action, boxButton, FakeWorker, liveText, mountTable, settle, shadow, startChoice, toastText, unmountAll, until } from './helpers.ts';

describe('<punto-banco-table> limits', () => {
  afterEach(unmountAll);

  it('refuses a box over the table maximum, with a clear message, and keeps the bets', async () => {
    const { el, events } = await mountTable(); // hall-1: 0.10 – 10.00
    el.selectChip(10_000);
    expect(el.placeBet(0, 'player')).to.equal(true);
    el.selectChip(100);
    expect(el.placeBet(0, 'player')).to.equal(false);
    await settle(el);
    expect(el.bets).to.deep.equal([{ sector: 0, box: 'player', amount: 10_000 }]);
    expect(toastText(el)).to.equal('Player in sector 1 would be €10.10, over the table maximum of €10.00.');
    expect(shadow(el).querySelector('.toast')!.getAttribute('role')).to.equal('alert');
    expect(events.at(-1)!.type).to.equal('pb-error');
    expect(events.at(-1)!.detail.code).to.equal('over_maximum');
  });

  it('refuses a bet type whose sum over the boxes passes the maximum', async () => {
    const { el } = await mountTable();
    el.selectChip(5_000);
    el.placeBet(0, 'banker');
    el.placeBet(1, 'banker');
    expect(el.placeBet(2, 'banker')).to.equal(false);
    await settle(el);
    expect(toastText(el)).to.equal('All Banker bets together would be €15.00, over the table maximum of €10.00.');
    expect(el.bets).to.have.length(2);
  });

  it('refuses a fourth sector', async () => {
    const { el } = await mountTable();
    for (const sector of [0, 2, 4]) expect(el.placeBet(sector, 'tie')).to.equal(true);
    expect(el.placeBet(3, 'tie')).to.equal(false);
    await settle(el);
    expect(toastText(el)).to.equal('You may bet in at most 3 sectors at once: sector 4 would be the fourth.');
    // More boxes in a sector already in use are fine.
    expect(el.placeBet(2, 'player')).to.equal(true);
  });

  it('refuses bets the balance does not cover', async () => {
    const worker = new FakeWorker();
    worker.startBalance = 15_000;
    const { el } = await mountTable({ worker });
    el.selectChip(10_000);
    el.placeBet(0, 'player');
    expect(el.placeBet(1, 'banker')).to.equal(false);
    await settle(el);
    expect(toastText(el)).to.equal('Your bets would total €20.00, more than your balance of €15.00.');
  });

  it('refuses a chip under the minimum on an empty box (VIP)', async () => {
    const { el } = await mountTable({ attrs: { room: 'vip' } });
    el.selectChip(100); // not a VIP chip: as a host script could try
    expect(el.placeBet(0, 'player')).to.equal(false);
    await settle(el);
    expect(toastText(el)).to.equal('Player in sector 1 would be €0.10, under the table minimum of €25.00.');
  });
});

describe('<punto-banco-table> controls', () => {
  afterEach(unmountAll);

  it('Undo steps back, Clear empties, Double doubles within the limits', async () => {
    const { el } = await mountTable();
    el.selectChip(2_000);
    el.placeBet(0, 'player');
    el.placeBet(1, 'banker');
    await settle(el);
    action(el, 'double').click();
    await settle(el);
    expect(el.bets).to.deep.equal([
      { sector: 0, box: 'player', amount: 4_000 },
      { sector: 1, box: 'banker', amount: 4_000 },
    ]);
    action(el, 'undo').click();
    await settle(el);
    expect(el.bets.map((b) => b.amount)).to.deep.equal([2_000, 2_000]);
    action(el, 'undo').click();
    await settle(el);
    expect(el.bets).to.deep.equal([{ sector: 0, box: 'player', amount: 2_000 }]);
    action(el, 'clear').click();
    await settle(el);
    expect(el.bets).to.deep.equal([]);
    expect(liveText(el)).to.equal('All bets cleared');
    action(el, 'undo').click(); // Clear can be undone too
    await settle(el);
    expect(el.bets).to.deep.equal([{ sector: 0, box: 'player', amount: 2_000 }]);
    // Doubling past the maximum is refused as a whole.
    el.selectChip(5_000);
    el.placeBet(0, 'player'); // 7.00
    await settle(el);
    expect(el.double()).to.equal(false);
    expect(el.bets).to.deep.equal([{ sector: 0, box: 'player', amount: 7_000 }]);
  });

  it('disabled controls say so (aria-disabled) and do nothing', async () => {
    const { el } = await mountTable();
    for (const name of ['undo', 'clear', 'double', 'repeat', 'deal'] as const) {
      expect(action(el, name).getAttribute('aria-disabled'), name).to.equal('true');
    }
    action(el, 'deal').click();
    await settle(el);
    expect(el.state).to.equal('ready');
  });

  it('deals: starts the shoe with a random seed and cut, plays the receipt, announces it, pays', async () => {
    const worker = new FakeWorker();
    worker.script = [['4S', '7H', 'AD', 'KC', '9H']]; // Player 4+1 draws 9 → 4; Banker 7 stands: Banker wins 7 to 4
    const { el, scene, events } = await mountTable({ worker });
    let release!: () => void;
    scene!.hold = new Promise<void>((r) => (release = r));
    el.selectChip(1_000);
    el.placeBet(2, 'banker');
    el.placeBet(2, 'tie');
    await settle(el);
    action(el, 'deal').click();
    await until(() => el.state === 'dealing', 'dealing');
    expect(boxButton(el, 0, 'player').getAttribute('aria-disabled')).to.equal('true');
    await until(() => scene!.called('playRound').length === 1, 'the scene to play the round');
    const start = worker.requests('start')[0]!;
    const { clientSeed, cut } = startChoice(start);
    expect(clientSeed).to.match(/^[0-9a-f]{32}$/);
    expect(cut).to.be.within(1, 311);
    expect(start.headers.authorization).to.equal('Bearer t-s1');
    release();
    await until(() => el.state === 'settled', 'settled');
    const receipt = events.find((e) => e.type === 'pb-round-settled')!.detail;
    expect(receipt.body.outcome).to.equal('banker');
    // The felt draws the receipt's result with the bets of its acceptance.
    const drawn = scene!.called('playRound')[0]![0] as Fair1ReceiptBody;
    expect(drawn).to.deep.include({ round: receipt.body.round, cards: receipt.body.cards, outcome: 'banker', balanceAfter: receipt.body.balanceAfter });
    expect(drawn.bets).to.deep.equal([
      { sector: 2, box: 'banker', amount: 1_000 },
      { sector: 2, box: 'tie', amount: 1_000 },
    ]);
    // Banker 1.00 returns 1.95, the Tie 1.00 is lost: 0.05 down.
    expect(liveText(el)).to.equal('Banker wins · Banker 7, Player 4. You lose €0.05.');
    expect(el.balance).to.equal(receipt.body.balanceAfter);
    expect(el.balance).to.equal(1_000_000 - 2_000 + 1_950);
    expect(shadow(el).querySelector('[part="balance"] output')!.textContent).to.equal('€999.95');
    // What came back and what it made, both named: 1.95 returned on 2.00 staked.
    expect(shadow(el).querySelector('[part="win"] .label')!.textContent).to.equal('Returned');
    expect(shadow(el).querySelector('[part="win"] output')!.textContent).to.equal('€1.95 · net −€0.05');
    expect(shadow(el).querySelector('[part="status"]')!.textContent).to.equal('Banker wins · Banker 7, Player 4');
    expect(el.bets).to.deep.equal([]); // collected and paid
    // Repeat puts the same bets back; the next deal does not start the shoe again.
    action(el, 'repeat').click();
    await settle(el);
    expect(el.state).to.equal('ready');
    expect(el.bets).to.deep.equal(drawn.bets);
    expect(scene!.called('clearRound').length).to.be.greaterThan(0);
    await el.deal();
    await until(() => el.state === 'settled', 'second round settled');
    expect(worker.requests('start')).to.have.length(1);
    expect(worker.requests('rounds')).to.have.length(2);
    expect(worker.requests('secret')).to.have.length(2);
  });

  it('a tie leaves the Player and Banker bets on the felt', async () => {
    const worker = new FakeWorker();
    worker.script = [['9S', '9H', 'KD', 'KC']]; // 9 to 9, naturals: tie
    const { el } = await mountTable({ worker });
    el.placeBet(0, 'player');
    el.placeBet(1, 'banker');
    el.placeBet(1, 'tie');
    await el.deal();
    await until(() => el.state === 'settled', 'settled');
    expect(liveText(el)).to.equal('Tie · Player 9, Banker 9. You win €0.80.');
    expect(el.bets).to.deep.equal([
      { sector: 0, box: 'player', amount: 100 },
      { sector: 1, box: 'banker', amount: 100 },
    ]);
  });

  it('a new shoe (nextShoe) is started the same way before the next round', async () => {
    const worker = new FakeWorker();
    Object.assign(worker.params, { decks: 1, cutCardFromEnd: 16 }); // 52 cards, cut card 16 from the end: a few rounds
    const { el, scene } = await mountTable({ worker });
    // Deal from the derived shoe until the cut card comes out.
    el.placeBet(0, 'player');
    let guard = 0;
    while (worker.requests('start').length < 2 && guard++ < 120) {
      if (el.bets.length === 0) el.repeat();
      await el.deal();
      await until(() => el.state === 'settled', 'settled');
      if (liveText(el).includes('new shoe')) {
        el.repeat();
        await el.deal();
        await until(() => el.state === 'settled', 'settled');
      }
    }
    const starts = worker.requests('start');
    expect(starts).to.have.length(2);
    expect(starts[0]!.body).to.not.deep.equal(starts[1]!.body);
    expect(startChoice(starts[1]!).cut).to.be.within(1, 51);
    // The shoe drawn by the scene counts down, and starts full again with the new shoe.
    const shoes = scene!.called('setShoe').map((a) => a[0] as { cardsLeft: number; total: number });
    expect(shoes[0]).to.deep.include({ total: 52, cardsLeft: 52 });
    const low = shoes.findIndex((s) => s.cardsLeft < 20);
    expect(low).to.be.greaterThan(0);
    expect(shoes.slice(low).some((s) => s.cardsLeft === 52)).to.equal(true);
  });

  it('lets a host choose the seed and cut (the hook a shoe-start provider builds on)', async () => {
    const worker = new FakeWorker();
    const seen: number[] = [];
    const { el } = await mountTable({
      worker,
      setup: (table) => {
        table.shoeStartProvider = (shoe) => {
          seen.push(shoe.cutRange!.max);
          return { clientSeed: 'my lucky seed', cut: 42 };
        };
      },
    });
    el.placeBet(0, 'player');
    await el.deal();
    await until(() => el.state === 'settled', 'settled');
    expect(seen).to.deep.equal([311]);
    expect(startChoice(worker.requests('start')[0]!)).to.deep.equal({ clientSeed: 'my lucky seed', cut: 42 });
  });

  it('keeps the shoe waiting when the host provider backs out (null), and deals once it answers', async () => {
    const worker = new FakeWorker();
    let answer: { clientSeed: string; cut: number } | null = null;
    const { el } = await mountTable({ worker, setup: (table) => (table.shoeStartProvider = () => answer) });
    expect(el.shoeStartProvider).to.be.a('function'); // the host's own, left as the page set it
    el.placeBet(0, 'banker');
    await el.deal();
    await settle(el);
    expect(worker.requests('start')).to.have.length(0);
    expect(worker.requests('rounds')).to.have.length(0);
    expect(el.state).to.equal('ready');
    expect(el.bets).to.deep.equal([{ sector: 0, box: 'banker', amount: 100 }]);
    answer = { clientSeed: 'second thoughts', cut: 7 };
    await el.deal();
    await until(() => el.state === 'settled', 'settled');
    expect(worker.requests('start').map(startChoice)).to.deep.equal([answer]);
  });

  it('says so when the host provider fails, and takes bets again', async () => {
    const { el, worker, events } = await mountTable({
      setup: (table) => {
        table.shoeStartProvider = () => Promise.reject(new Error('no seed today'));
      },
    });
    el.placeBet(0, 'player');
    await el.deal();
    await settle(el);
    expect(worker.requests('start')).to.have.length(0);
    expect(el.state).to.equal('ready');
    expect(events.at(-1)!.type).to.equal('pb-error');
    expect(events.at(-1)!.detail).to.deep.equal({ code: 'shoe_start_failed', message: 'no seed today' });
  });

  it('leaves shoeStartProvider null when the page sets none (the panels answer from inside)', async () => {
    const { el, worker } = await mountTable();
    el.placeBet(0, 'player');
    await el.deal();
    await until(() => el.state === 'settled', 'settled');
    expect(el.shoeStartProvider).to.equal(null);
    expect(worker.requests('start')).to.have.length(1);
  });
});
