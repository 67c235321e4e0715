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

/** The same table in Russian (the longest banner) and Greek (capitals without the tonos). */
export const languages: Record<string, Partial<SceneOptions>> = {
  ru: {
    language: 'ru',
    labels: {
      player: 'Игрок',
      banker: 'Банкир',
      tie: 'Ничья',
      pays: { player: 'выплата 1 к 1', banker: 'выплата 0,95 к 1', tie: 'выплата 8 к 1' },
      result: { player: 'Выиграл Игрок', banker: 'Выиграл Банкир', tie: 'Ничья' },
      natural: 'Натуральная',
      returned: 'Возврат',
      discard: 'Сброс',
    },
    formatAmount: (minor) => `${new Intl.NumberFormat('ru', { minimumFractionDigits: 2 }).format(minor / 1000)} ₽`,
    limitsText: 'Лимиты 0,10 – 10,00',
  },
  el: {
    language: 'el',
    labels: {
      player: 'Punto',
      banker: 'Banco',
      tie: 'Tie',
      pays: { player: 'πληρώνει 1 προς 1', banker: 'πληρώνει 0,95 προς 1', tie: 'πληρώνει 8 προς 1' },
      result: { player: 'Κερδίζει το Punto', banker: 'Κερδίζει το Banco', tie: 'Ισοπαλία' },
      natural: 'Φυσικό',
      returned: 'Επιστροφή',
      discard: 'Απορρίψεις',
    },
  },
};

async function mount(width: number, height: number, reducedMotion = false, lang = 'en'): Promise<TableScene> {
  const host = document.getElementById('table')!;
  host.style.width = `${width}px`;
  host.style.height = `${height}px`;
  const scene = await createScene({ ...options, ...languages[lang], reducedMotion }, { width, height });
  host.replaceChildren(scene.canvas);
  scene.setShoe({ cardsLeft: 287, total: 312, discarded: 24, cutAt: 156 });
  scene.setBets(SAMPLE_BETS, HALL_1_CHIPS);
  return scene;
}

declare global {
  interface Window {
    pb: unknown;
  }
}

window.pb = { mount, languages, receiptFrom, rounds: { THIRD_CARDS, NATURAL, TIE }, SAMPLE_BETS, HALL_1_CHIPS };
