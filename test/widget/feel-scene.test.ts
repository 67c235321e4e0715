/** The scene's feel: capitals per language, one chip palette, banner fit, relabel, cut card, tie. */
import { expect } from 'chai';
import type { Container, Graphics, Text } from '../../widget/scene/pixi.ts';
import { createScene, type SceneOptions, type TableScene } from '../../widget/scene/index.ts';
import type { PixiTable } from '../../widget/scene/table-scene.ts';
import { CHIP_TONES, chipPalette, css } from '../../widget/scene/palette.ts';
import { loaderStyles } from '../../widget/styles/loader.ts';
import { tableStyles } from '../../widget/styles/table.ts';
import { ROOMS } from '../../shared/table.ts';
import { HALL_1_CHIPS, NATURAL, receiptFrom, SAMPLE_BETS, SCENE_OPTIONS, TIE } from './harness/receipts.ts';

const live: TableScene[] = [];

async function mount(opts: Partial<SceneOptions> = {}, size = { width: 960, height: 600 }): Promise<PixiTable> {
  const scene = await createScene({ ...SCENE_OPTIONS, ...opts }, size);
  live.push(scene);
  document.body.append(scene.canvas);
  return scene as unknown as PixiTable;
}

// Every describe below: each test's scenes go with it.
afterEach(() => {
  for (const s of live.splice(0)) {
    s.canvas.remove();
    s.destroy();
  }
});

const GREEK: Partial<SceneOptions> = {
  language: 'el',
  labels: {
    player: 'Punto',
    banker: 'Banco',
    tie: 'Tie',
    pays: { player: 'πληρώνει 1 προς 1', banker: 'πληρώνει 0,95 προς 1', tie: 'πληρώνει 8 προς 1' },
    result: { player: 'Κερδίζει το Punto', banker: 'Κερδίζει το Banco', tie: 'Ισοπαλία' },
    natural: 'Φυσικό',
  },
};

describe('scene feel', () => {
  it('writes Greek capitals without the tonos on the felt and the banner', async () => {
    const scene = await mount(GREEK);
    scene.showRound(receiptFrom(NATURAL, SAMPLE_BETS));
    const texts = scene.texts();
    expect(texts).to.include('ΚΕΡΔΙΖΕΙ ΤΟ PUNTO');
    expect(texts).to.include('ΠΛΗΡΩΝΕΙ 1 ΠΡΟΣ 1');
    expect(texts.some((t) => t.includes('ΦΥΣΙΚΟ'))).to.equal(true);
    expect(texts.join(' ')).to.not.match(/[ΆΈΉΊΌΎΏ]/);
  });
});

describe('one chip palette', () => {
  /** The canvas pixel at CSS (x, y), read right after a render. */
  function pixel(scene: PixiTable, x: number, y: number): number {
    scene.renderNow();
    const gl = (scene.canvas.getContext('webgl2') ?? scene.canvas.getContext('webgl'))!;
    const k = scene.canvas.width / scene.canvas.clientWidth;
    const out = new Uint8Array(4);
    gl.readPixels(Math.round(x * k), Math.round(scene.canvas.height - y * k), 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, out);
    return (out[0]! << 16) | (out[1]! << 8) | out[2]!;
  }

  function near(a: number, b: number, tolerance = 6): boolean {
    return [16, 8, 0].every((s) => Math.abs(((a >> s) & 255) - ((b >> s) & 255)) <= tolerance);
  }

  for (const [room, { limits }] of Object.entries(ROOMS)) {
    it(`${room}: every chip on the felt is drawn in the palette's colour for it, as the tray shows it`, async () => {
      const scene = await mount();
      const palette = chipPalette(limits.chips);
      limits.chips.forEach((chip, rank) => {
        expect(palette.get(chip), `${chip}`).to.equal(CHIP_TONES[rank]);
        scene.setBets([{ sector: 2, box: 'banker', amount: chip }], limits.chips);
        const peek = scene.peekStack(2, 'banker')!;
        expect(peek.colours).to.deep.equal([palette.get(chip)]);
        // Between the value and the inlay's rim: the chip's own colour, as painted.
        const seen = pixel(scene, peek.x, peek.y + peek.diameter * 0.23);
        expect(near(seen, palette.get(chip)!.base), `${chip}: ${seen.toString(16)} vs ${palette.get(chip)!.base.toString(16)}`).to.equal(true);
      });
    });
  }

  it('the DOM tray shows the same tones: its --pb-chip-N defaults and inks are the palette', () => {
    // The --pb-chip-N defaults come with the table's styles (the loading overlay shows no chips).
    const loader = loaderStyles.cssText + tableStyles.cssText;
    const table = tableStyles.cssText;
    CHIP_TONES.forEach((tone, i) => {
      expect(loader, `--pb-chip-${i + 1}`).to.match(new RegExp(`--pb-chip-${i + 1}:\\s*${css(tone.base)}`, 'i'));
      const ink = new RegExp(`data-tone='${i + 1}'\\]\\s*\\{[^}]*--chip-ink:\\s*([^;]+);`).exec(table)?.[1]?.trim();
      expect(inkOf(ink ?? ''), `ink of tone ${i + 1}`).to.equal(tone.text);
    });
  });
});

