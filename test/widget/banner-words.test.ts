/**
 * The result banner's words and the hands' names on small screens, in Chromium with the real
 * scene, measured on the scene's own rects: the banner's headline and score stay readable (at
 * least 11 and 9 px) where the plate is narrow (an upright phone, in Russian and Greek, the longest
 * words), inside the plate and apart (a phone held sideways keeps one line: its plate is wide); a hand's printed name never touches its total's disc (a phone
 * held sideways), in every language.
 */
import { expect } from 'chai';
import { setViewport } from '@web/test-runner-commands';
import type { PixiTable } from '../../widget/scene/table-scene.ts';
import { frameWidth, LANGUAGES, overlaps } from './layout-checks.ts';
import { FakeWorker, mountTable, shadow, unmountAll, until } from './helpers.ts';

/** The rect grown by `d` px on every side. */
const grown = (r: { x: number; y: number; w: number; h: number }, d: number) => ({ x: r.x - d, y: r.y - d, w: r.w + 2 * d, h: r.h + 2 * d });

describe('the banner’s words and the hands’ names on small screens', function () {
  this.timeout(180_000);

  afterEach(async () => {
    unmountAll();
    document.body.style.margin = '';
    await setViewport({ width: 800, height: 600 });
  });

  for (const [width, height, langs, checkBanner] of [
    [390, 844, ['ru', 'el', 'en'], true],
    [360, 640, ['el', 'ru', 'it'], true],
    [844, 390, LANGUAGES, false],
  ] as const)
    it(`${width}×${height} (${langs.join(', ')}): ${checkBanner ? 'the headline ≥ 11 px and the score ≥ 9 px, ' : ''}the banner's words inside the plate and apart; each hand's name 2 px or more from its total`, async () => {
      await setViewport({ width, height });
      document.body.style.margin = '0';
      const worker = new FakeWorker();
      // Both hands draw a third card; Player wins 5 to 2 (the words of the defect: "ВЫИГРАЛ ИГРОК · ИГРОК 5 · БАНКИР 2").
      worker.script = langs.map(() => ['AD', '4C', '4H', '6H', 'JH', '2S']);
      const { el } = await mountTable({ worker, width: frameWidth(width, height), scene: 'real', attrs: { lang: langs[0], 'reduced-motion': '' } });
      await until(() => el.scene, 'the scene', 30_000);
      const scene = el.scene as unknown as PixiTable;
      const problems: string[] = [];
      for (const lang of langs) {
        el.lang = lang;
        await el.updateComplete;
        await until(() => shadow(el).querySelector('.table')?.getAttribute('lang') === lang, lang, 10_000);
        el.placeBet(1, 'player');
        await el.deal();
        await until(() => el.state === 'settled', 'settled', 30_000);
        await new Promise((r) => requestAnimationFrame(() => r(null)));
        const words = scene.inspect().bannerWords;
        const drawn = Object.fromEntries(scene.drawnRects().map((d) => [d.name, d]));
        if (!words) {
          problems.push(`${lang}: no banner`);
          continue;
        }
        if (checkBanner && words.headline < 11) problems.push(`${lang}: the headline is ${words.headline.toFixed(1)} px`);
        if (checkBanner && words.detail < 9) problems.push(`${lang}: the score is ${words.detail.toFixed(1)} px`);
        const plate = drawn['result banner']!;
        const headline = drawn['result headline']!;
        const score = drawn['result score']!;
        for (const w of [headline, score])
          if (w.x < plate.x || w.y < plate.y || w.x + w.w > plate.x + plate.w || w.y + w.h > plate.y + plate.h)
            problems.push(`${lang}: the ${w.name} leaves the plate`);
        if (overlaps(headline, score, 0.5)) problems.push(`${lang}: the headline on the score`);
        for (const hand of ['Player', 'Banker']) {
          const label = drawn[`${hand} label`];
          const total = drawn[`${hand} total`];
          if (!label || !total) problems.push(`${lang}: no ${hand} label or total`);
          else if (overlaps(grown(label, 2), total))
            problems.push(`${lang}: the ${hand} label [${[label.x, label.w].map(Math.round)}] touches its total [${[total.x, total.w].map(Math.round)}]`);
        }
      }
      expect(problems, `${width}×${height}`).to.deep.equal([]);
    });
});
