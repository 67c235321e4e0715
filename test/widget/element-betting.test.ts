/** Placing and removing bets exactly as RULES.md says: by click, keyboard, drag (mouse and touch). */
import { expect } from 'chai';
import { resetMouse, sendKeys, sendMouse } from '@web/test-runner-commands';
import { boxButton, centre, chipButton, liveText, mountTable, settle, shadow, unmountAll, until } from './helpers.ts';

const click = async (el: Element): Promise<void> => sendMouse({ type: 'click', position: centre(el) });

describe('<punto-banco-table> betting', () => {
  afterEach(async () => {
    unmountAll();
    await resetMouse();
  });

  it('click a chip, then a box: the chip goes on the box (and again adds up)', async () => {
    const { el, events, scene } = await mountTable();
    await click(chipButton(el, 1000));
    expect(chipButton(el, 1000).getAttribute('aria-pressed')).to.equal('true');
    await click(boxButton(el, 1, 'banker'));
    await click(boxButton(el, 1, 'banker'));
    await settle(el);
    expect(el.bets).to.deep.equal([{ sector: 1, box: 'banker', amount: 2000 }]);
    expect(boxButton(el, 1, 'banker').getAttribute('aria-label')).to.equal('Banker, sector 2, bet €2.00');
    const changes = events.filter((e) => e.type === 'pb-bet-change');
    expect(changes.at(-1)!.detail).to.deep.equal({ bets: [{ sector: 1, box: 'banker', amount: 2000 }], total: 2000 });
    expect(scene!.called('setBets').at(-1)![0]).to.deep.equal([{ sector: 1, box: 'banker', amount: 2000 }]);
    expect(shadow(el).querySelector('[part="bet-total"] output')!.textContent).to.equal('€2.00');
    expect(liveText(el)).to.equal('Banker, sector 2: €2.00');
  });

  it('with no chip selected: an empty box gets the table minimum, a box with a bet loses it', async () => {
    const { el } = await mountTable();
    await click(boxButton(el, 0, 'player'));
    await settle(el);
    expect(el.bets).to.deep.equal([{ sector: 0, box: 'player', amount: 100 }]);
    await click(boxButton(el, 0, 'player'));
    await settle(el);
    expect(el.bets).to.deep.equal([]);
    expect(liveText(el)).to.equal('Player, sector 1: bet removed');
  });

  it('clicking the selected chip again deselects it', async () => {
    const { el } = await mountTable();
    await click(chipButton(el, 500));
    await click(chipButton(el, 500));
    await settle(el);
    expect(chipButton(el, 500).getAttribute('aria-pressed')).to.equal('false');
  });

  it('Ctrl-click and right-click remove a bet even with a chip selected', async () => {
    const { el } = await mountTable();
    await click(chipButton(el, 2000));
    await click(boxButton(el, 2, 'tie'));
    await click(boxButton(el, 3, 'player'));
    await settle(el);
    expect(el.bets).to.have.length(2);
    await sendKeys({ down: 'Control' });
    await click(boxButton(el, 2, 'tie'));
    await sendKeys({ up: 'Control' });
    await settle(el);
    expect(el.bets).to.deep.equal([{ sector: 3, box: 'player', amount: 2000 }]);
    await sendMouse({ type: 'click', position: centre(boxButton(el, 3, 'player')), button: 'right' });
    await settle(el);
    expect(el.bets).to.deep.equal([]);
  });

  it('keyboard: Enter and Space add (chip or minimum), Delete and Backspace remove', async () => {
    const { el } = await mountTable();
    boxButton(el, 4, 'banker').focus();
    await sendKeys({ press: 'Enter' });
    await sendKeys({ press: 'Space' });
    await settle(el);
    expect(el.bets).to.deep.equal([{ sector: 4, box: 'banker', amount: 200 }]);
    chipButton(el, 5000).focus();
    await sendKeys({ press: 'Enter' }); // selects the chip (a plain button)
    boxButton(el, 4, 'banker').focus();
    await sendKeys({ press: 'Enter' });
    await settle(el);
    expect(el.bets).to.deep.equal([{ sector: 4, box: 'banker', amount: 5200 }]);
    await sendKeys({ press: 'Delete' });
    await settle(el);
    expect(el.bets).to.deep.equal([]);
    await sendKeys({ press: 'Space' });
    await sendKeys({ press: 'Backspace' });
    await settle(el);
    expect(el.bets).to.deep.equal([]);
  });

  it('Tab reaches the chips first, then the felt as one stop; the arrow keys walk the boxes, and Tab comes back to the last one', async () => {
    const { el } = await mountTable();
    const chips = [...shadow(el).querySelectorAll<HTMLElement>('.chip:not(.ghost)')];
    chips[0]!.focus();
    const name = (): string => {
      const f = shadow(el).activeElement as HTMLElement;
      return f.classList.contains('box') ? `${f.dataset.sector}${f.dataset.box![0]}` : f.classList.contains('chip') ? 'chip' : 'other';
    };
    const seen: string[] = [];
    for (let i = 0; i < chips.length + 2; i++) {
      seen.push(name());
      await sendKeys({ press: 'Tab' });
    }
    expect(seen.join(' ')).to.equal(`${chips.map(() => 'chip').join(' ')} 0p other`);
    const back = async (): Promise<void> => {
      await sendKeys({ down: 'Shift' });
      await sendKeys({ press: 'Tab' });
      await sendKeys({ up: 'Shift' });
    };
    // The loop ended one Tab past the bar's first control: back to it, and back to the felt.
    await back();
    await back();
    const walk: string[] = [name()];
    for (const key of ['ArrowRight', 'ArrowUp', 'ArrowUp', 'ArrowUp', 'End', 'ArrowDown', 'ArrowRight', 'Home', 'ArrowLeft']) {
      await sendKeys({ press: key });
      walk.push(name());
    }
    // Up goes towards the dealer (Player, Banker, Tie); the felt's edges stop the walk.
    expect(walk.join(' ')).to.equal('0p 1p 1b 1t 1t 4t 4b 4b 0b 0b');
    expect(shadow(el).querySelectorAll('.box[tabindex="0"]')).to.have.length(1);
    await sendKeys({ press: 'Tab' });
    await back();
    expect(name()).to.equal('0b');
    // Enter still bets on the box in focus.
    await sendKeys({ press: 'Enter' });
    await settle(el);
    expect(el.bets).to.deep.equal([{ sector: 0, box: 'banker', amount: 100 }]);
  });

  it('drag a chip onto a box with the mouse', async () => {
    const { el, scene } = await mountTable();
    const [x0, y0] = centre(chipButton(el, 1000));
    const [x1, y1] = centre(boxButton(el, 2, 'player'));
    await sendMouse({ type: 'move', position: [x0, y0] });
    await sendMouse({ type: 'down' });
    await sendMouse({ type: 'move', position: [x0 + 20, y0 - 20] });
    await until(() => shadow(el).querySelector('.ghost'), 'the dragged chip');
    await sendMouse({ type: 'move', position: [x1, y1] });
    await until(() => boxButton(el, 2, 'player').classList.contains('drop'), 'the drop highlight');
    expect(scene!.called('setHighlight').at(-1)![0]).to.deep.equal({ sector: 2, box: 'player' });
    await sendMouse({ type: 'up' });
    await settle(el);
    expect(el.bets).to.deep.equal([{ sector: 2, box: 'player', amount: 1000 }]);
    expect(shadow(el).querySelector('.ghost')).to.equal(null);
    // The drag did not also select the chip (its click is swallowed).
    expect(chipButton(el, 1000).getAttribute('aria-pressed')).to.equal('false');
  });

  it('drag a bet off the table to remove it, or onto another box to move it', async () => {
    const { el } = await mountTable();
    el.placeBet(1, 'tie');
    el.placeBet(3, 'banker');
    await settle(el);
    // Off the table (onto the control bar).
    const [x0, y0] = centre(boxButton(el, 1, 'tie'));
    const [xo, yo] = centre(shadow(el).querySelector('[part="balance"]')!);
    await sendMouse({ type: 'move', position: [x0, y0] });
    await sendMouse({ type: 'down' });
    await sendMouse({ type: 'move', position: [x0 + 15, y0 + 15] });
    await sendMouse({ type: 'move', position: [xo, yo] });
    await sendMouse({ type: 'up' });
    await settle(el);
    expect(el.bets).to.deep.equal([{ sector: 3, box: 'banker', amount: 100 }]);
    // Onto another box.
    const [x2, y2] = centre(boxButton(el, 3, 'banker'));
    const [x3, y3] = centre(boxButton(el, 3, 'player'));
    await sendMouse({ type: 'move', position: [x2, y2] });
    await sendMouse({ type: 'down' });
    await sendMouse({ type: 'move', position: [x2 + 10, y2 + 10] });
    await sendMouse({ type: 'move', position: [x3, y3] });
    await sendMouse({ type: 'up' });
    await settle(el);
    expect(el.bets).to.deep.equal([{ sector: 3, box: 'player', amount: 100 }]);
  });

  it('drag works with touch pointers too', async () => {
    const { el } = await mountTable();
    const chip = chipButton(el, 2000);
    const [x0, y0] = centre(chip);
    const [x1, y1] = centre(boxButton(el, 0, 'banker'));
    const touch = (type: string, x: number, y: number): PointerEvent =>
      new PointerEvent(type, {
        pointerId: 7,
        pointerType: 'touch',
        isPrimary: true,
        clientX: x,
        clientY: y,
        button: type === 'pointermove' ? -1 : 0,
        bubbles: true,
        composed: true,
      });
    chip.dispatchEvent(touch('pointerdown', x0, y0));
    chip.dispatchEvent(touch('pointermove', (x0 + x1) / 2, (y0 + y1) / 2));
    chip.dispatchEvent(touch('pointermove', x1, y1));
    chip.dispatchEvent(touch('pointerup', x1, y1));
    await settle(el);
    expect(el.bets).to.deep.equal([{ sector: 0, box: 'banker', amount: 2000 }]);
    expect(getComputedStyle(chip).touchAction).to.equal('none');
    expect(getComputedStyle(boxButton(el, 0, 'banker')).touchAction).to.equal('none');
  });

  it('a small wobble is a click, not a drag', async () => {
    const { el } = await mountTable();
    const [x, y] = centre(chipButton(el, 500));
    await sendMouse({ type: 'move', position: [x, y] });
    await sendMouse({ type: 'down' });
    await sendMouse({ type: 'move', position: [x + 2, y + 1] });
    await sendMouse({ type: 'up' });
    await settle(el);
    expect(chipButton(el, 500).getAttribute('aria-pressed')).to.equal('true');
    expect(el.bets).to.deep.equal([]);
  });
});
