/**
 * The plain felt: a table without a scene — no WebGL on this machine, or waiting for a slot in the
 * page's WebGL budget — draws its boxes and bets with its own DOM buttons, so the player still sees
 * where the money is. A normal start (the scene loading) does not show it.
 */
import { expect } from 'chai';
import { glBudget } from '../../widget/element/gl-budget.ts';
import type { Fair1ReceiptBody } from '../../shared/fairness/pb-fair-1/records.ts';
import { boxButton, mountTable, shadow, unmountAll, until } from './helpers.ts';

/** What the plain box shows: its name, and the bet on it if any ("Banker · €1.00", the stack right after the button). */
function plainText(el: Element, sector: number, box: 'player' | 'banker' | 'tie'): string {
  const button = boxButton(el, sector, box);
  const name = button.querySelector('.plain-name')!.textContent.trim();
  const next = button.nextElementSibling;
  return next?.classList.contains('plain-stack') ? `${name} · ${next.textContent.trim()}` : name;
}

describe('the plain felt', () => {
  afterEach(unmountAll);

  it('without WebGL the boxes show their names and the bets on them, and hide them again with a scene', async () => {
    const { el } = await mountTable({ scene: 'none' });
    await until(() => el.hasAttribute('data-plain'), 'data-plain without a scene');
    const box = boxButton(el, 1, 'banker');
    const plain = box.querySelector<HTMLElement>('.plain')!;
    expect(getComputedStyle(plain).display).to.equal('flex');
    expect(plainText(el, 1, 'banker')).to.equal('Banker');
    // The visible name starts the button's accessible name (label in name, WCAG 2.5.3).
    expect(box.getAttribute('aria-label')!.startsWith('Banker')).to.equal(true);
    // Drawn: an outline and readable text, not the transparent button over a printed felt.
    expect(getComputedStyle(box).boxShadow).to.not.equal('none');
    expect(box.getBoundingClientRect().width).to.be.greaterThan(40);

    el.selectChip(500);
    el.placeBet(1, 'banker');
    el.placeBet(1, 'banker');
    await el.updateComplete;
    expect(plainText(el, 1, 'banker')).to.equal('Banker · €1.00');
    expect(plainText(el, 1, 'player')).to.equal('Player');
    el.removeBet(1, 'banker');
    await el.updateComplete;
    expect(plainText(el, 1, 'banker')).to.equal('Banker');
  });

  it('without WebGL a dealt round shows both hands, their totals and the result on the felt', async () => {
    const { el, events } = await mountTable({ scene: 'none' });
    await until(() => el.hasAttribute('data-plain'), 'data-plain without a scene');
    el.placeBet(0, 'player');
    await el.deal();
    await until(() => el.state === 'settled', 'the round');
    const body = (events.find((e) => e.type === 'pb-round-settled')!.detail as { body: Fair1ReceiptBody }).body;
    await el.updateComplete;
    const round = shadow(el).querySelector<HTMLElement>('.plain-round')!;
    expect(getComputedStyle(round).display).to.equal('block');
    for (const side of ['player', 'banker'] as const) {
      const hand = round.querySelector(`.plain-hand.${side}`)!;
      const total = side === 'player' ? body.playerTotal : body.bankerTotal;
      expect(hand.querySelector('.plain-hand-name')!.textContent.trim()).to.equal(`${side === 'player' ? 'Player' : 'Banker'} · ${total}`);
      const shown = [...hand.querySelectorAll('.plain-card')].map((c) => c.textContent.trim());
      const dealt = body.cards
        .filter((c) => c.hand === side)
        .map((c) => c.code.replace(/^T/, '10').replace(/S$/, '♠').replace(/H$/, '♥').replace(/D$/, '♦').replace(/C$/, '♣'));
      expect(shown).to.deep.equal(dealt);
    }
    const result = round.querySelector('.plain-result')!.textContent.trim();
    expect(result).to.match(body.outcome === 'tie' ? /^Tie/ : body.outcome === 'player' ? /^Player wins/ : /^Banker wins/);
  });

  it('a table with its scene never shows it', async () => {
    const { el } = await mountTable();
    await until(() => el.scene !== null, 'the scene');
    expect(el.hasAttribute('data-plain')).to.equal(false);
    expect(getComputedStyle(shadow(el).querySelector('.box .plain')!).display).to.equal('none');
    el.placeBet(0, 'banker');
    await el.deal();
    await until(() => el.state === 'settled', 'the round');
    await el.updateComplete;
    expect(getComputedStyle(shadow(el).querySelector('.plain-round')!).display).to.equal('none');
  });

  it('a table waiting for a WebGL slot shows it until a slot frees', async () => {
    const saved = glBudget.limit;
    glBudget.limit = 1;
    try {
      const first = await mountTable({ width: 400 });
      await until(() => first.el.scene !== null, 'the first scene');
      const second = await mountTable({ width: 400 });
      await until(() => second.el.hasAttribute('data-plain'), 'the second table waiting on the plain felt');
      expect(second.el.scene).to.equal(null);
      expect(first.el.hasAttribute('data-plain')).to.equal(false);
      first.el.remove();
      await until(() => second.el.scene !== null, 'the freed slot given to the second table', 15_000);
      expect(second.el.hasAttribute('data-plain')).to.equal(false);
    } finally {
      glBudget.limit = saved;
    }
  });
});
