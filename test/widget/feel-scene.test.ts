/** The scene's feel: capitals per language, one chip palette, banner fit, relabel, cut card, tie. */
import { expect } from 'chai';
import { createScene, type SceneOptions, type TableScene } from '../../widget/scene/index.ts';
import type { PixiTable } from '../../widget/scene/table-scene.ts';
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
