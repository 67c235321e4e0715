/**
 * Language and money formatting for one element, as a reactive controller. The catalogs, the translator
 * and the Intl formatting load lazily (a separate chunk); until they arrive only the loading text
 * is needed. Amounts are integer minor units formatted with Intl.NumberFormat in the element's
 * language: play money has 1000 per unit of the `currency` attribute; a wallet-mode session's
 * amounts are its own currency's ISO 4217 minor units (`setWalletCurrency`). This is the one place
 * the table turns an amount into text: every component asks it.
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
  /** The wallet-mode session's currency (its amounts in ISO minor units), or null: play money. */
  #walletCurrency: string | null = null;

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

  /** The currency amounts are shown in: the wallet session's, else the `currency` attribute's. */
  get currency(): string {
    return this.#walletCurrency ?? this.#currency;
  }

  /** Wallet mode: every amount is `currency`'s ISO 4217 minor units from now on; null: play money again. */
  setWalletCurrency(currency: string | null): void {
    if (currency === this.#walletCurrency) return;
    this.#walletCurrency = currency;
    this.#host.requestUpdate();
  }

  /** A translated string; before the catalogs load, the loading text for every key. */
  t(key: string, values?: Record<string, string | number>): string {
    return this.#translator ? this.#translator.t(key, values) : LOADING_TEXT[this.#language];
  }

  /** Minor units as money in the element's language and currency, in the currency's own unit: 1500 → "€1.50", 95 → "€0.10". */
  money(minor: number): string {
    const t = this.#translator;
    if (!t) return '';
    return this.#walletCurrency ? t.isoMoney(minor, this.#walletCurrency) : t.money(minor, this.#currency);
  }

  /** A round's net as the money row shows it: returned and staked rounded first, then subtracted (shared/money.ts). */
  net(returned: number, staked: number): number {
    // Wallet mode shows every ISO minor unit: nothing is rounded, the net is exact.
    if (!this.#translator || this.#walletCurrency) return returned - staked;
    return this.#translator.net(returned, staked, this.#currency);
  }

  /** The exact figure (receipt details): 95 → "€0.095". In wallet mode every ISO minor unit already shows. */
  exactMoney(minor: number): string {
    const t = this.#translator;
    if (!t) return '';
    return this.#walletCurrency ? t.isoMoney(minor, this.#walletCurrency) : t.exactMoney(minor, this.#currency);
  }

  /** Minor units as a bare number for chips: 500 → "0.5", 25000 → "25", 1000000 → "1K". */
  chip(minor: number): string {
    const t = this.#translator;
    if (!t) return '';
    return this.#walletCurrency ? t.isoChip(minor, this.#walletCurrency) : t.chip(minor);
  }
}