/** '#fff' or '#1b1b1b' as a number. */
function inkOf(colour: string): number {
  const hex = colour.replace('#', '');
  return Number.parseInt(hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex, 16);
}

const RUSSIAN: Partial<SceneOptions> = {
  language: 'ru',
  labels: {
    player: 'Игрок',
    banker: 'Банкир',
    tie: 'Ничья',
    pays: { player: 'выплата 1 к 1', banker: 'выплата 0,95 к 1', tie: 'выплата 8 к 1' },
    result: { player: 'Выиграл Игрок', banker: 'Выиграл Банкир', tie: 'Ничья' },
    natural: 'Натуральная',
    returned: 'Возврат',
  },
  formatAmount: (minor) => `${(minor / 1000).toFixed(2).replace('.', ',')} ₽`,
};

const SIZES = [
  { width: 960, height: 600 },
  { width: 390, height: 700 },
  { width: 1280, height: 560 },
];

/** The scene's private pieces a test looks at (the parts it orchestrates: bet-stacks.ts, effects.ts, shoe-moves.ts). */
interface Inside {
  felt: { names: Text[]; sectorDiscs: { x: number; y: number; r: number }[] };
  effects: { banner: Container & { children: Container[] }; winFlash: Graphics };
  stacks: { stacks: Map<string, Container>; payouts: Map<string, Container> };
  shoe: { discard: { nameText: Text }; shuffle: { front: Container; back: Container; marker: Container; size: { w: number } } };
  anim: { speed: number };
}
const inside = (scene: PixiTable): Inside => scene as unknown as Inside;

