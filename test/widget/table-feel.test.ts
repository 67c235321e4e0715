/**
 * Issue 11 through the element: both table modes, «бросить», Repeat and deal, one chip palette read
 * from the tray and the felt, nothing stale after a room or language switch, the table's language
 * on its wrapper (Greek capitals), the fit at three viewports, and the sound's gesture and memory.
 */
import { expect } from 'chai';
import { resetMouse, sendKeys, sendMouse, setViewport } from '@web/test-runner-commands';
import { defaultShoeRules } from '../../shared/shoe.ts';
import type { ShoeParams } from '../../shared/fairness/index.ts';

/** A shoe-mode shoe of `decks` decks as a new table commits it: the cut card in the middle. */
const shoeParams = (decks: number): ShoeParams => ({
  algorithm: 'pb-fair-2',
  mode: 'shoe',
  decks,
  burn: true,
  cutCardFromEnd: defaultShoeRules('shoe', decks).cutCardFromEnd,
  voidAfterSeconds: 600,
});
/** A reshuffle shoe: a fresh stack every round, revealed after 100 rounds. */
const RESHUFFLE: ShoeParams = { algorithm: 'pb-fair-2', mode: 'reshuffle', decks: 6, roundLimit: 100, voidAfterSeconds: 600 };
import type { SceneOptions } from '../../widget/scene/index.ts';
import type { PixiTable } from '../../widget/scene/table-scene.ts';
import { SOUND_STORAGE_KEY } from '../../widget/sound/index.ts';
import { chipButton, centre, FakeScene, FakeWorker, mountTable, playRounds, settle, shadow, unmountAll, until } from './helpers.ts';

/** The fake scene with the feel's optional calls (shuffle and cut, the cut card out, a clear's options). */
class FeelScene extends FakeScene {
  async shuffleAndCut(fraction: number): Promise<void> {
    this.calls.push({ name: 'shuffleAndCut', args: [fraction] });
  }
  async cutCardOut(): Promise<void> {
    this.calls.push({ name: 'cutCardOut', args: [] });
  }
  override async clearRound(opts?: { instant?: boolean }): Promise<void> {
    this.calls.push({ name: 'clearRound', args: [opts] });
  }
}

/** Mounts with a FeelScene; `scene()` is the current one (a rebuilt scene replaces it). */
async function mountFeel(attrs: Record<string, string> = {}, worker = new FakeWorker(), width?: number) {
  let scene: FeelScene | null = null;
  const made: FeelScene[] = [];
  const mounted = await mountTable({
    attrs,
    worker,
    width,
    setup: (el) => {
      el.sceneFactory = async (opts: SceneOptions) => {
        scene = new FeelScene(opts);
        made.push(scene);
        return scene;
      };
    },
  });
  return { ...mounted, scene: () => scene!, made };
}

const tool = (el: Element, name: string): HTMLButtonElement => shadow(el).querySelector<HTMLButtonElement>(`.tool[data-tool="${name}"]`)!;
const actionButton = (el: Element, name: string): HTMLButtonElement => shadow(el).querySelector<HTMLButtonElement>(`[data-action="${name}"]`)!;
const selected = (el: Element): string[] => [...shadow(el).querySelectorAll('.chip[aria-pressed="true"]')].map((c) => c.getAttribute('data-value')!);

afterEach(async () => {
  unmountAll();
  await resetMouse();
  localStorage.removeItem(SOUND_STORAGE_KEY);
});

