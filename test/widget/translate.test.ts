/** The translator: dotted keys, the English fallback, placeholders, one language per element; the one placeholder syntax it shares with the panels. */
import { expect } from 'chai';
import { en } from '../../widget/i18n/en.ts';
import { createTranslator, translate } from '../../widget/i18n/index.ts';
import { panelsEl } from '../../widget/i18n/panels-el.ts';
import { panelsIt } from '../../widget/i18n/panels-it.ts';
import { panelsRu } from '../../widget/i18n/panels-ru.ts';
import { fill } from '../../widget/i18n/placeholders.ts';
import { ru } from '../../widget/i18n/ru.ts';
import { fill as panelsFill, PANEL_STRINGS } from '../../widget/panels/strings.ts';

describe('translate', () => {
  it('reads a dotted key and fills every placeholder, spaces inside braces allowed', () => {
    expect(translate(en, 'box.player')).to.equal('Player');
    expect(translate(en, 'boxLabelBet', { box: 'Player', sector: 2, amount: '€1.00' })).to.equal('Player, sector 2, bet €1.00');
    expect(translate({ ...en, sector: 'Sector {{ sector }}' }, 'sector', { sector: 4 })).to.equal('Sector 4');
  });
  it('falls back to English for a missing key, and to the key itself when English lacks it too', () => {
    const partial = { ...ru, deal: undefined } as unknown as typeof en;
    expect(translate(partial, 'deal')).to.equal(en.deal);
    expect(translate(ru, 'no.such.key')).to.equal('no.such.key');
    // A key that names a group of strings is not a string.
    expect(translate(ru, 'box')).to.equal('box');
  });
  it('leaves a placeholder without a value visible rather than blank', () => {
    expect(translate(en, 'sector')).to.equal('Sector {{sector}}');
  });
  it('two translators switch languages independently', async () => {
    const a = await createTranslator('en');
    const b = await createTranslator('en');
    await b.setLanguage('ru');
    expect(a.language).to.equal('en');
    expect(b.language).to.equal('ru');
    expect(a.t('deal')).to.equal(en.deal);
    expect(b.t('deal')).to.equal(ru.deal);
    expect(b.money(1500, 'EUR')).to.match(/1,5/);
  });
});

describe('fill: the placeholders of the translator and the panels alike', () => {
  it('fills {{name}}, spaces inside the braces allowed, every occurrence', () => {
    expect(fill('{{a}} and {{ b }} and {{a}}', { a: 1, b: 'two' })).to.equal('1 and two and 1');
    expect(fill('Shoe {{shoe}}', { shoe: 0 })).to.equal('Shoe 0');
  });
  it('leaves a name without a value, an inherited name and single braces as they are', () => {
    expect(fill('{{shoe}}, {{toString}}, {shoe}', { shoe: 3 })).to.equal('3, {{toString}}, {shoe}');
    expect(fill('Round {{round}}')).to.equal('Round {{round}}');
  });
  it('is the function the panels use', () => {
    expect(panelsFill).to.equal(fill);
  });
  it('every panel text, in every language, writes its placeholders as {{name}}', () => {
    const single = /(?<!\{)\{\s*\w+\s*\}(?!\})/;
    for (const [name, catalog] of Object.entries({ en: PANEL_STRINGS, ru: panelsRu, it: panelsIt, el: panelsEl })) {
      for (const [key, text] of Object.entries(catalog)) expect(text, `${name}.${key}`).not.to.match(single);
    }
    // Given every name it holds, a panel text keeps no placeholder.
    const names = Object.fromEntries(Object.values(PANEL_STRINGS).flatMap((t) => [...t.matchAll(/\{\{(\w+)\}\}/g)].map((m) => [m[1]!, 'x'] as const)));
    for (const text of Object.values(PANEL_STRINGS)) expect(fill(text, names)).not.to.contain('{{');
  });
  it('a panel text read through the translator fills the same as the panel fills it', () => {
    expect(translate(ru, 'panels.shoeRound', { shoe: 2, round: 7 })).to.equal(fill(panelsRu.shoeRound, { shoe: 2, round: 7 }));
    expect(translate(en, 'panels.shoeRound', { shoe: 2, round: 7 })).to.equal('Shoe 2, round 7');
    // Read without values (as the table hands its catalog to the panels), the placeholders survive for the panel to fill.
    expect(fill(translate(ru, 'panels.shoeRound'), { shoe: 2, round: 7 })).to.equal(fill(panelsRu.shoeRound, { shoe: 2, round: 7 }));
  });
});
