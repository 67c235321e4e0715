/**
 * The squeeze (the `squeeze` attribute), in Chromium with the real scene and real input: off, a
 * round plays as ever; on, the backed side's first two cards (and its third) stay face down until
 * the player turns them — a drag past the threshold (real mouse), a tap, Enter or Space on the
 * focused card, the Reveal button, or the timeout (the scene's squeeze clock, injected here) — and
 * the result waits for them while the other side turns by itself.
 */
import { expect } from 'chai';
import { sendKeys, sendMouse, setViewport } from '@web/test-runner-commands';
import type { PixiTable } from '../../widget/scene/table-scene.ts';
import type { PuntoBancoTable } from '../../widget/element/punto-banco-table.ts';
import type { Box } from '../../shared/table.ts';
import { type Rect, tableLayout } from '../../widget/layout.ts';
import { peelOf, SQUEEZE_TURN_AT } from '../../widget/scene/squeeze.ts';
import { feltProblems, frameWidth, inside, LANGUAGES, layoutPicture, VIEWPORTS } from './layout-checks.ts';
import { FakeSharedTable } from './fake-shared-table.ts';
import { drag, FakeWorker, liveText, mountTable, shadow, unmountAll, unmountAllAndResetMouse, until } from './helpers.ts';

/** Player 4S AD (5) draws 9H (4); Banker 7H KC (7) stands: Banker wins 7 to 4. */
const ROUND = ['4S', '7H', 'AD', 'KC', '9H'];

const sceneOf = (el: PuntoBancoTable): PixiTable => el.scene as unknown as PixiTable;
const cardButtons = (el: PuntoBancoTable): HTMLButtonElement[] => [...shadow(el).querySelectorAll<HTMLButtonElement>('.squeeze-card')];
const reveal = (el: PuntoBancoTable): HTMLButtonElement | null => shadow(el).querySelector<HTMLButtonElement>('.squeeze-reveal');

