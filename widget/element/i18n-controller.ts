/**
 * Language and money formatting for one element, as a reactive controller. The catalogs, the translator
 * and the Intl formatting load lazily (a separate chunk); until they arrive only the loading text
 * is needed. Amounts are integer minor units (1000 per currency unit) formatted with
 * Intl.NumberFormat in the element's language and currency.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { type Language, LOADING_TEXT } from '../i18n/languages.ts';
import type { Translator } from '../i18n/index.ts';

type LoadTranslator = (lang: Language) => Promise<Translator>;

const loadDefault: LoadTranslator = async (lang) => (await import('../i18n/index.ts')).createTranslator(lang);

export class I18nController implements ReactiveController {
  #host: ReactiveControllerHost;
  #load: LoadTranslator;
  #translator: Translator | null = null;
  #loading: Promise<Translator> | null = null;
  #language: Language = 'en';
  #currency = 'EUR';

  constructor(host: ReactiveControllerHost, load: LoadTranslator = loadDefault) {
    this.#host = host;
    this.#load = load;
    host.addController(this);
  }

  hostConnected(): void {}

  get language(): Language {
    return this.#language;
  }

  /** True once the catalogs are loaded. */
  get ready(): boolean {
    return this.#translator !== null;
  }

  /** Loads the catalogs (once) in the current language. */
  async load(): Promise<void> {
    this.#loading ??= this.#load(this.#language);
    const translator = await this.#loading;
    if (translator.language !== this.#language) await translator.setLanguage(this.#language);
    this.#translator = translator;
    this.#host.requestUpdate();
  }

  /** Switches language (and currency); re-renders when the catalogs have switched. */
  async configure(language: Language, currency: string): Promise<void> {
    const changed = language !== this.#language || currency !== this.#currency;
    this.#language = language;
    this.#currency = currency;
    if (!changed) return;
    if (this.#translator && this.#translator.language !== language) await this.#translator.setLanguage(language);
    this.#host.requestUpdate();
  }

  /** A translated string; before the catalogs load, the loading text for every key. */
  t(key: string, values?: Record<string, string | number>): string {
    return this.#translator ? this.#translator.t(key, values) : LOADING_TEXT[this.#language];
  }

  /** Minor units as money in the element's language and currency, in the currency's own unit: 1500 → "€1.50", 95 → "€0.10". */
  money(minor: number): string {
    return this.#translator ? this.#translator.money(minor, this.#currency) : '';
  }

  /** A round's net as the money row shows it: returned and staked rounded first, then subtracted (shared/money.ts). */
  net(returned: number, staked: number): number {
    return this.#translator ? this.#translator.net(returned, staked, this.#currency) : returned - staked;
  }

  /** The exact figure (receipt details): 95 → "€0.095". */
  exactMoney(minor: number): string {
    return this.#translator ? this.#translator.exactMoney(minor, this.#currency) : '';
  }

  /** Minor units as a bare number for chips: 500 → "0.5", 25000 → "25", 1000000 → "1K". */
  chip(minor: number): string {
    return this.#translator ? this.#translator.chip(minor) : '';
  }
}