describe('scene layout of words and chips', () => {
  for (const size of SIZES) {
    it(`${size.width}×${size.height}: no chip covers a box name`, async () => {
      const scene = await mount(RUSSIAN, size);
      const bets = [0, 1, 2, 3, 4].flatMap((sector) => (['player', 'banker', 'tie'] as const).map((box) => ({ sector, box, amount: 10_000 + 2_000 + 500 })));
      scene.setBets(bets, HALL_1_CHIPS);
      // A Player natural pays every Punto box: payouts stand beside their bets too.
      scene.showRound(receiptFrom(NATURAL, bets));
      const names = inside(scene).felt.names;
      expect(names.length).to.equal(15);
      let checked = 0;
      for (const stack of [...inside(scene).stacks.stacks.values(), ...inside(scene).stacks.payouts.values()]) {
        if (!stack.visible) continue;
        const d = scene.peekStack(0, 'player')!.diameter;
        for (const child of stack.children) {
          if (!child.visible || !('texture' in child)) continue; // the chips (sprites)
          const centre = stack.toGlobal({ x: child.x, y: child.y });
          for (const name of names) {
            const p = name.toLocal(centre);
            const b = name.getLocalBounds();
            const s = name.scale.x;
            const dx = Math.max(b.x - p.x, 0, p.x - (b.x + b.width)) * s;
            const dy = Math.max(b.y - p.y, 0, p.y - (b.y + b.height)) * s;
            expect(Math.hypot(dx, dy), `chip over «${name.text}»`).to.be.greaterThan(d / 2 - 1.5);
          }
          checked++;
        }
      }
      expect(checked).to.be.greaterThan(15);
    });

    it(`${size.width}×${size.height}: the Russian banner fits its plate and covers no sector number`, async () => {
      const scene = await mount(RUSSIAN, size);
      scene.showRound(receiptFrom(NATURAL, SAMPLE_BETS));
      expect(scene.texts()).to.include('ВЫИГРАЛ ИГРОК');
      const banner = inside(scene).effects.banner;
      const plate = banner.children[0]!.getBounds();
      const h = plate.height;
      for (const text of banner.children.slice(1)) {
        if (!text.visible) continue;
        const b = text.getBounds();
        expect(b.x, 'left').to.be.at.least(plate.x + h * 0.3);
        expect(b.x + b.width, 'right').to.be.at.most(plate.x + plate.width - h * 0.3);
        expect(b.height).to.be.at.most(h);
      }
      for (const disc of inside(scene).felt.sectorDiscs) {
        const apart =
          disc.x + disc.r < plate.x || disc.x - disc.r > plate.x + plate.width || disc.y + disc.r < plate.y || disc.y - disc.r > plate.y + plate.height;
        expect(apart, `sector disc at ${Math.round(disc.x)},${Math.round(disc.y)}`).to.equal(true);
      }
    });
  }

  it('on a tie the Punto and Banco stakes show as returned, not as wins', async () => {
    const scene = await mount({ labels: { ...SCENE_OPTIONS.labels, returned: 'Returned' } });
    scene.setBets(SAMPLE_BETS, HALL_1_CHIPS);
    await scene.playRound(receiptFrom(TIE, SAMPLE_BETS));
    const texts = scene.texts();
    expect(texts).to.include.members(['Returned 2.50', 'Returned 7.00', 'Returned 10.00', '+4.00']);
    expect(texts.filter((t) => t.startsWith('+'))).to.deep.equal(['+4.00']);
    expect(scene.inspect().payouts).to.equal(1);
  });

  it('a live language switch relabels the felt, the banner and the payout pills', async () => {
    const scene = await mount({ labels: { ...SCENE_OPTIONS.labels, result: { player: 'Player wins', banker: 'Banker wins', tie: 'Tie' } } });
    scene.setBets(SAMPLE_BETS, HALL_1_CHIPS);
    await scene.playRound(receiptFrom(NATURAL, SAMPLE_BETS));
    expect(scene.texts()).to.include.members(['PLAYER WINS', '+2.50']);
    scene.setOptions(RUSSIAN);
    const texts = scene.texts();
    expect(texts).to.include.members(['ВЫИГРАЛ ИГРОК', '+2,50 ₽', '+10,00 ₽', 'ИГРОК', 'ВЫПЛАТА 0,95 К 1']);
    expect(
      texts.some((t) => /PLAYER|BANKER|\+2\.50/.test(t)),
      texts.join(' | '),
    ).to.equal(false);
  });

  it('clearRound({ instant: true }) takes cards, totals, banner and payouts off at once (a room switch)', async () => {
    const scene = await mount({ reducedMotion: false });
    scene.setBets(SAMPLE_BETS, HALL_1_CHIPS);
    scene.showRound(receiptFrom(NATURAL, SAMPLE_BETS));
    expect(scene.inspect().cards.length).to.equal(4);
    void scene.clearRound({ instant: true });
    const after = scene.inspect();
    expect([after.cards.length, after.banner, after.payouts, after.totals.player]).to.deep.equal([0, false, 0, null]);
  });

  it("'fast' doubles the animation speed; reduced motion stays instant whatever the speed", async () => {
    const scene = await mount({ reducedMotion: false });
    expect(inside(scene).anim.speed).to.equal(1);
    scene.setOptions({ speed: 'fast' });
    expect(inside(scene).anim.speed).to.equal(2);
    scene.setOptions({ reducedMotion: true });
    expect(inside(scene).anim.speed).to.equal(0);
  });
});