/** The squeeze's clock, by hand: each wait resolves when the test says time is up. */
class HandClock {
  readonly asked: number[] = [];
  #due: (() => void)[] = [];
  readonly wait = (ms: number): Promise<void> => {
    this.asked.push(ms);
    return new Promise((resolve) => this.#due.push(resolve));
  };
  timeUp(): void {
    for (const resolve of this.#due.splice(0)) resolve();
  }
}

/** A table with the real scene and the scripted round, its squeeze clock by hand. */
async function table(attrs: Record<string, string>): Promise<{ el: PuntoBancoTable; clock: HandClock }> {
  const worker = new FakeWorker();
  worker.script = [ROUND, ROUND];
  const { el } = await mountTable({ worker, width: 900, scene: 'real', attrs });
  await until(() => el.scene, 'the scene', 30_000);
  const clock = new HandClock();
  sceneOf(el).squeezeClock = clock.wait;
  return { el, clock };
}

/** The round's cards by hand (a card not dealt yet waits face down by the shoe): which are face up. */
function faces(el: PuntoBancoTable): Record<'player' | 'banker', boolean[]> {
  const out = { player: [] as boolean[], banker: [] as boolean[] };
  for (const c of sceneOf(el).inspect().cards) out[c.hand].push(c.faceUp);
  return out;
}

/** A table with the squeeze on dealing `bets` (placed in order); resolves once two cards wait, the deal still going. */
async function squeezing(bets: [number, Box][], attrs: Record<string, string> = { 'reduced-motion': '' }) {
  const { el, clock } = await table({ ...attrs, squeeze: '' });
  for (const [sector, box] of bets) el.placeBet(sector, box);
  const dealt = el.deal();
  await until(() => sceneOf(el).inspect().squeeze.waiting.length === 2, 'two cards waiting', 20_000);
  return { el, clock, dealt, waiting: sceneOf(el).inspect().squeeze.waiting };
}

function centre(b: Element): [number, number] {
  const r = b.getBoundingClientRect();
  return [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)];
}

describe('the squeeze', function () {
  this.timeout(60_000);

  it('the peel never leaves its card: short of the turn, from each corner, at the card size of every screen of the layout matrix', () => {
    for (const [width, height] of VIEWPORTS) {
      const { w, h } = tableLayout(frameWidth(width, height), height).card;
      for (const [sx, sy] of [
        [1, 1],
        [-1, 1],
        [1, -1],
        [-1, -1],
      ] as const) {
        const from = { x: sx * (w / 2 - 2), y: sy * (h / 2 - 2) };
        // Along the diagonal, `share` of it (the turn comes at SQUEEZE_TURN_AT).
        for (const share of [0.05, 0.2, 0.35, 0.49]) {
          const to = { x: from.x - sx * w * share, y: from.y - sy * h * share };
          const peel = peelOf(w, h, from, to);
          expect(peel.progress, `${width}×${height} ${share}`).to.be.below(SQUEEZE_TURN_AT);
          expect(peel.flap.length, 'a flap').to.be.at.least(3);
          for (const p of peel.flap)
            expect(Math.abs(p.x) <= w / 2 + 1e-6 && Math.abs(p.y) <= h / 2 + 1e-6, `${width}×${height} ${share}: ${p.x}, ${p.y}`).to.equal(true);
        }
      }
    }
  });

  afterEach(unmountAllAndResetMouse);

  it('off (default): the round plays as before, every card turning by itself; no squeeze control, no clock', async () => {
    const { el, clock } = await table({ 'reduced-motion': '' });
    expect(el.squeeze).to.equal(false);
    el.placeBet(0, 'player');
    await el.deal();
    expect(el.state).to.equal('settled');
    expect(faces(el)).to.deep.equal({ player: [true, true, true], banker: [true, true] });
    expect(sceneOf(el).inspect().banner).to.equal(true);
    expect(cardButtons(el)).to.have.length(0);
    expect(reveal(el)).to.equal(null);
    expect(clock.asked).to.deep.equal([]);
    expect(el.hasAttribute('data-squeezing')).to.equal(false);
  });

  it('on, a Player bet: the Player cards wait face down; a tap, Enter and Reveal turn them; the result waits for them', async () => {
    // Banker's is the smaller stake: Player is the side backed.
    const { el, clock, dealt, waiting } = await squeezing([
      [0, 'player'],
      [1, 'banker'],
      [0, 'player'],
    ]);
    expect(waiting).to.deep.equal([0, 2]);
    // The Banker's turned by themselves; nothing of the result shows yet.
    expect(faces(el)).to.deep.equal({ player: [false, false, false], banker: [true, true] });
    let s = sceneOf(el).inspect();
    expect([s.banner, s.totals.player, s.totals.banker, el.state]).to.deep.equal([false, null, 7, 'dealing']);
    expect(clock.asked).to.deep.equal([6000]);
    expect(el.hasAttribute('data-squeezing')).to.equal(true);
    await until(() => cardButtons(el).length === 2, 'a button over each');
    expect(liveText(el)).to.contain('Squeeze');
    expect(cardButtons(el).map((b) => b.getAttribute('aria-label'))).to.deep.equal([
      'Player card 1, face down: drag to peel it, or press Enter to turn it',
      'Player card 2, face down: drag to peel it, or press Enter to turn it',
    ]);
    // A tap on the first card (the real mouse) turns it.
    await sendMouse({ type: 'click', position: centre(cardButtons(el)[0]!) });
    await until(() => faces(el).player[0] === true, 'the first card turned by a tap');
    expect(faces(el).player[1]).to.equal(false);
    // Enter on the focused second card turns it; then the third card waits too.
    await until(() => cardButtons(el).length === 1, 'one card left');
    cardButtons(el)[0]!.focus();
    await sendKeys({ press: 'Enter' });
    await until(() => sceneOf(el).inspect().squeeze.waiting[0] === 4, 'the third card dealt and waiting');
    expect(faces(el).player).to.deep.equal([true, true, false]);
    expect(sceneOf(el).inspect().totals.player).to.equal(5);
    expect(el.state).to.equal('dealing');
    await until(() => reveal(el), 'the Reveal button');
    await sendMouse({ type: 'click', position: centre(reveal(el)!) });
    await dealt;
    s = sceneOf(el).inspect();
    expect([el.state, s.banner, s.totals.player, s.totals.banker]).to.deep.equal(['settled', true, 4, 7]);
    expect(faces(el)).to.deep.equal({ player: [true, true, true], banker: [true, true] });
    await until(() => reveal(el) === null && !el.hasAttribute('data-squeezing'), 'the squeeze controls gone');
  });

  it('on, a Banker bet squeezes the Banker cards and the timeout turns them; then a Tie bet alone squeezes the Player cards, Space turns one', async () => {
    const { el, clock, dealt, waiting } = await squeezing([[0, 'banker']]);
    expect(waiting).to.deep.equal([1, 3]);
    expect(faces(el)).to.deep.equal({ player: [true, true, false], banker: [false, false] });
    expect(sceneOf(el).inspect().banner).to.equal(false);
    clock.timeUp();
    await dealt;
    expect(el.state).to.equal('settled');
    // The Player's third card is not the squeezed side's: it turned by itself.
    expect(faces(el)).to.deep.equal({ player: [true, true, true], banker: [true, true] });

    // The next round, at the same table: a Tie bet alone squeezes the Player cards; Space on the focused card turns it.
    el.clearBets();
    el.placeBet(0, 'tie');
    const next = el.deal();
    await until(() => sceneOf(el).inspect().squeeze.waiting.length === 2, 'the two Player cards waiting');
    expect(sceneOf(el).inspect().squeeze.waiting).to.deep.equal([0, 2]);
    expect(faces(el)).to.deep.equal({ player: [false, false, false], banker: [true, true] });
    await until(() => cardButtons(el).length === 2, 'the buttons');
    cardButtons(el)[1]!.focus();
    await sendKeys({ press: 'Space' });
    await until(() => faces(el).player[1] === true, 'the second card turned by Space');
    expect(faces(el).player[0]).to.equal(false);
    // The focus goes on to the card still waiting.
    await until(() => cardButtons(el).length === 1, 'one button left');
    expect(shadow(el).activeElement?.getAttribute('aria-label')).to.contain('Player card 1');
    clock.timeUp();
    await until(() => sceneOf(el).inspect().squeeze.waiting[0] === 4, 'the third card waiting');
    clock.timeUp();
    await next;
    expect(el.state).to.equal('settled');
  });

  it('at a shared table the squeeze never holds the next window: its opening turns any card still waiting', async () => {
    const worker = new FakeWorker();
    const shared = new FakeSharedTable(worker);
    const m = await mountTable({ width: 900, worker, attrs: { table: 'hall-1/a', squeeze: '' }, setup: (e) => (e.socketFactory = shared.socketFactory) });
    await until(() => shadow(m.el).querySelector('.shared-clock.open'), 'the first window');
    const turned = m.scene!.called('turnCards').length;
    shared.openWindow();
    await until(() => m.scene!.called('turnCards').length === turned + 1, 'the cards turned as the window opens');
    expect(m.scene!.called('turnCards').at(-1)).to.deep.equal(['all']);
  });

  it('the Reveal button stands on the felt, off every box and what is printed on the arc, on a phone either way up, in every language', async () => {
    const problems: string[] = [];
    try {
      for (const [width, height] of [
        [844, 390],
        [390, 844],
      ] as const) {
        await setViewport({ width, height });
        const m = await mountTable({ width: frameWidth(width, height), attrs: { squeeze: '' } });
        m.scene!.options.onSqueeze!([{ card: 0, hand: 'banker', slot: 0, rect: { x: 10, y: 10, w: 20, h: 30 } }]);
        for (const lang of LANGUAGES) {
          m.el.lang = lang;
          await until(() => reveal(m.el)?.textContent?.trim() === { en: 'Reveal', ru: 'Открыть', it: 'Scopri', el: 'Αποκάλυψη' }[lang], `Reveal in ${lang}`);
          const stage = shadow(m.el).querySelector('.stage')!.getBoundingClientRect();
          const r = reveal(m.el)!.getBoundingClientRect();
          const piece = { name: `${width}×${height} ${lang} Reveal`, x: r.left - stage.left, y: r.top - stage.top, w: r.width, h: r.height };
          problems.push(...feltProblems({ ...layoutPicture(tableLayout(stage.width, stage.height)), pieces: [piece] }));
        }
        unmountAll();
      }
    } finally {
      await setViewport({ width: 800, height: 600 });
    }
    expect(problems).to.deep.equal([]);
  });

  it('animated: a short drag lifts the corner and lets it fall back; a drag past the threshold turns the card; the squeeze turned off turns the rest', async () => {
    // Dealt at once (the shoe's shuffle too), then animated: the peel is drawn only when the table animates.
    const { el, dealt } = await squeezing([[0, 'player']]);
    el.reducedMotion = false;
    el.speed = 'fast';
    await until(() => cardButtons(el).length === 2, 'the buttons');
    const r = cardButtons(el)[1]!.getBoundingClientRect();
    const corner: [number, number] = [Math.round(r.right - 4), Math.round(r.bottom - 4)];
    const along = (share: number): [number, number] => [Math.round(corner[0] - r.width * share), Math.round(corner[1] - r.height * share)];
    const drawn = (): Rect =>
      sceneOf(el)
        .drawnRects()
        .find((d) => d.name === 'card 3 (player)')!;
    const rest = drawn();
    // A quarter of the way: the corner lifts while held, and falls back when let go.
    await drag(corner, along(0.25), false);
    await until(() => sceneOf(el).inspect().squeeze.peeling === 1, 'the corner lifted');
    expect(faces(el).player[1]).to.equal(false);
    // The peel stays on the card's own place (its card spot, clear of every box).
    expect(inside(drawn(), { x: rest.x - 1, y: rest.y - 1, w: rest.w + 2, h: rest.h + 2 }), 'the peeled card on its spot').to.equal(true);
    await sendMouse({ type: 'up' });
    await until(() => sceneOf(el).inspect().squeeze.peeling === 0, 'the corner fallen back');
    expect(faces(el).player).to.deep.equal([false, false, false]);
    expect(sceneOf(el).inspect().squeeze.waiting).to.have.length(2);
    // Most of the way: the card turns under the pointer, before it is let go.
    await drag(corner, along(0.7), false);
    await until(() => faces(el).player[1] === true, 'the card turned by the drag');
    await sendMouse({ type: 'up' });
    expect(faces(el).player[0]).to.equal(false);
    // The page turns the squeeze off: the card still waiting turns, and so does the third as it comes.
    el.squeeze = false;
    await dealt;
    expect(faces(el).player).to.deep.equal([true, true, true]);
    expect(el.state).to.equal('settled');
  });
});
