/** Languages (switching, several tables on one page, Intl amounts) and reduced motion. */
import { expect } from 'chai';
import { emulateMedia } from '@web/test-runner-commands';
import { action, boxButton, chipButton, FakeWorker, liveText, mountTable, settle, shadow, unmountAll, until } from './helpers.ts';
import { en } from '../../widget/i18n/en.ts';
import { ru } from '../../widget/i18n/ru.ts';
import { it as italian } from '../../widget/i18n/it.ts';
import { el as greek } from '../../widget/i18n/el.ts';
import { normalizeLanguage } from '../../widget/i18n/languages.ts';

/** Every key path of a catalog, with the {{placeholders}} of its string. */
function shape(catalog: object, prefix = ''): string[] {
  return Object.entries(catalog).flatMap(([k, v]) =>
    typeof v === 'string'
      ? [
          `${prefix}${k}:${[...v.matchAll(/\{\{(\w+)\}\}/g)]
            .map((m) => m[1])
            .sort()
            .join(',')}`,
        ]
      : shape(v as object, `${prefix}${k}.`),
  );
}

describe('catalogs', () => {
  it('ru, it and el have exactly the keys and placeholders of en', () => {
    const reference = shape(en).sort();
    for (const [name, catalog] of Object.entries({ ru, it: italian, el: greek })) {
      expect(shape(catalog).sort(), name).to.deep.equal(reference);
    }
  });

  it('maps lang values onto the four languages', () => {
    expect(['ru-RU', 'IT', 'el_GR', 'en-GB', 'fr', '', undefined].map(normalizeLanguage)).to.deep.equal(['ru', 'it', 'el', 'en', 'en', 'en', 'en']);
  });
});

describe('<punto-banco-table> languages', () => {
  afterEach(unmountAll);

  it('switches language live: names, controls, amounts and the scene labels', async () => {
    const { el, scene } = await mountTable({ attrs: { room: 'hall-2' } });
    el.placeBet(0, 'banker');
    await settle(el);
    el.lang = 'it';
    await until(() => action(el, 'deal').textContent.trim() === 'Distribuisci', 'Italian controls');
    expect(boxButton(el, 0, 'banker').getAttribute('aria-label')).to.equal('Banco, settore 1, puntata 1,00\u00a0€');
    expect(chipButton(el, 1000).getAttribute('aria-label')).to.equal('Fiche da 1,00\u00a0€');
    expect(chipButton(el, 1000).textContent.trim()).to.equal('1');
    expect(scene!.options.labels.banker).to.equal('Banco');
    expect(scene!.options.limitsText).to.equal('1,00\u00a0€ – 100,00\u00a0€');
    expect(scene!.options.formatAmount(1500)).to.equal('1,50\u00a0€');
    el.setAttribute('lang', 'el');
    await until(() => action(el, 'deal').textContent.trim() === 'Μοίρασμα', 'Greek controls');
    expect(boxButton(el, 0, 'player').getAttribute('aria-label')).to.equal('Punto, τομέας 1, χωρίς ποντάρισμα');
    el.setAttribute('lang', 'ru');
    await until(() => action(el, 'deal').textContent.trim() === 'Сдать', 'Russian controls');
    expect(shadow(el).querySelector('[part="balance"] .label')!.textContent).to.equal('Баланс');
  });

  it('announces results in the current language', async () => {
    const worker = new FakeWorker();
    worker.script = [['4S', '7H', 'AD', 'KC', '9H']];
    const { el } = await mountTable({ worker, attrs: { lang: 'ru' } });
    el.placeBet(0, 'banker');
    await el.deal();
    await until(() => el.state === 'settled', 'settled');
    // The score names its hands (never «7 против 4», which reads as odds); 0.095 shows in the euro's own unit.
    expect(liveText(el)).to.equal('Выиграл Банкир · Банкир 7, Игрок 4. Вы выиграли 0,10\u00a0€.');
  });

  it('an error already shown is said again in the new language', async () => {
    const worker = new FakeWorker();
    const { el } = await mountTable({ worker });
    el.placeBet(0, 'player');
    worker.faults.push({ route: 'rounds', times: 1, kind: 'network' });
    await el.deal();
    expect(el.state).to.equal('error');
    el.lang = 'it';
    await until(() => shadow(el).querySelector('[part="notice"]')!.textContent.includes('Il server del tavolo non risponde'), 'the Italian notice');
    expect(shadow(el).querySelector('[part~="retry"]')!.textContent.trim()).to.equal('Riprova');
  });

  it('several tables with different languages and currencies coexist on one page', async () => {
    const a = await mountTable({ attrs: { lang: 'it', currency: 'EUR' } });
    const b = await mountTable({ attrs: { lang: 'el', currency: 'USD' } });
    const c = await mountTable({ attrs: { lang: 'en', currency: 'GBP', room: 'vip' } });
    expect(action(a.el, 'deal').textContent.trim()).to.equal('Distribuisci');
    expect(action(b.el, 'deal').textContent.trim()).to.equal('Μοίρασμα');
    expect(action(c.el, 'deal').textContent.trim()).to.equal('Deal');
    expect(shadow(b.el).querySelector('[part="balance"] output')!.textContent).to.equal('1.000,00\u00a0$');
    expect(shadow(c.el).querySelector('[part="balance"] output')!.textContent).to.equal('£1,000.00');
    a.el.lang = 'ru';
    await until(() => action(a.el, 'deal').textContent.trim() === 'Сдать', 'a in Russian');
    expect(action(b.el, 'deal').textContent.trim()).to.equal('Μοίρασμα');
    expect(action(c.el, 'deal').textContent.trim()).to.equal('Deal');
  });

  it('falls back to the page language, then English', async () => {
    document.documentElement.lang = 'it';
    try {
      const { el } = await mountTable({ attrs: { lang: '' } });
      el.removeAttribute('lang');
      await until(() => action(el, 'deal').textContent.trim() === 'Distribuisci', 'the page language');
    } finally {
      document.documentElement.lang = '';
    }
  });
});

