/** The catalogs' control words (as the rule texts name them) and capitals per language. */
import { expect } from 'chai';
import { el } from '../../widget/i18n/el.ts';
import { type Catalog, en } from '../../widget/i18n/en.ts';
import { it as itCatalog } from '../../widget/i18n/it.ts';
import { ru } from '../../widget/i18n/ru.ts';
import { upper } from '../../widget/i18n/upper.ts';

const CATALOGS: Record<string, Catalog> = { en, ru, it: itCatalog, el };
/** Every button of the control bar and of the error notice. */
const CONTROLS = ['deal', 'repeat', 'clear', 'undo', 'double', 'retry', 'dismiss'] as const;

describe('control words', () => {
  it('Russian uses the words of rule text 002 for Deal, Repeat and Clear; Undo is a word of its own', () => {
    expect(ru.deal).to.equal('Сдать');
    expect(ru.repeat).to.equal('Повторить ставки');
    expect(ru.clear).to.equal('Отменить');
    expect(ru.undo).to.equal('Шаг назад');
  });

  it('Greek names the three places on the felt as text 004 does; Italian calls a tie «patta» as 003 does', () => {
    expect([el.box.player, el.box.banker, el.box.tie]).to.deep.equal(['Punto', 'Banco', 'Tie']);
    expect(itCatalog.box.tie).to.equal('Patta');
  });

  for (const [lang, catalog] of Object.entries(CATALOGS)) {
    it(`${lang}: no two control labels are the same or contain one another`, () => {
      const words = CONTROLS.map((k) => [k, catalog[k].toLocaleLowerCase(lang)] as const);
      for (const [a, wa] of words) {
        expect(wa, `${lang}.${a}`).to.not.equal('');
        for (const [b, wb] of words) {
          if (a === b) continue;
          expect(wa.includes(wb), `${lang}: ${a} «${catalog[a]}» contains ${b} «${catalog[b]}»`).to.equal(false);
        }
      }
    });
  }

  it('the Undo messages do not borrow the Clear word', () => {
    expect(ru.nothingToUndo.toLocaleLowerCase('ru')).to.not.include('отмен');
    expect(itCatalog.nothingToUndo.toLocaleLowerCase('it')).to.not.include('annull');
  });
});

describe('upper', () => {
  it('drops the Greek tonos in capitals, which the default rules keep', () => {
    expect('Παίκτης'.toLocaleUpperCase('en')).to.equal('ΠΑΊΚΤΗΣ');
    expect(upper('Παίκτης', 'el')).to.equal('ΠΑΙΚΤΗΣ');
    expect(upper('Κερδίζει το Punto', 'el')).to.equal('ΚΕΡΔΙΖΕΙ ΤΟ PUNTO');
  });

  it('leaves other languages as their own rules write them, and survives a bad tag', () => {
    expect(upper('Выиграл Банкир', 'ru')).to.equal('ВЫИГРАЛ БАНКИР');
    expect(upper('Patta', 'it')).to.equal('PATTA');
    expect(upper('tie', 'not a tag!')).to.equal('TIE');
  });
});

describe('CSS capitals', () => {
  /** Width of `text` under `text-transform: uppercase` in an element of language `lang`. */
  function width(text: string, lang: string | null, transform = true): number {
    const span = document.createElement('span');
    if (lang) span.lang = lang;
    span.style.cssText = `font: 40px serif; white-space: pre; position: absolute; ${transform ? 'text-transform: uppercase;' : ''}`;
    span.textContent = text;
    document.body.append(span);
    const w = span.getBoundingClientRect().width;
    span.remove();
    return w;
  }

  it('text-transform drops the tonos only where the element is in Greek (what the table must set lang for)', () => {
    const plain = width('ΠΑΙΚΤΗΣ', null, false);
    const accented = width('ΠΑΊΚΤΗΣ', null, false);
    expect(accented).to.not.equal(plain);
    expect(width('Παίκτης', 'el')).to.equal(plain);
    expect(width('Παίκτης', 'en')).to.equal(accented);
  });
});