describe('table modes', () => {
  it('shoe mode: the cut card sits in the middle of the stack; a new shoe is shuffled and cut on the felt, then goes in full', async () => {
    const { el, worker, scene } = await mountFeel();
    expect(el.mode).to.equal('shoe');
    expect((worker.requests('sessions')[0]!.body as { mode?: string }).mode ?? 'shoe').to.equal('shoe');
    await playRounds(el, 1);
    const shuffles = scene().called('shuffleAndCut');
    expect(shuffles.length).to.equal(1);
    expect(shuffles[0]![0]).to.be.within(0, 1);
    const shoe = scene().called('setShoe').at(-1)![0] as { total: number; cutAt?: number };
    expect(shoe.total).to.equal(312);
    expect(shoe.cutAt).to.equal(156);
    // After the shuffle the shoe is drawn full before any card comes out.
    const afterShuffle = scene().calls.slice(scene().calls.findIndex((c) => c.name === 'shuffleAndCut'));
    expect((afterShuffle.find((c) => c.name === 'setShoe')!.args[0] as { cardsLeft: number }).cardsLeft).to.equal(312);
    expect(shadow(el).querySelector('.tool.mode')!.textContent.trim()).to.equal('Shoe');
  });

  it('shoe mode: the round that reaches the cut card takes it out on the felt', async () => {
    const worker = new FakeWorker();
    worker.params = shoeParams(1);
    const { el, scene } = await mountFeel({}, worker);
    for (let i = 0; i < 12 && scene().called('cutCardOut').length === 0; i++) await playRounds(el, 1);
    expect(scene().called('cutCardOut').length).to.equal(1);
    expect(scene().calls.at(-1)!.name === 'cutCardOut' || scene().called('playRound').length > 0).to.equal(true);
  });

  it('reshuffle mode: the session is made in that mode and every round is dealt from a new stack', async () => {
    const worker = new FakeWorker();
    worker.params = RESHUFFLE;
    const { el, scene } = await mountFeel({ mode: 'reshuffle' }, worker);
    expect((worker.requests('sessions')[0]!.body as { mode?: string }).mode).to.equal('reshuffle');
    const receipts = await playRounds(el, 3);
    expect(receipts.length).to.equal(3);
    // One shoe start (a reshuffle shoe runs 100 rounds, each from its own stack): shown once, and no cut card.
    expect(worker.requests('start').length).to.equal(1);
    expect(scene().called('shuffleAndCut').length).to.equal(1);
    expect(scene().called('cutCardOut').length).to.equal(0);
    expect((scene().called('setShoe').at(-1)![0] as { cutAt?: number }).cutAt).to.equal(undefined);
    expect(shadow(el).querySelector('.tool.mode')!.textContent.trim()).to.equal('Reshuffle');
  });

  it('the player switches mode on the table: a new session in the other mode, nothing of the old round left', async () => {
    const { el, worker, scene } = await mountFeel();
    await playRounds(el, 1);
    const before = el.sessionId;
    tool(el, 'mode').click();
    // The session has played: the table asks first (table-play.test.ts), and the player says yes.
    await until(() => shadow(el).querySelector('.switch-confirm'), 'the switch question');
    shadow(el).querySelector<HTMLButtonElement>('.switch-confirm')!.click();
    await until(() => el.sessionId !== null && el.sessionId !== before && el.state === 'ready', 'the new session');
    expect(el.getAttribute('mode')).to.equal('reshuffle');
    expect((worker.requests('sessions').at(-1)!.body as { mode?: string }).mode).to.equal('reshuffle');
    expect(
      scene()
        .called('clearRound')
        .some((a) => (a[0] as { instant?: boolean } | undefined)?.instant === true),
    ).to.equal(true);
  });
});