describe('shoe, cut card and shuffle', () => {
  it('labels the discard tray in the table language; the cut card lies there until a shoe holds it', async () => {
    const scene = await mount({ language: 'el', labels: { ...SCENE_OPTIONS.labels, discard: 'Απορρίψεις' } });
    expect(scene.texts()).to.include('ΑΠΟΡΡΙΨΕΙΣ');
    const name = inside(scene).shoe.discard.nameText;
    expect(name.scale.x).to.be.within(0.3, 1);
    expect(name.getBounds().width).to.be.greaterThan(20);
    expect(scene.inspect().cutCard).to.deep.equal({ shoe: false, tray: true, flying: false });
    scene.setShoe({ cardsLeft: 312, total: 312, discarded: 0, cutAt: 16 });
    expect(scene.inspect().cutCard).to.deep.equal({ shoe: true, tray: false, flying: false });
    scene.setShoe({ cardsLeft: 15, total: 312, discarded: 297, cutAt: 16 });
    expect(scene.inspect().cutCard).to.deep.equal({ shoe: false, tray: true, flying: false });
  });

  it('cutCardOut moves the cut card from the shoe to the tray, and a new shoe takes it back', async () => {
    const scene = await mount({ reducedMotion: false });
    scene.setShoe({ cardsLeft: 20, total: 312, discarded: 292, cutAt: 16 });
    expect(scene.inspect().cutCard.shoe).to.equal(true);
    const out = scene.cutCardOut();
    expect(scene.inspect().cutCard).to.deep.equal({ shoe: false, tray: false, flying: true });
    await out;
    expect(scene.inspect().cutCard).to.deep.equal({ shoe: false, tray: true, flying: false });
    // The count has not caught up yet: the card stays out.
    scene.setShoe({ cardsLeft: 18, total: 312, discarded: 294, cutAt: 16 });
    expect(scene.inspect().cutCard.tray).to.equal(true);
    scene.setShoe({ cardsLeft: 312, total: 312, discarded: 0, cutAt: 16 });
    expect(scene.inspect().cutCard).to.deep.equal({ shoe: true, tray: false, flying: false });
  });

  it('shuffleAndCut splits the stack where the player cut, then puts it in the shoe', async () => {
    const scene = await mount({ reducedMotion: false, speed: 'fast' });
    scene.setShoe({ cardsLeft: 312, total: 312, discarded: 0, cutAt: 156 });
    const shuffle = inside(scene).shoe.shuffle;
    const done = scene.shuffleAndCut(0.25);
    expect(scene.inspect().shuffling).to.equal(true);
    expect(scene.inspect().cutCard.shoe).to.equal(false);
    // Once the marker stands in the stack, it stands at the player's cut.
    await until(() => shuffle.marker.alpha === 1 && shuffle.marker.y === 0);
    const front = shuffle.front.getLocalBounds().width;
    expect(front / shuffle.size.w).to.be.closeTo(0.25, 0.02);
    await done;
    expect(scene.inspect().shuffling).to.equal(false);
    expect(scene.inspect().cutCard.shoe).to.equal(true);
  });

  it('under reduced motion the shuffle and the cut card are instant', async () => {
    const scene = await mount();
    scene.setShoe({ cardsLeft: 312, total: 312, discarded: 0, cutAt: 16 });
    // Both resolve before the next frame, with their end state in place.
    const frame = new Promise((r) => requestAnimationFrame(() => r('frame')));
    expect(await Promise.race([scene.shuffleAndCut(0.5).then(() => 'done'), frame])).to.equal('done');
    expect(scene.inspect().shuffling).to.equal(false);
    expect(scene.inspect().cutCard.shoe).to.equal(true);
    expect(await Promise.race([scene.cutCardOut().then(() => 'done'), frame])).to.equal('done');
    expect(scene.inspect().cutCard).to.deep.equal({ shoe: false, tray: true, flying: false });
  });

  it('flashes the winning boxes briefly, then leaves them as they were', async () => {
    const scene = await mount({ reducedMotion: false });
    const flash = inside(scene).effects.winFlash;
    const done = scene.flashWins([{ sector: 1, box: 'banker' }]);
    await until(() => flash.alpha > 0.5);
    expect(flash.getLocalBounds().width).to.be.greaterThan(20);
    await done;
    expect(flash.getLocalBounds().width).to.equal(0);
  });
});

/** Resolves once `check` holds, polling every frame (fails after 400 frames). */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await new Promise((r) => requestAnimationFrame(() => r(undefined)));
  }
  throw new Error('condition never held');
}

describe('sound cues', () => {
  it('tells the host each sound moment of a round, in order, and nothing under reduced motion', async () => {
    const heard: string[] = [];
    const scene = await mount({ reducedMotion: false, speed: 'fast', onCue: (cue) => heard.push(cue) });
    scene.setBets(SAMPLE_BETS, HALL_1_CHIPS);
    expect(heard.filter((c) => c === 'chipPlace')).to.have.length(SAMPLE_BETS.length);
    heard.length = 0;
    // Banker wins with six cards: Punto and Tie bets collected, Banco paid.
    await scene.playRound(receiptFrom(['2S', 'KH', '3D', '6C', '7H', '2D'], SAMPLE_BETS));
    expect(heard.filter((c) => c === 'cardSlide')).to.have.length(6);
    expect(heard.filter((c) => c === 'cardFlip')).to.have.length(6);
    expect(heard.slice(heard.indexOf('result'))).to.deep.equal(['result', 'chipsCollect', 'win', 'chipsPay']);
    heard.length = 0;
    scene.setOptions({ reducedMotion: true });
    await scene.clearRound();
    scene.setBets(SAMPLE_BETS, HALL_1_CHIPS);
    await scene.playRound(receiptFrom(NATURAL, SAMPLE_BETS));
    expect(heard).to.deep.equal([]);
  });
});
