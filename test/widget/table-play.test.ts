/**
 * The table a player never has to forgive (the play side): money in the currency's own unit, Double
 * that names the doubled amount and is off when it cannot work, a mode switch that asks first, the
 * dealer's voice under reduced motion and card by card, the shoe's last hand and its cut card in
 * sight, a reshuffle table's fresh shoe every round, and the session summary one tap away.
 */
import { expect } from 'chai';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import { defaultShoeRules } from '../../shared/shoe.ts';
import type { ShoeParams } from '../../shared/fairness/index.ts';
import { createTranslator } from '../../widget/i18n/index.ts';
import { action, FakeUtterance, FakeWorker, liveText, mountTable, playRounds, settle, shadow, toastText, unmountAll, until } from './helpers.ts';

const q = <T extends Element = HTMLElement>(el: Element, selector: string): T | null => shadow(el).querySelector<T>(selector);
const text = (el: Element, selector: string): string => q(el, selector)?.textContent?.trim() ?? '';

/** A speechSynthesis that records what the dealer says (installed before the table loads its voice). */
function fakeSpeech(): { said: string[]; restore: () => void } {
  const said: string[] = [];
  const g = globalThis as Record<string, unknown>;
  const before = { synth: Object.getOwnPropertyDescriptor(g, 'speechSynthesis'), utterance: g.SpeechSynthesisUtterance };
  Object.defineProperty(g, 'speechSynthesis', {
    configurable: true,
    value: { speak: (u: FakeUtterance) => said.push(u.text), cancel: () => undefined, getVoices: () => [] },
  });
  g.SpeechSynthesisUtterance = FakeUtterance;
  return {
    said,
    restore: () => {
      if (before.synth) Object.defineProperty(g, 'speechSynthesis', before.synth);
      g.SpeechSynthesisUtterance = before.utterance;
    },
  };
}

describe('money in the currency’s own unit', () => {
  afterEach(unmountAll);

  it('one rule for every currency: the currency’s own digits, halves away from zero; the exact figure on demand', async () => {
    const en = await createTranslator('en');
    expect(en.money(995_595, 'EUR')).to.equal('€995.60');
    expect(en.money(95, 'EUR')).to.equal('€0.10');
    expect(en.money(1_500, 'JPY')).to.equal('¥2');
    expect(en.money(995_595, 'BHD')).to.match(/^BHD\s995\.595$/);
    expect(en.exactMoney(95, 'EUR')).to.equal('€0.095');
    expect(en.exactMoney(1_500, 'EUR')).to.equal('€1.50');
    const ru = await createTranslator('ru');
    expect(ru.money(995_595, 'EUR')).to.equal('995,60\u00a0€');
  });

  it('a Banker win on €0.10 shows cents on the meter, the live region and the history row; the receipt details keep 0.095', async () => {
    const worker = new FakeWorker();
    worker.script = [['4S', '7H', 'AD', 'KC', '9H']]; // Banker 7, Player 4 after a third card
    const { el } = await mountTable({ worker });
    el.placeBet(0, 'banker'); // the minimum, €0.10
    await el.deal();
    await until(() => el.state === 'settled', 'settled');
    await settle(el);
    expect(liveText(el)).to.equal('Banker wins · Banker 7, Player 4. You win €0.10.');
    expect(text(el, '[part="balance"] output')).to.equal('€1,000.10'); // 1,000.095
    expect(text(el, '[part="win"] output')).to.equal('€0.20 · net +€0.10'); // 0.195 returned
    for (const node of shadow(el).querySelectorAll('.bar output')) expect(node.textContent, 'no tenth of a cent in the bar').to.not.match(/\.\d{3}/);
    // The history: the row in cents, the receipt's details exact.
    q<HTMLButtonElement>(el, '[data-panel="history"]')?.click();
    await until(() => q(el, 'pb-history')?.shadowRoot?.querySelector('.round'), 'the history row', 10_000);
    const history = q(el, 'pb-history')!.shadowRoot!;
    expect(history.querySelector('.balance')!.textContent).to.contain('€1,000.10');
    expect(history.querySelector('.net')!.textContent.trim()).to.equal('+€0.10');
    expect(history.querySelector('.bets tfoot')!.textContent).to.contain('€0.195');
  });

  it('the money row’s net is the difference of the figures it shows: €0.20 returned on €0.30 is net −€0.10, never −€0.11', async () => {
    const worker = new FakeWorker();
    worker.script = [['4S', '7H', 'AD', 'KC', '9H']]; // Banker 7, Player 4 after a third card
    const { el } = await mountTable({ worker });
    for (const box of ['banker', 'player', 'tie'] as const) el.placeBet(0, box); // €0.10 each
    await el.deal();
    await until(() => el.state === 'settled', 'settled');
    await settle(el);
    // 0.195 back on 0.30: the exact −0.105 alone would round to −€0.11 beside "€0.20" and "€0.30".
    expect(text(el, '[part="win"] output')).to.equal('€0.20 · net −€0.10');
    expect(liveText(el)).to.equal('Banker wins · Banker 7, Player 4. You lose €0.10.');
  });
});

