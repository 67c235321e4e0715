/** The scene's feel: capitals per language, one chip palette, banner fit, relabel, cut card, tie. */
import { expect } from 'chai';
import { createScene, type SceneOptions, type TableScene } from '../../widget/scene/index.ts';
import type { PixiTable } from '../../widget/scene/table-scene.ts';
import { CHIP_TONES, chipPalette, css } from '../../widget/scene/palette.ts';
import { loaderStyles } from '../../widget/element/loader-styles.ts';
import { tableStyles } from '../../widget/element/styles.ts';
import { ROOMS } from '../../shared/table.ts';
import { HALL_1_CHIPS, NATURAL, receiptFrom, SAMPLE_BETS, SCENE_OPTIONS, TIE } from './harness/receipts.ts';

const live: TableScene[] = [];

async function mount(opts: Partial<SceneOptions> = {}, size = { width: 960, height: 600 }): Promise<PixiTable> {
  const scene = await createScene({ ...SCENE_OPTIONS, ...opts }, size);
  live.push(scene);
  document.body.append(scene.canvas);
  return scene as unknown as PixiTable;
}

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
  afterEach(() => {
    for (const s of live.splice(0)) {
      s.canvas.remove();
      s.destroy();
    }
  });

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
  afterEach(() => {
    for (const s of live.splice(0)) {
      s.canvas.remove();
      s.destroy();
    }
  });

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
    const loader = loaderStyles.cssText;
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