describe('«бросить» and removing bets', () => {
  it('moving the pointer off the felt puts the chip back; so does Esc', async () => {
    const { el } = await mountFeel();
    const stage = shadow(el).querySelector('.stage')!;
    const chip = chipButton(el, 1000);
    await sendMouse({ type: 'click', position: centre(chip) });
    expect(selected(el)).to.deep.equal(['1000']);
    await sendMouse({ type: 'move', position: centre(shadow(el).querySelector('.box[data-sector="2"][data-box="banker"]')!) });
    expect(selected(el)).to.deep.equal(['1000']);
    const r = stage.getBoundingClientRect();
    await sendMouse({ type: 'move', position: [Math.round(r.left + r.width / 2), Math.round(r.bottom + 30)] });
    await settle(el);
    expect(selected(el)).to.deep.equal([]);
    await sendMouse({ type: 'click', position: centre(chip) });
    expect(selected(el)).to.deep.equal(['1000']);
    await sendKeys({ press: 'Escape' });
    await settle(el);
    expect(selected(el)).to.deep.equal([]);
  });

  it('no chip in hand: a click on an empty box places the minimum, on a bet removes it; Ctrl+click always removes', async () => {
    const { el } = await mountFeel();
    const box = shadow(el).querySelector('.box[data-sector="1"][data-box="player"]')!;
    await sendMouse({ type: 'click', position: centre(box) });
    expect(el.bets).to.deep.equal([{ sector: 1, box: 'player', amount: el.limits!.min }]);
    await sendMouse({ type: 'click', position: centre(box) });
    expect(el.bets).to.deep.equal([]);
    el.selectChip(1000);
    await settle(el);
    await sendMouse({ type: 'click', position: centre(box) });
    expect(el.bets.length).to.equal(1);
    await sendKeys({ down: 'Control' });
    await sendMouse({ type: 'click', position: centre(box) });
    await sendKeys({ up: 'Control' });
    expect(el.bets).to.deep.equal([]);
  });
});

describe('Repeat and deal', () => {
  it('Russian: its own words, unlike «Повторить ставки», «Сдать», «Отменить»; one press bets again and deals', async () => {
    const { el, worker } = await mountFeel({ lang: 'ru' });
    const words = (name: string) => actionButton(el, name).textContent.trim();
    expect([words('repeat'), words('deal'), words('clear')]).to.deep.equal(['Повторить ставки', 'Сдать', 'Отменить']);
    const mine = words('repeatDeal');
    expect(mine).to.equal('Играть снова');
    for (const other of ['Повтор', 'Сдать', 'Сдач', 'Отмен']) expect(mine.toLowerCase()).to.not.include(other.toLowerCase());
    el.placeBet(2, 'banker');
    el.placeBet(2, 'banker');
    const first = await playRounds(el, 1);
    // A tie leaves the Banker bets on the felt (RULES.md), for Deal; Repeat and deal is for an empty felt.
    if (first[0]!.body.outcome === 'tie') {
      await settle(el);
      expect(el.bets.length).to.be.greaterThan(0);
      expect(actionButton(el, 'repeatDeal').getAttribute('aria-disabled')).to.equal('true');
      el.clearBets();
    }
    await until(() => actionButton(el, 'repeatDeal').getAttribute('aria-disabled') === 'false', 'repeat and deal to be offered');
    const settledRounds: unknown[] = [];
    el.addEventListener('pb-round-settled', (e) => settledRounds.push(e));
    actionButton(el, 'repeatDeal').click();
    await until(() => settledRounds.length === 1, 'the repeated round');
    expect(el.bets.length === 0 || el.state === 'settled').to.equal(true);
    expect(el.state).to.equal('settled');
    expect(first.length).to.equal(1);
    // The same bets went out again: the round request's bets are the first round's.
    const bets = worker.requests('rounds').map((r) => JSON.stringify((r.body as { bets?: unknown })?.bets ?? null));
    expect(bets.length).to.be.at.least(2);
  });

  it('the R key does the same (not while typing in a field)', async () => {
    const { el } = await mountFeel();
    await playRounds(el, 1);
    await until(() => el.state === 'settled');
    const played = new Promise((resolve) => el.addEventListener('pb-round-settled', resolve, { once: true }));
    actionButton(el, 'undo').focus();
    await sendKeys({ press: 'r' });
    await played;
  });
});

