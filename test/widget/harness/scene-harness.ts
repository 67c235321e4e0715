/**
 * Browser entry for the screenshot harness (scene.html): exposes the scene and sample rounds on
 * `window.pb` so that Playwright can drive them.
 */
import { createScene, type SceneOptions, type TableScene } from '../../../widget/scene/index.ts';
import { HALL_1_CHIPS, NATURAL, receiptFrom, SAMPLE_BETS, THIRD_CARDS, TIE } from './receipts.ts';

const amount = new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export const options: SceneOptions = {
  reducedMotion: false,
  labels: {
    player: 'Player',
    banker: 'Banker',
    tie: 'Tie',
    pays: { player: 'Pays 1 to 1', banker: 'Pays 19 to 20', tie: 'Pays 8 to 1' },
    result: { player: 'Player wins', banker: 'Banker wins', tie: 'Tie' },
    natural: 'Natural',
  },
  formatAmount: (minor) => amount.format(minor / 1000),
  limitsText: 'Limits 0.10 – 10.00',
};

async function mount(width: number, height: number, reducedMotion = false): Promise<TableScene> {
  const host = document.getElementById('table')!;
  host.style.width = `${width}px`;
  host.style.height = `${height}px`;
  const scene = await createScene({ ...options, reducedMotion }, { width, height });
  host.replaceChildren(scene.canvas);
  scene.setShoe({ cardsLeft: 287, total: 312, discarded: 24 });
  scene.setBets(SAMPLE_BETS, HALL_1_CHIPS);
  return scene;
}

declare global {
  interface Window {
    pb: unknown;
  }
}

window.pb = { mount, receiptFrom, rounds: { THIRD_CARDS, NATURAL, TIE }, SAMPLE_BETS, HALL_1_CHIPS };
