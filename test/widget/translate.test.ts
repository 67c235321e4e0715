/** The translator: dotted keys, the English fallback, placeholders, one language per element. */
import { expect } from 'chai';
import { en } from '../../widget/i18n/en.ts';
import { createTranslator, translate } from '../../widget/i18n/index.ts';
import { ru } from '../../widget/i18n/ru.ts';

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
