/**
 * The element's loader (in the element's own chunk): it boots the table — the texts, the lazy
 * parts chunk (parts.ts) and the controllers made from it (table-controllers.ts), then the
 * session — and keeps the boot's failure with its Retry; it watches the page for the table (the
 * OS's reduced-motion setting, the first gesture that may start audio, the keyboard shortcuts,
 * full screen, the stage's size) and follows the language and currency. The element
 * (punto-banco-table.ts) keeps the public API and the render; it hands its lifecycle here.
 */
import { adoptStyles, type CSSResultOrNative, type PropertyValues } from 'lit';
import type { TableLayout } from '../layout.ts';
import { normalizeLanguage } from '../i18n/languages.ts';
import type { ApiError } from '../session/api-client.ts';
import type { Notice, TablePlay } from '../session/table-play.ts';
import type * as Parts from './parts.ts';
import { emit } from './emit.ts';
import { I18nController } from './i18n-controller.ts';
import type { PuntoBancoTable } from './punto-banco-table.ts';
import type { ElementSide, TableControllers } from './table-controllers.ts';
import { loaderStyles } from '../styles/loader.ts';

export class TableLoader {
  readonly i18n: I18nController;
  /** The lazy chunk's parts, and the controllers made from them once it has arrived. */
  parts: typeof Parts | null = null;
  controllers: TableControllers | null = null;
  /** The chunk or the catalogs failed to load (before the session exists). */
  bootNotice: Notice | null = null;
  layout: TableLayout | null = null;
  /** The OS asks for reduced motion. */
  mediaReduced = false;
  readonly #host: PuntoBancoTable;
  /** What the element lends its controllers (table-controllers.ts). */
  readonly #side: ElementSide;
  /** The OS setting changed since the last update: the next one applies it. */
  #mediaDirty = false;
  #size: { width: number; height: number } | null = null;
  /** The page set `muted` itself: the player's remembered choice does not override it. */
  #pageMuted = false;
  #booting: Promise<void> | null = null;
  #bootError: ApiError | null = null;
  #resize: ResizeObserver | null = null;
  #media: MediaQueryList | null = null;
  #onGesture = (): void => this.controllers?.audio.unlock();
  /** Esc puts the chip in hand back; R repeats the last bets and deals (table-input.ts). */
  #onKey = (e: KeyboardEvent): void => {
    const asked = this.parts?.tableShortcut(e);
    if (asked === 'drop') this.#host.selectChip(null);
    else if (asked === 'repeatDeal') void this.#host.repeatAndDeal();
  };
  #onFullscreen = (): void => {
    this.#host.requestUpdate(); // the full-screen button shows the new state
  };
  #onMedia = (e: MediaQueryListEvent): void => {
    this.#mediaChanged(e.matches);
  };

  constructor(host: PuntoBancoTable) {
    this.#host = host;
    this.i18n = new I18nController(host);
    this.#side = {
      i18n: this.i18n,
      canBet: () => this.canBet,
      size: () => this.#size,
      layout: () => this.layout,
      sceneFactory: () => host.sceneFactory ?? (host.constructor as typeof PuntoBancoTable).defaultSceneFactory,
      errorText: (error) => this.errorText(error),
      reopen: () => void this.reopen(),
      adopt: (extra) => this.#adopt(extra),
      notice: () => this.notice,
      walletChanged: (wallet) => {
        this.i18n.setWalletCurrency(wallet?.currency ?? null);
        void this.configureLanguage();
      },
    };
  }

  /** Session, shoe and round (the private table), or the shared table played over that session. */
  get table(): TablePlay | null {
    return this.controllers?.table ?? null;
  }

  /** What failed and how to retry: the boot's failure, else the session's. */
  get notice(): Notice | null {
    return this.bootNotice ?? this.table?.notice ?? null;
  }

  /** Bets may change now: the table is up, nothing failed at boot, no switch question waits, the play allows it. */
  get canBet(): boolean {
    const c = this.controllers;
    return c !== null && !this.bootNotice && !c.switch.asked && c.table.canBet;
  }

  // ---- the element's lifecycle ----------------------------------------------------------------

  connected(): void {
    const host = this.#host;
    this.#media = window.matchMedia('(prefers-reduced-motion: reduce)');
    this.#mediaChanged(this.#media.matches);
    this.#media.addEventListener('change', this.#onMedia);
    this.#pageMuted ||= host.hasAttribute('muted');
    // Audio only after a gesture on the table (no context before: browsers refuse one anyway).
    host.addEventListener('pointerdown', this.#onGesture);
    host.addEventListener('keydown', this.#onGesture);
    host.addEventListener('keydown', this.#onKey);
    document.addEventListener('fullscreenchange', this.#onFullscreen);
    if (this.controllers) void this.#loadAudio();
    void this.configureLanguage();
    if (!this.#booting) this.#booting = this.#boot();
    else if (host.state !== 'loading') void this.controllers?.slot.mount();
    if (host.hasUpdated) this.observe();
  }

  disconnected(): void {
    const host = this.#host;
    this.#media?.removeEventListener('change', this.#onMedia);
    this.#resize?.disconnect();
    this.#resize = null;
    this.controllers?.slot.disconnect();
    host.removeEventListener('pointerdown', this.#onGesture);
    host.removeEventListener('keydown', this.#onGesture);
    host.removeEventListener('keydown', this.#onKey);
    document.removeEventListener('fullscreenchange', this.#onFullscreen);
    this.controllers?.audio.destroy();
  }

  willUpdate(changed: PropertyValues): void {
    const host = this.#host;
    // A shared table's room is in its id: the session is opened there.
    const room = changed.has('table') ? host.table?.split('/')[0] : undefined;
    if (room === 'hall-1' || room === 'hall-2' || room === 'vip') host.room = room;
    if (changed.has('currency')) void this.configureLanguage();
    if (changed.has('endpoint') && this.controllers) this.controllers.api.endpoint = host.endpoint;
  }

  updated(changed: PropertyValues): void {
    const host = this.#host;
    const felt = this.parts?.measureChrome(host.renderRoot);
    if (felt) this.#relayout(felt.width, felt.height);
    if (changed.has('reducedMotion') || this.#mediaDirty) {
      this.#mediaDirty = false;
      host.toggleAttribute('data-reduced-motion', host.effectiveReducedMotion);
      this.controllers?.slot.scene?.setOptions({ reducedMotion: host.effectiveReducedMotion });
    }
    // A new room or Worker means a new session (the old one's limits no longer apply).
    if (changed.has('muted')) this.controllers?.audio.setMuted(host.muted, false);
    if (changed.has('speed')) this.controllers?.slot.scene?.setOptions({ speed: host.speed === 'fast' ? 'fast' : 'normal' });
    if (changed.has('squeeze')) this.controllers?.slot.scene?.setOptions({ squeeze: host.squeeze });
    this.controllers?.switch.changed(changed);
    // A new launch token after a refused one (no session to switch from): try it.
    if (changed.has('launchToken') && changed.get('launchToken') !== undefined && !host.sessionId && host.state === 'error') void this.reopen();
  }

  #mediaChanged(reduced: boolean): void {
    if (reduced === this.mediaReduced) return;
    this.mediaReduced = reduced;
    this.#mediaDirty = true;
    this.#host.requestUpdate();
  }

  /** Watches the stage: its visibility (the scene's slot) and its size (once per connection). */
  observe(): void {
    const stage = this.#host.renderRoot.querySelector<HTMLElement>('.stage');
    if (!stage) return;
    // Visibility comes with the parts: whichever of the stage and the parts is last starts it (once per connection).
    this.controllers?.slot.observe(stage);
    if (this.#resize) return;
    this.#resize = new ResizeObserver((entries) => {
      const box = entries[0]?.contentRect;
      if (box && box.width > 0 && box.height > 0) this.#relayout(box.width, box.height);
    });
    this.#resize.observe(stage);
  }

  #relayout(width: number, height: number): void {
    this.#size = { width, height };
    if (this.parts) this.#setLayout(this.parts.tableLayout(width, height));
    this.controllers?.slot.scene?.resize(width, height);
  }

  #setLayout(layout: TableLayout): void {
    this.layout = layout;
    this.#host.requestUpdate();
  }

  // ---- boot: texts, parts, session, scene ---------------------------------------------------

  async #boot(): Promise<void> {
    this.#setBootNotice(null);
    this.#bootError = null;
    this.table?.begin();
    try {
      await Promise.all([this.i18n.load(), this.#loadParts()]);
    } catch (err) {
      this.#bootFailed({ code: 'unreachable', message: String((err as Error)?.message ?? err), status: 0, retryable: true });
      return;
    }
    await this.table!.start(this.controllers!.slot.mount(), () => this.#boot());
  }

  #bootFailed(error: ApiError): void {
    this.#bootError = error;
    const message = this.errorText(error);
    this.#setBootNotice({ code: error.code, message, retry: () => this.#boot() });
    emit(this.#host, 'pb-error', { code: error.code, message });
  }

  #setBootNotice(notice: Notice | null): void {
    this.bootNotice = notice;
    this.#host.requestUpdate();
  }

  /** Retries the boot when it failed (true), else nothing (false: the session's Retry is the element's). */
  async retryBoot(): Promise<boolean> {
    if (!this.bootNotice) return false;
    const retry = this.bootNotice.retry;
    this.#setBootNotice(null);
    await retry?.();
    return true;
  }

  /** The lazy chunk (templates, styles, geometry, bets, API client), then the controllers made from it. */
  async #loadParts(): Promise<void> {
    const parts = (this.parts ??= await import('./parts.ts'));
    this.#adopt([]);
    if (!this.controllers) {
      this.controllers = new parts.TableControllers(this.#host, this.#side);
      void this.#loadAudio();
      if (this.#host.isConnected) this.observe();
    }
    if (this.#size) this.#setLayout(parts.tableLayout(this.#size.width, this.#size.height));
    await this.controllers.joinShared(this.#host.table || null);
    this.#host.requestUpdate();
  }

  #adopt(extra: CSSResultOrNative[]): void {
    const parts = this.parts!;
    adoptStyles(this.#host.renderRoot as ShadowRoot, [loaderStyles, parts.tableStyles, parts.panelsStyles, parts.walletStyles, ...extra]);
  }

  async #loadAudio(): Promise<void> {
    if (await this.controllers!.audio.start(this.#host.muted, this.#pageMuted)) this.#host.muted = true;
  }

  /** Opens a new session (the room, mode or launch changed). */
  async reopen(): Promise<void> {
    this.table?.forget();
    this.controllers?.status.reset();
    this.#booting = this.#boot();
    await this.#booting;
  }

  /** The language (the table's `lang`, the launch's, the page's) and currency: texts on screen are said again. */
  async configureLanguage(): Promise<void> {
    const host = this.#host;
    // A launched session speaks the launch's language unless the page names one on the table itself.
    const lang = normalizeLanguage(
      host.getAttribute('lang') || host.wallet?.lang || host.closest('[lang]')?.getAttribute('lang') || document.documentElement.lang,
    );
    const changed = lang !== this.i18n.language;
    await this.i18n.configure(lang, host.currency || 'EUR');
    if (changed) this.controllers?.audio.setLanguage(lang);
    // Texts already on screen were composed in the old language: a refusal goes, an error is re-said.
    if (changed) {
      this.controllers?.status.relanguage();
      if (this.bootNotice && this.#bootError) this.#setBootNotice({ ...this.bootNotice, message: this.errorText(this.#bootError) });
      this.table?.resay();
    }
    const c = this.controllers;
    c?.slot.scene?.setOptions(c.sceneTexts());
  }

  /** A failure in the player's words, with the limits, balance and bets it is about. */
  errorText(error: ApiError): string {
    const host = this.#host;
    return this.parts ? this.parts.explainApiError(this.i18n, error, { limits: host.limits, balance: host.balance, bets: host.bets }) : error.message;
  }
}