describe('Double', () => {
  afterEach(unmountAll);

  it('is off when doubling would pass a limit, and its refusal names the doubled amount', async () => {
    const { el } = await mountTable(); // hall-1: 0.10 – 10.00
    el.selectChip(1_000);
    el.placeBet(0, 'player');
    await settle(el);
    expect(action(el, 'double').getAttribute('aria-disabled')).to.equal('false');
    el.selectChip(5_000);
    el.placeBet(0, 'player'); // 6.00: doubled it would be 12.00
    await settle(el);
    expect(action(el, 'double').getAttribute('aria-disabled')).to.equal('true');
    action(el, 'double').click();
    await settle(el);
    expect(toastText(el)).to.equal('Player in sector 1 would be €12.00, over the table maximum of €10.00.');
    expect(el.bets).to.deep.equal([{ sector: 0, box: 'player', amount: 6_000 }]);
  });
});

describe('switching mode while the session holds money', () => {
  afterEach(unmountAll);

  it('asks first and says what happens to the balance; No keeps the session, Yes opens the new one', async () => {
    const { el, worker } = await mountTable();
    await playRounds(el, 1);
    await settle(el);
    const session = el.sessionId;
    const balance = text(el, '[part="balance"] output');
    q<HTMLButtonElement>(el, '.tool.mode')!.click();
    await until(() => q(el, '.switch-question'), 'the question');
    const dialog = q(el, '.switch-question')!;
    expect(dialog.getAttribute('role')).to.equal('alertdialog');
    expect(text(el, '#pb-switch-title')).to.equal('Switch to Reshuffle?');
    expect(text(el, '#pb-switch-body')).to.contain(`Your balance of ${balance} stays with the current session`);
    expect(text(el, '#pb-switch-body')).to.contain('starts with €1,000.00 of play money');
    expect(shadow(el).activeElement?.classList.contains('switch-cancel')).to.equal(true);
    // No (Escape): the same session, balance and mode.
    await sendKeys({ press: 'Escape' });
    await until(() => !q(el, '.switch-question'), 'the question to go');
    await settle(el);
    expect(el.mode).to.equal('shoe');
    expect(el.sessionId).to.equal(session);
    expect(worker.requests('sessions')).to.have.length(1);
    // Yes: a new session in the other mode.
    q<HTMLButtonElement>(el, '.tool.mode')!.click();
    await until(() => q(el, '.switch-confirm'), 'the question again');
    q<HTMLButtonElement>(el, '.switch-confirm')!.click();
    await until(() => el.sessionId !== session && el.state === 'ready', 'the new session');
    expect(el.mode).to.equal('reshuffle');
    expect(worker.requests('sessions')).to.have.length(2);
  });

  it('a room switch asks too; an untouched session switches at once', async () => {
    const { el, worker } = await mountTable();
    el.placeBet(0, 'tie');
    await settle(el);
    el.room = 'hall-2';
    await until(() => q(el, '.switch-question'), 'the question');
    expect(text(el, '#pb-switch-title')).to.equal('Switch to Hall 2?');
    expect(text(el, '#pb-switch-body')).to.contain('starts with €10,000.00 of play money');
    q<HTMLButtonElement>(el, '.switch-cancel')!.click();
    await settle(el);
    expect(el.room).to.equal('hall-1');
    expect(el.bets).to.have.length(1);
    el.clearBets();
    el.mode = 'reshuffle';
    await until(() => worker.requests('sessions').length === 2, 'the new session without a question');
    expect(q(el, '.switch-question')).to.equal(null);
  });
});

