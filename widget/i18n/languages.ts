/** The languages of the rule texts (shared/languages.ts), and the mapping of any `lang` value onto them. Tiny: part of the loader. */
import { LANGUAGES, type Language } from '../../shared/languages.ts';

export { LANGUAGES, type Language };

/** `ru-RU` → `ru`; anything unsupported → `en`. */
export function normalizeLanguage(raw: string | null | undefined): Language {
  const primary = (raw ?? '').trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return (LANGUAGES as readonly string[]).includes(primary) ? (primary as Language) : 'en';
}

/** The one string shown before the catalogs arrive (they load lazily with the translator). */
export const LOADING_TEXT: Readonly<Record<Language, string>> = {
  en: 'Loading the table…',
  ru: 'Загрузка стола…',
  it: 'Caricamento del tavolo…',
  el: 'Φόρτωση του τραπεζιού…',
};