describe('one chip palette, read from the tray and the felt', () => {
  it('every chip of the room is the same colour in the tray and in its stack on the felt', async () => {
    const { el } = await mountTable({ scene: 'real', width: 960 });
    await until(() => el.scene !== null, 'the Pixi scene', 20_000);
    const scene = el.scene as unknown as PixiTable;
    const chips = el.limits!.chips;
    for (const chip of chips) {
      el.clearBets();
      el.selectChip(chip);
      el.placeBet(2, 'banker');
      await settle(el);
      const tray = getComputedStyle(chipButton(el, chip)).getPropertyValue('--chip').trim().toLowerCase();
      const felt = scene.peekStack(2, 'banker')!.colours[0]!.base;
      expect(tray, `chip ${chip}`).to.equal(`#${felt.toString(16).padStart(6, '0')}`);
    }
  });
});

describe('switches leave nothing stale', () => {
  it('a room switch clears the old round, its result and its win from the felt and the bar', async () => {
    const { el, scene } = await mountFeel();
    el.placeBet(0, 'banker');
    await playRounds(el, 1);
    expect(shadow(el).querySelector('.meter[part="win"]') !== null || el.state === 'settled').to.equal(true);
    el.setAttribute('room', 'hall-2');
    // The session has played: the table asks first (table-play.test.ts); the player says yes.
    await until(() => shadow(el).querySelector('.switch-confirm'), 'the switch question');
    shadow(el).querySelector<HTMLButtonElement>('.switch-confirm')!.click();
    await until(() => el.state === 'ready' && el.limits?.min === 1000, 'the hall-2 session');
    await settle(el);
    expect(
      scene()
        .called('clearRound')
        .some((a) => (a[0] as { instant?: boolean } | undefined)?.instant === true),
    ).to.equal(true);
    expect(shadow(el).querySelector('.meter[part="win"]')).to.equal(null);
    expect(shadow(el).querySelector('.plain-round')).to.equal(null);
    expect(shadow(el).querySelector('.status')!.textContent.trim()).to.equal('Place your bets');
  });

  it('a language switch relabels the scene in the new language and money format, also for a scene made later', async () => {
    const { el, scene, made } = await mountFeel();
    await playRounds(el, 1);
    el.lang = 'ru';
    await until(() => scene().options.language === 'ru', 'the scene in Russian');
    expect(scene().options.labels.returned).to.equal('Возврат');
    expect(scene().options.labels.discard).to.equal('Отбой'); // text 000's word
    expect(scene().options.formatAmount(1500)).to.match(/1,50\s€/);
    expect(shadow(el).querySelector('.status')!.textContent).to.match(/Выиграл|Ничья|Банкир|Игрок/);
    // The scene given back (out of view, or the table moved): the next one is made in Greek.
    const holder = el.parentElement!;
    el.remove();
    el.lang = 'el';
    holder.append(el);
    await until(() => made.length === 2 && el.scene === made[1], 'a new scene');
    await until(() => made[1]!.options.language === 'el', 'the new scene in Greek');
    expect(made[1]!.options.labels.returned).to.equal('Επιστροφή');
  });

  it("the table's wrapper carries its language, so CSS capitals follow it (Greek drops the tonos)", async () => {
    const { el } = await mountFeel({ lang: 'el' });
    const table = shadow(el).querySelector('.table')!;
    expect(table.getAttribute('lang')).to.equal('el');
    // Chromium uppercases Greek by the language: «Υπόλοιπο» → «ΥΠΟΛΟΙΠΟ» without the tonos.
    const probe = document.createElement('span');
    probe.style.textTransform = 'uppercase';
    probe.textContent = 'Ήχος';
    table.append(probe);
    const width = probe.getBoundingClientRect().width;
    probe.textContent = 'ΗΧΟΣ';
    probe.style.textTransform = 'none';
    expect(probe.getBoundingClientRect().width).to.be.closeTo(width, 0.5);
    probe.remove();
    el.lang = 'en';
    await until(() => table.getAttribute('lang') === 'en', 'English');
  });
});