describe('the dealer’s voice', () => {
  let speech: ReturnType<typeof fakeSpeech>;
  beforeEach(() => (speech = fakeSpeech()));
  afterEach(() => {
    unmountAll();
    speech.restore();
  });

  it('under reduced motion still calls the deal and then the result, in the felt’s words', async () => {
    const worker = new FakeWorker();
    worker.script = [['4S', '7H', 'AD', 'KC', '9H']];
    const { el } = await mountTable({ worker, attrs: { lang: 'ru', 'reduced-motion': '' } });
    el.placeBet(0, 'banker');
    await el.deal();
    await until(() => el.state === 'settled', 'settled');
    await until(() => speech.said.length >= 2, 'the result called');
    expect(speech.said).to.deep.equal(['Пунто – банко, пунто – банко', 'Выиграл Банкир']);
  });

  it('with motion, calls each card as the scene deals it, and the result once', async () => {
    const worker = new FakeWorker();
    worker.script = [['4S', '7H', 'AD', 'KC', '9H']];
    const { el, scene } = await mountTable({ worker, attrs: { lang: 'ru', 'reduced-motion': 'false' } });
    el.placeBet(0, 'banker');
    let release!: () => void;
    scene!.hold = new Promise<void>((r) => (release = r));
    const dealt = el.deal();
    await until(() => scene!.called('playRound').length === 1, 'the deal');
    expect(speech.said, 'nothing before the cards go out').to.deep.equal([]);
    for (const hand of ['player', 'banker', 'player', 'banker'] as const) scene!.options.onCue!('cardSlide', hand);
    scene!.options.onCue!('result');
    release();
    await dealt;
    await settle(el);
    expect(speech.said).to.deep.equal(['Пунто', 'Банко', 'Пунто', 'Банко', 'Выиграл Банкир']);
  });
});

/** A one-deck shoe as a new table commits it: the cut card in the middle, 26 cards from the end. */
const ONE_DECK: ShoeParams = {
  algorithm: 'pb-fair-2',
  mode: 'shoe',
  decks: 1,
  burn: true,
  cutCardFromEnd: defaultShoeRules('shoe', 1).cutCardFromEnd,
  voidAfterSeconds: 600,
};

describe('the end of the shoe in sight', () => {
  let speech: ReturnType<typeof fakeSpeech>;
  beforeEach(() => (speech = fakeSpeech()));
  afterEach(() => {
    unmountAll();
    speech.restore();
  });

  it('the last hand is announced; the cut card out is said on the status line; the gauge waits for the hand to leave', async () => {
    const worker = new FakeWorker();
    worker.params = ONE_DECK;
    const { el, scene } = await mountTable({ worker });
    let cutOut = false;
    for (let round = 1; round <= 12 && !cutOut; round++) {
      if (el.bets.length === 0) el.placeBet(0, 'banker');
      await settle(el);
      const announced = text(el, '[part="status"]').startsWith('Last hand of shoe 1');
      const heard = speech.said.length;
      const [receipt] = await playRounds(el, 1);
      cutOut = receipt!.body.cutCardOut;
      // A round announced as the last is the last, and the dealer says so first.
      if (announced) {
        expect(cutOut, `round ${round} was announced as the last`).to.equal(true);
        expect(speech.said[heard]).to.equal('Last hand of the shoe');
      }
    }
    expect(cutOut, 'the cut card came out').to.equal(true);
    await settle(el);
    expect(text(el, '[part="status"]')).to.contain('The cut card came out: this was the last hand of shoe 1. A new shoe comes next.');
    // The last hand is on the felt: the gauge still shows the old shoe (its discard, not a full shoe).
    const held = scene!.called('setShoe').at(-1)![0] as { cardsLeft: number; total: number; discarded: number };
    expect(held.discarded).to.be.greaterThan(0);
    expect(held.cardsLeft).to.be.lessThan(held.total);
    // Bets change: the hand leaves the felt, and the new shoe shows full.
    el.placeBet(1, 'player');
    await settle(el);
    const fresh = scene!.called('setShoe').at(-1)![0] as { cardsLeft: number; total: number; discarded: number };
    expect([fresh.cardsLeft, fresh.discarded]).to.deep.equal([fresh.total, 0]);
  });
});

