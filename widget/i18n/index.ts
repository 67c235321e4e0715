/**
 * The widget's translations: one translator PER ELEMENT, so several tables in different languages
 * coexist on one page and nothing global is touched. Loaded lazily. English, the fallback, comes
 * with it; every other catalog is its own small chunk, fetched the first time a table needs that
 * language. A key is a dotted path into a catalog (`box.player`); a value's `{{name}}` placeholders
 * are filled from `values` by `fill` (placeholders.ts, which the panels use too). Lit escapes every
 * interpolated value itself, so nothing is escaped here.
 */
import { MINOR_UNITS } from '../../shared/table.ts';
import { displayedReturn, roundForDisplay } from '../../shared/money.ts';
import { formatMoney, minorUnitDigits } from '../../shared/wallet/currency.ts';
import { type Catalog, en } from './en.ts';
import { LANGUAGES, type Language } from './languages.ts';
import { fill } from './placeholders.ts';

const CATALOGS: Readonly<Record<Language, () => Promise<Catalog>>> = {
  en: async () => en,
  ru: async () => (await import('./ru.ts')).ru,
  it: async () => (await import('./it.ts')).it,
  el: async () => (await import('./el.ts')).el,
};

export { LANGUAGES, type Language };

/** A translator bound to one element. */
export interface Translator {
  readonly language: Language;
  t(key: string, values?: Record<string, string | number>): string;
  setLanguage(lang: Language): Promise<void>;
  /**
   * Minor units as money in the current language, in the currency's own unit (shared/money.ts:
   * halves away from zero): 1500 → "€1.50", 95 → "€0.10", 995595 → "€995.60", JPY 1500 → "¥2".
   */
  money(minor: number, currency: string): string;
  /**
   * A round's net as the money row shows it, in minor units: the difference of its returned and
   * staked amounts each rounded to the currency's unit (shared/money.ts displayedReturn), so
   * "€0.20 · net −€0.20" for 195 returned on 400 staked, never "−€0.21".
   */
  net(returned: number, staked: number, currency: string): number;
  /** The exact figure, every minor unit shown (receipt details): 95 → "€0.095", 1500 → "€1.50". */
  exactMoney(minor: number, currency: string): string;
  /** Minor units as a bare short number for chips: 500 → "0.5", 1000000 → "1K". */
  chip(minor: number): string;
  /**
   * Wallet mode: `minor` in the currency's own ISO 4217 minor units (JPY 0 digits, EUR 2, BHD 3),
   * every unit shown, nothing rounded (shared/wallet/currency.ts `formatMoney`): EUR 100010 in it →
   * "1.000,10 €", JPY 1000 in en → "¥1,000", BHD 250 → "BHD 0.250".
   */
  isoMoney(minor: number, currency: string): string;
  /** Wallet mode: a chip's short value in the currency's major units: JPY 1000 → "1K", EUR 50 → "0.5", BHD 10000 → "10". */
  isoChip(minor: number, currency: string): string;
}

/** The string at a dotted path of a catalog, or undefined. */
function lookup(catalog: unknown, key: string): string | undefined {
  let node = catalog;
  for (const part of key.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** `key` in `catalog`, else in English, else the key itself; `{{name}}` filled from `values`. */
export function translate(catalog: Catalog, key: string, values: Record<string, string | number> = {}): string {
  return fill(lookup(catalog, key) ?? lookup(en, key) ?? key, values);
}

/** Creates an independent translator already switched to `lang`. */
export async function createTranslator(lang: Language): Promise<Translator> {
  let language = lang;
  let catalog = await CATALOGS[lang]();
  const formats = new Map<string, Intl.NumberFormat>();
  const format = (key: string, make: () => Intl.NumberFormat): Intl.NumberFormat => {
    let f = formats.get(key);
    if (!f) formats.set(key, (f = make()));
    return f;
  };
  return {
    get language() {
      return language;
    },
    t: (key, values) => translate(catalog, key, values),
    setLanguage: async (next) => {
      const nextCatalog = await CATALOGS[next]();
      language = next;
      catalog = nextCatalog;
    },
    money: (minor, currency) => {
      const f = format(`${language} ${currency}`, () => moneyFormat(language, currency));
      return f.format(roundForDisplay(minor, f.resolvedOptions().maximumFractionDigits ?? 2) / MINOR_UNITS);
    },
    net: (returned, staked, currency) => {
      const f = format(`${language} ${currency}`, () => moneyFormat(language, currency));
      return displayedReturn(returned, staked, f.resolvedOptions().maximumFractionDigits ?? 2).net;
    },
    exactMoney: (minor, currency) => format(`${language} ${currency} exact`, () => exactMoneyFormat(language, currency)).format(minor / MINOR_UNITS),
    chip: (minor) => compactUnits(format, language, minor / MINOR_UNITS),
    isoMoney: (minor, currency) => formatMoney(minor, currency, language),
    isoChip: (minor, currency) => {
      const digits = minorUnitDigits(currency);
      return compactUnits(format, language, digits.ok ? minor / 10 ** digits.value : minor);
    },
  };
}

/** A chip's short value: 0.5, 25, 1K (compact, at most two decimals). */
function compactUnits(format: (key: string, make: () => Intl.NumberFormat) => Intl.NumberFormat, language: string, units: number): string {
  return format(language, () => new Intl.NumberFormat(language, { notation: 'compact', maximumFractionDigits: 2 })).format(units);
}

/** A currency formatter with the currency's own fraction digits (EUR 2, JPY 0, BHD 3); an unknown currency code falls back to plain numbers with two. */
function moneyFormat(language: string, currency: string): Intl.NumberFormat {
  try {
    return new Intl.NumberFormat(language, { style: 'currency', currency });
  } catch {
    return new Intl.NumberFormat(language, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  }
}

/** A currency formatter showing every minor unit there is (tenths of a cent): for the receipt details. */
function exactMoneyFormat(language: string, currency: string): Intl.NumberFormat {
  const digits = Math.round(Math.log10(MINOR_UNITS));
  try {
    const own = new Intl.NumberFormat(language, { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    return new Intl.NumberFormat(language, { style: 'currency', currency, minimumFractionDigits: Math.min(own, digits), maximumFractionDigits: digits });
  } catch {
    return new Intl.NumberFormat(language, { minimumFractionDigits: 2, maximumFractionDigits: digits });
  }
}
