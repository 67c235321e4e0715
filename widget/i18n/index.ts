/**
 * The widget's translations: one i18next instance PER ELEMENT (`createInstance`), so several
 * tables in different languages coexist on one page and nothing global is touched. Loaded lazily
 * (i18next alone is ~16 KB gzip, more than the whole loader may weigh). English, the fallback,
 * comes with it; every other catalog is its own small chunk, fetched the first time a table
 * needs that language.
 */
import i18next, { type i18n } from 'i18next';
import { MINOR_UNITS } from '../../shared/table.ts';
import { type Catalog, en } from './en.ts';
import { LANGUAGES, type Language } from './languages.ts';

const CATALOGS: Readonly<Record<Language, () => Promise<Catalog>>> = {
  en: async () => en,
  ru: async () => (await import('./ru.ts')).ru,
  it: async () => (await import('./it.ts')).it,
  el: async () => (await import('./el.ts')).el,
};

/** Adds `lang`'s catalog to the instance unless it has it. */
async function ensureCatalog(instance: i18n, lang: Language): Promise<void> {
  if (!instance.hasResourceBundle(lang, 'translation')) instance.addResourceBundle(lang, 'translation', await CATALOGS[lang]());
}

export { LANGUAGES, type Language };

/** A translator bound to one element. */
export interface Translator {
  readonly language: Language;
  t(key: string, values?: Record<string, string | number>): string;
  setLanguage(lang: Language): Promise<void>;
  /** Minor units as money in the current language: 1500 → "€1.50", 95 → "€0.095". */
  money(minor: number, currency: string): string;
  /** Minor units as a bare short number for chips: 500 → "0.5", 1000000 → "1K". */
  chip(minor: number): string;
}

/** Creates an independent translator already switched to `lang`. */
export async function createTranslator(lang: Language): Promise<Translator> {
  const instance: i18n = i18next.createInstance();
  const first = await CATALOGS[lang]();
  await instance.init({
    lng: lang,
    fallbackLng: 'en',
    supportedLngs: [...LANGUAGES],
    resources: { en: { translation: en }, [lang]: { translation: first } },
    // Lit escapes every interpolated value itself; escaping here would show "&amp;".
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  const formats = new Map<string, Intl.NumberFormat>();
  const format = (key: string, make: () => Intl.NumberFormat): Intl.NumberFormat => {
    let f = formats.get(key);
    if (!f) formats.set(key, (f = make()));
    return f;
  };
  return {
    get language() {
      return instance.language as Language;
    },
    t: (key, values) => instance.t(key, values ?? {}) as string,
    setLanguage: async (next) => {
      await ensureCatalog(instance, next);
      await instance.changeLanguage(next);
    },
    money: (minor, currency) => format(`${instance.language} ${currency}`, () => moneyFormat(instance.language, currency)).format(minor / MINOR_UNITS),
    chip: (minor) => format(instance.language, () => new Intl.NumberFormat(instance.language, { notation: 'compact', maximumFractionDigits: 2 })).format(minor / MINOR_UNITS),
  };
}

/** A currency formatter showing tenths of a cent when there are any; an unknown currency code falls back to plain numbers. */
function moneyFormat(language: string, currency: string): Intl.NumberFormat {
  try {
    return new Intl.NumberFormat(language, { style: 'currency', currency, maximumFractionDigits: 3 });
  } catch {
    return new Intl.NumberFormat(language, { minimumFractionDigits: 2, maximumFractionDigits: 3 });
  }
}