describe('a reshuffle table', () => {
  afterEach(unmountAll);

  it('reads “Fresh shoe every round”; each round’s cards go back with a short shuffle; the invitation fits the mode', async () => {
    const worker = new FakeWorker();
    worker.params = { algorithm: 'pb-fair-2', mode: 'reshuffle', decks: 6, roundLimit: 100, voidAfterSeconds: 600 };
    const { el, scene } = await mountTable({ worker, attrs: { mode: 'reshuffle' } });
    await until(() => q(el, '.invite'), 'the invitation');
    expect(text(el, '.invite span')).to.equal(
      'Reshuffle table: every round is dealt from a freshly shuffled stack. Add your seed and cut if you like, or just bet and deal.',
    );
    await playRounds(el, 3);
    expect(scene!.called('reshuffle')).to.have.length(2); // before rounds 2 and 3
    const gauges = scene!.called('setShoe').map((a) => a[0] as { cardsLeft: number; total: number; caption?: string });
    expect(gauges.every((g) => g.caption === 'Fresh shoe every round')).to.equal(true);
    // Never counting down the stack: at most one round's cards out of it.
    expect(gauges.every((g) => g.cardsLeft >= g.total - 6)).to.equal(true);
  });
});

describe('the session summary', () => {
  afterEach(unmountAll);

  it('is one tap away: time at the table, rounds, staked and net result', async () => {
    const worker = new FakeWorker();
    worker.script = [
      ['4S', '7H', 'AD', 'KC', '9H'], // Banker 7 against 4
      ['9S', '2H', 'KD', '3C'], // Player 9, a natural
    ];
    const { el } = await mountTable({ worker });
    el.selectChip(1_000);
    el.placeBet(0, 'banker');
    el.placeBet(1, 'player');
    await playRounds(el, 1); // 1.00 on Banker wins 0.95, 1.00 on Player loses
    expect(el.repeat()).to.equal(true);
    await playRounds(el, 1); // the same again: Player wins 1.00, Banker loses
    await settle(el);
    const summary = q<HTMLDetailsElement>(el, 'details.session-summary')!;
    expect(summary.open).to.equal(false);
    q<HTMLElement>(el, 'details.session-summary > summary')!.click();
    await settle(el);
    expect(summary.open).to.equal(true);
    expect(text(el, '[data-summary="time"]')).to.match(/^\d+ min$/);
    expect(text(el, '[data-summary="rounds"]')).to.equal('2');
    expect(text(el, '[data-summary="staked"]')).to.equal('€4.00');
    expect(text(el, '[data-summary="net"]')).to.equal('−€0.05'); // −0.05 (Banker wins) + 0 (Player wins)
  });
});

describe('a short phone (360×640)', () => {
  afterEach(async () => {
    unmountAll();
    document.body.style.margin = '';
    await setViewport({ width: 800, height: 600 });
  });

  for (const lang of ['en', 'el'])
    it(`the felt yields so that Deal is on screen without scrolling, even under the longest status line (${lang})`, async () => {
      await setViewport({ width: 360, height: 640 });
      document.body.style.margin = '0';
      const worker = new FakeWorker();
      worker.params = ONE_DECK;
      const { el } = await mountTable({ worker, width: 360, attrs: { lang } });
      let cutOut = false;
      for (let round = 1; round <= 12 && !cutOut; round++) {
        if (el.bets.length === 0) el.placeBet(0, 'banker');
        const [receipt] = await playRounds(el, 1);
        cutOut = receipt!.body.cutCardOut;
      }
      expect(cutOut, 'the cut card came out').to.equal(true);
      await settle(el);
      await new Promise((r) => requestAnimationFrame(() => r(null)));
      // The longest line the table says: the result, and the cut card out.
      expect(text(el, '[part="status"]').length).to.be.greaterThan(60);
      for (const name of ['deal', 'repeatDeal', 'repeat', 'double']) {
        const r = q(el, `.bar [data-action="${name}"]`)!.getBoundingClientRect();
        expect(r.bottom, `${name} bottom`).to.be.at.most(640);
      }
      // The felt still holds the phone layout: its chips on screen above the bar.
      const stage = q(el, '.stage')!.getBoundingClientRect();
      expect(stage.height).to.be.at.least(360);
    });
});