describe('<punto-banco-table> reduced motion', () => {
  afterEach(async () => {
    unmountAll();
    await emulateMedia({ reducedMotion: 'no-preference' });
  });

  it('follows prefers-reduced-motion live and tells the scene', async () => {
    await emulateMedia({ reducedMotion: 'no-preference' });
    const { el, scene } = await mountTable();
    expect(el.effectiveReducedMotion).to.equal(false);
    expect(scene!.options.reducedMotion).to.equal(false);
    expect(getComputedStyle(chipButton(el, 500)).transitionProperty).to.equal('transform, box-shadow');
    await emulateMedia({ reducedMotion: 'reduce' });
    await until(() => el.effectiveReducedMotion, 'the media change');
    await settle(el);
    expect(scene!.options.reducedMotion).to.equal(true);
    expect(el.hasAttribute('data-reduced-motion')).to.equal(true);
    // Nothing transitions (not a short transition on every property: styles/loader.ts).
    expect(getComputedStyle(chipButton(el, 500)).transitionProperty).to.equal('none');
    await emulateMedia({ reducedMotion: 'no-preference' });
    await until(() => !el.effectiveReducedMotion, 'back to motion');
    await settle(el);
    expect(scene!.options.reducedMotion).to.equal(false);
    expect(getComputedStyle(chipButton(el, 500)).transitionProperty).to.equal('transform, box-shadow');
  });

  it('the reduced-motion attribute overrides the OS setting either way', async () => {
    await emulateMedia({ reducedMotion: 'no-preference' });
    const { el, scene } = await mountTable({ attrs: { 'reduced-motion': '' } });
    expect(scene!.options.reducedMotion).to.equal(true);
    el.setAttribute('reduced-motion', 'false');
    await emulateMedia({ reducedMotion: 'reduce' });
    await settle(el);
    expect(el.effectiveReducedMotion).to.equal(false);
    expect(scene!.options.reducedMotion).to.equal(false);
    el.removeAttribute('reduced-motion');
    // Media change events arrive with the next frame.
    await until(() => el.effectiveReducedMotion, 'the OS setting to apply again');
    await settle(el);
    expect(scene!.options.reducedMotion).to.equal(true);
  });
});