describe('the table fits the screen', () => {
  for (const [width, height] of [
    [1280, 720],
    [390, 844],
    [844, 390],
  ] as const) {
    it(`${width}×${height}: felt, chips, balance and every control inside the viewport`, async () => {
      await setViewport({ width, height });
      document.body.style.margin = '0';
      try {
        const { el } = await mountFeel({}, new FakeWorker(), width);
        await settle(el);
        await new Promise((r) => setTimeout(r, 100));
        await settle(el);
        const root = shadow(el);
        const controls = [
          root.querySelector('.stage')!,
          ...root.querySelectorAll('.chip:not(.ghost), .box, .bar button:not([hidden]), .meter, .drawer-bar button'),
        ].filter((c) => getComputedStyle(c).display !== 'none');
        expect(controls.length).to.be.greaterThan(25);
        for (const c of controls) {
          const r = c.getBoundingClientRect();
          const what = `${c.className || c.tagName} ${c.getAttribute('data-action') ?? c.getAttribute('data-tool') ?? c.getAttribute('data-panel') ?? ''}`;
          expect(r.left, what).to.be.at.least(-0.5);
          expect(r.top, what).to.be.at.least(-0.5);
          expect(r.right, what).to.be.at.most(width + 0.5);
          expect(r.bottom, what).to.be.at.most(height + 0.5);
        }
        // The whole table, not only its controls: nothing of it lies below the fold.
        expect(el.getBoundingClientRect().bottom).to.be.at.most(height + 0.5);
      } finally {
        document.body.style.margin = '';
        await setViewport({ width: 800, height: 600 });
      }
    });
  }

  it('a full-screen button where the page allows it', async () => {
    const { el } = await mountFeel();
    expect(tool(el, 'fullscreen') !== null).to.equal(document.fullscreenEnabled);
  });
});

describe('sound', () => {
  it('makes no audio context before a gesture on the table, and one after', async () => {
    const real = window.AudioContext;
    let made = 0;
    class CountingContext extends real {
      constructor(opts?: AudioContextOptions) {
        super(opts);
        made++;
      }
    }
    window.AudioContext = CountingContext;
    try {
      const { el } = await mountFeel();
      await until(() => !!shadow(el).querySelector('.tool.sound'), 'the sound button');
      await playRounds(el, 2);
      expect(made).to.equal(0);
      await sendMouse({ type: 'click', position: centre(shadow(el).querySelector('.meter')!) });
      await until(() => made === 1, 'the audio context after the click');
    } finally {
      window.AudioContext = real;
    }
  });

  it('the mute choice is remembered for the next table, and the page can mute by attribute', async () => {
    const { el } = await mountFeel();
    await settle(el);
    expect(el.muted).to.equal(false);
    tool(el, 'sound').click();
    await settle(el);
    expect(el.muted).to.equal(true);
    expect(el.hasAttribute('muted')).to.equal(true);
    expect(tool(el, 'sound').getAttribute('aria-pressed')).to.equal('false');
    expect(localStorage.getItem(SOUND_STORAGE_KEY)).to.equal('1');
    unmountAll();
    const next = await mountFeel();
    await until(() => next.el.muted, 'the remembered mute');
    tool(next.el, 'sound').click();
    await settle(next.el);
    expect(localStorage.getItem(SOUND_STORAGE_KEY)).to.equal('0');
    unmountAll();
    const muted = (await mountFeel({ muted: '' })).el;
    await settle(muted);
    expect(muted.muted).to.equal(true);
  });

  it('fast speed: a button and the speed attribute, passed to the scene', async () => {
    const { el, scene } = await mountFeel({ speed: 'fast' });
    expect(scene().options.speed).to.equal('fast');
    expect(tool(el, 'fast').getAttribute('aria-pressed')).to.equal('true');
    tool(el, 'fast').click();
    await settle(el);
    expect(el.getAttribute('speed')).to.equal('normal');
    expect(scene().options.speed).to.equal('normal');
  });
});
