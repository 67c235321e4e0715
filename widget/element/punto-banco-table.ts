/**
 * <punto-banco-table>: the embeddable Punto Banco table. Lit owns the state, the DOM controls and
 * accessibility; the Pixi scene (loaded lazily) only draws. Every outcome comes from the Worker:
 * the element sends bets and animates the signed receipt it gets back.
 *
 * The element is the loader: it boots, draws the loading state and holds the public API. What
 * runs once the table is up comes in the lazy parts chunk (parts.ts) as controllers: the session,
 * shoe and round (table-session.ts, with the states and retries), the bet boxes' input with the
 * bets and dragging (bet-input.ts), the status line and announcer (round-status.ts), the room or
 * mode switch (switch-question.ts), the panels (panels/drawer-controller.ts) and the scene's life
 * (scene-slot.ts). A round reaches the scene and the panels as the widget's own view of it
 * (round-view.ts).
 */
import { adoptStyles, html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { Bet, Box, RoomId, TableLimits } from '../../shared/table.ts';
import type { ShoeMode } from '../../shared/shoe.ts';
import { DEFAULT_ROOM } from '../../shared/default-room.ts';
import type { TableLayout } from '../layout.ts';
import type { SceneCue, SceneOptions, TableScene } from '../scene/types.ts';
import { normalizeLanguage } from '../i18n/languages.ts';
import type { ApiClient, ApiError } from '../session/api-client.ts';
import type { FetchLike, SocketFactory, TableState } from './host-types.ts';
import type { PlayedRound } from '../session/api-types.ts';
import type { SettledRound } from '../round-view.ts';
import type { BetState } from './bet-state.ts';
import type { BetProblem } from './bets.ts';
import type { BetInput } from './bet-input.ts';
import type { RoundStatus } from './round-status.ts';
import type { SwitchQuestion } from './switch-question.ts';
import type * as Parts from './parts.ts';
import type { ViewHandlers, ViewModel } from './view.ts';
import { emit, type PuntoBancoEventMap } from './emit.ts';
import { I18nController } from './i18n-controller.ts';
import type { ShoeStartProvider } from '../session/shoe-start.ts';
import type { PanelsController } from '../panels/drawer-controller.ts';
import type { SceneSlot } from './scene-slot.ts';
import type { TableAudio } from './table-audio.ts';
import type { TableSession } from '../session/table-session.ts';
import type { Notice, TablePlay } from '../session/table-play.ts';
import type { SharedTableSession } from '../session/shared-table-session.ts';
import type * as SharedParts from './shared-table-parts.ts';
import { loaderStyles } from '../styles/loader.ts';

export type { TableState };

/** Makes the Pixi scene. The default (set by widget/index.ts) imports `./scene/index.ts` lazily. */
export type SceneFactory = (options: SceneOptions, size?: { width: number; height: number }) => Promise<TableScene>;

/** `reduced-motion` attribute: absent → follow the OS; "false"/"no-preference" → motion; anything else → reduced. */
const reducedMotionConverter = {
  fromAttribute(value: string | null): boolean | null {
    if (value === null) return null;
    return !['false', 'no-preference', 'off'].includes(value.trim().toLowerCase());
  },
  toAttribute(value: boolean | null): string | null {
    return value === null ? null : value ? '' : 'false';
  },
};

/**
 * An embeddable, provably fair Punto Banco table.
 *
 * ```html
 * <script type="module" src="/punto-banco-table.js"></script>
 * <punto-banco-table endpoint="/" room="hall-1" lang="en" currency="EUR"></punto-banco-table>
 * ```
 *
 * @summary A Punto Banco (baccarat) table: five sectors × Player/Banker/Tie, dealt and signed by the Worker.
 *
 * @attr endpoint - Base URL of the Worker API. Default: the folder `punto-banco-table.js` was loaded from (the Worker that served it); `/` (same origin) when the element comes from the npm package.
 * @attr room - `hall-1` | `hall-2` | `vip`: limits and chips; changing it opens a new session (asked first when the session has played or holds bets; a No puts the old room back).
 * @attr affiliate - The partner embedding the table (`a–z 0–9 _ -`, 1–40 characters): sent when the session opens, recorded on every receipt, and checked by the Worker against the page's origin. Changing it opens a new session.
 * @attr lang - `en` | `ru` | `it` | `el` (`ru-RU` etc. map to their language; anything else is English). Absent: the nearest `lang` up the page. Live.
 * @attr currency - ISO 4217 code for amounts (default `EUR`). Live.
 * @attr reduced-motion - Present: instant animations; `"false"`: animate even when the OS asks for less; absent: follow `prefers-reduced-motion` (live).
 * @attr mode - `shoe` (default: one shoe dealt down to the cut card, in the middle of the stack) | `reshuffle` (every round from a freshly shuffled stack). Changing it opens a new session; the player can switch it on the table too. Reflected.
 * @attr speed - `normal` (default) | `fast`: every animation at twice the speed (the player can switch it on the table). Reduced motion still makes it all instant. Reflected.
 * @attr muted - Present: no sound and no dealer's voice. Absent: the player's own choice (the table's sound button, remembered in `localStorage`), else sound on. Reflected.
 * @attr table - A shared table to join, by its id: `<room>/<name>[.reshuffle][.fast]`, e.g. `hall-1/a` (API.md "Shared tables"). Many players, one shoe, one betting window with a countdown, one deal for all; the player's own session holds its balance. Chips go on the boxes as usual; "Place bet" sends them as the round's one signed bet (chips not confirmed are sent by themselves just before the close) and they stay locked until the deal. Shows the players, each box's total, the shoe's scoreboard and its fairness line. Absent (default): the private table. The session is opened in the table's room (the id's first part), whatever `room` says. Changing it joins the new table.
 * @attr resume - Default on: the table remembers its session (id and token only) in the tab's `sessionStorage`, per endpoint, room and affiliate, and resumes it after a page reload — balance, shoe, scoreboard and history. `"off"`: every page load opens a new session and storage is never read or written.
 *
 * @event {CustomEvent<ReadyDetail>} pb-ready - The session is open and the table takes bets. detail: `{ sessionId, room, balance, limits }`.
 * @event {CustomEvent<BetChangeDetail>} pb-bet-change - The bets on the felt changed. detail: `{ bets: Bet[], total }` (minor units).
 * @event {CustomEvent<RoundSettledDetail>} pb-round-settled - A round was dealt and settled. detail: the signed pb-fair-2 receipt `SignedV2<ReceiptV2>` as the Worker sent it (its bets are in the acceptance it follows); at a shared table (`table`), the player's signed pb-shared-1 settlement.
 * @event {CustomEvent<ErrorDetail>} pb-error - Something failed (Worker unreachable, a limit, session expired, no WebGL); the bets are kept. detail: `{ code, message }`.
 *
 * @csspart table - The whole table (stage and control bar).
 * @csspart stage - The felt: the canvas and the transparent buttons laid over it.
 * @csspart canvas - The Pixi canvas (aria-hidden; drawing only).
 * @csspart box - Each of the 15 betting boxes.
 * @csspart box-player - The five Player boxes (with `box`).
 * @csspart box-banker - The five Banker boxes (with `box`).
 * @csspart box-tie - The five Tie boxes (with `box`).
 * @csspart chip - Each chip of the chip selector.
 * @csspart chip-selected - The selected chip (with `chip`).
 * @csspart controls - The bar under the felt: balance, bet, status and buttons.
 * @csspart balance - The balance meter.
 * @csspart bet-total - The total bet meter.
 * @csspart status - The status line.
 * @csspart button - Every control button.
 * @csspart deal - The Deal button (with `button`).
 * @csspart repeat - The Repeat button (with `button`).
 * @csspart clear - The Clear button (with `button`).
 * @csspart undo - The Undo button (with `button`).
 * @csspart double - The Double button (with `button`).
 * @csspart repeatDeal - The Repeat-and-deal button (with `button`).
 * @csspart retry - The Retry button of the error notice (with `button`).
 * @csspart tool-mode - The shoe/reshuffle switch of the private table (with `button`).
 * @csspart tool-sound - The sound toggle (with `button`).
 * @csspart tool-fast - The speed toggle (with `button`).
 * @csspart tool-fullscreen - The full-screen toggle, where the page allows it (with `button`).
 * @csspart panel-bar - The bar of panel tabs (scoreboards, history, fairness, help).
 * @csspart panel-tab - Each panel tab (also `panel-tab-open` on the open one).
 * @csspart panel-tab-open - The open panel's tab (with `panel-tab`).
 * @csspart panel - The open panel.
 * @csspart notice - The error notice with Retry.
 * @csspart loader - The loading overlay.
 * @csspart win - After a round: what came back and the net ("Returned €1.95 · net −€0.05").
 * @csspart summary - The session summary (time at the table, rounds, staked, net result), one tap away.
 *
 * @cssproperty --pb-felt - Felt colour (also under the canvas while it loads).
 * @cssproperty --pb-felt-deep - Felt colour at the edges.
 * @cssproperty --pb-gold - Accent (amounts, selected chip, retry).
 * @cssproperty --pb-text - Text colour.
 * @cssproperty --pb-muted - Secondary text colour.
 * @cssproperty --pb-console - Background of the control bar.
 * @cssproperty --pb-button - Background of the control buttons.
 * @cssproperty --pb-button-text - Text of the control buttons.
 * @cssproperty --pb-deal - Background of the Deal button.
 * @cssproperty --pb-deal-text - Text of the Deal button.
 * @cssproperty --pb-danger - Border of error messages.
 * @cssproperty --pb-focus-ring - Keyboard focus ring.
 * @cssproperty --pb-radius - Corner radius of the table.
 * @cssproperty --pb-fit-offset - Height of the page's own things that should stay on screen with the table, such as a header above it (default `0px`): the felt fits the viewport less the table's bar and panels' strip and less this.
 * @cssproperty --pb-stage-max-height - The felt's greatest height. Default: what the viewport leaves over the control bar and panels, so the whole table fits the screen; `none`: the felt is always 16:10 of the width (a page whose height follows the table).
 * @cssproperty --pb-font - Font family.
 * @cssproperty [--pb-font-size=14px] - Base font size of the panels (scoreboards, history, fairness, help).
 * @cssproperty [--pb-mono=ui-monospace, monospace] - Monospace font of hashes and seeds in the panels.
 * @cssproperty [--pb-panel-bg=#0c3324] - Background of the panels.
 * @cssproperty [--pb-panel-surface=#124531] - Background of cards inside the panels.
 * @cssproperty [--pb-panel-surface-2=#0f3b2a] - Second background inside the panels (rows, fields).
 * @cssproperty [--pb-panel-border=rgba(212, 175, 55, 0.35)] - Borders inside the panels.
 * @cssproperty [--pb-gold-dim=#b4963f] - Muted accent in the panels.
 * @cssproperty [--pb-text-dim=#b8c9b8] - Secondary text in the panels.
 * @cssproperty [--pb-banker=#d8343f] - Banker colour of the scoreboards.
 * @cssproperty [--pb-player=#2c6fd6] - Player colour of the scoreboards.
 * @cssproperty [--pb-tie=#1f9d4c] - Tie colour of the scoreboards.
 * @cssproperty [--pb-ok=#4cd07d] - A check that passed (fairness panel).
 * @cssproperty [--pb-fail=#ff8f86] - A check that failed (fairness panel).
 * @cssproperty [--pb-pending=#e8bf4f] - A check still waiting (fairness panel).
 * @cssproperty [--pb-board-bg=#fbf8ef] - Background of the scoreboards' grids.
 * @cssproperty [--pb-board-grid=#d6cfbb] - Lines of the scoreboards' grids.
 * @cssproperty [--pb-road-cell=22px] - Cell size of the big road (20px on a phone).
 * @cssproperty --pb-chip-1 - Colour of the first chip (smallest denomination first).
 * @cssproperty --pb-chip-2 - Colour of the second chip (smallest denomination first).
 * @cssproperty --pb-chip-3 - Colour of the third chip (smallest denomination first).
 * @cssproperty --pb-chip-4 - Colour of the fourth chip (smallest denomination first).
 * @cssproperty --pb-chip-5 - Colour of the fifth chip (smallest denomination first).
 * @cssproperty --pb-chip-6 - Colour of the sixth chip (smallest denomination first).
 */
export class PuntoBancoTable extends LitElement {
  static override styles = loaderStyles;

  /** The default scene factory; widget/index.ts sets it to a lazy `import('./scene/index.ts')`. */
  static defaultSceneFactory: SceneFactory | null = null;

  /** The `endpoint` of a table whose page names none: `/`; the CDN loader (widget/cdn.ts) sets the Worker that served it. */
  static defaultEndpoint = '/';

  /** Base URL of the Worker; API paths (`api/sessions`, …) are resolved against it. Default: the Worker that served the script (CDN loader), else `/` (same origin). */
  @property() endpoint: string = PuntoBancoTable.defaultEndpoint;

  /** The room, which sets limits and chips: `hall-1` (0.1–10), `hall-2` (1–100) or `vip` (25–1,000). Changing it opens a new session. */
  @property() room: RoomId = DEFAULT_ROOM;

  /** The affiliate (partner) showing the table, sent with the new session and signed into every receipt; null: none. Changing it opens a new session. */
  @property() affiliate: string | null = null;

  /** ISO 4217 code used to format amounts (`EUR`, `USD`, …). Amounts are minor units, 1000 per currency unit. */
  @property() currency = 'EUR';

  /**
   * Motion override. Absent: follow the OS `prefers-reduced-motion` (live). Present (or `"true"`):
   * every animation is instant. `"false"`: animate even if the OS asks for less motion.
   */
  @property({ attribute: 'reduced-motion', converter: reducedMotionConverter, reflect: true }) reducedMotion: boolean | null = null;

  /** `shoe` (one shoe down to the cut card) or `reshuffle` (a fresh stack every round). Changing it opens a new session. */
  @property({ reflect: true }) mode: ShoeMode = 'shoe';

  /** `normal` or `fast` (every animation at twice the speed). */
  @property({ reflect: true }) speed: 'normal' | 'fast' = 'normal';

  /** No sound and no voice. Set from the player's remembered choice at connection unless the page sets it. */
  @property({ type: Boolean, reflect: true }) muted = false;

  /** A shared table's id (`hall-1/a`, `vip/high.reshuffle.fast`) to join; null (default): the private table. It sets `room` to the table's room. */
  @property() table: string | null = null;

  /** `"off"`: never resume a session after a reload, and never read or write `sessionStorage`. Default: on (see `@attr resume`). */
  @property() resume = 'on';

  // `lang` (en, ru, it, el; anything else falls back to English) is the native global attribute:
  // it is observed below instead of redeclared, so `el.lang = 'ru'` and the attribute agree.

  /**
   * Picks the client seed and cut that start a committed shoe (null from it: the player backed out,
   * nothing is dealt). Null (default): what the fairness panel shows, a random seed and cut unless the player changed them.
   */
  shoeStartProvider: ShoeStartProvider | null = null;

  /** Opens a shared table's WebSocket; null: the browser's `WebSocket` (tests inject a fake). */
  socketFactory: SocketFactory | null = null;

  /** Makes the Pixi scene; null uses `PuntoBancoTable.defaultSceneFactory` (tests inject fakes here). */
  sceneFactory: SceneFactory | null = null;

  /** The transport for API calls (default: `fetch`). Set before the element is connected. */
  get fetcher(): FetchLike {
    return this.#fetcher;
  }
  set fetcher(value: FetchLike) {
    this.#fetcher = value;
    if (this.#api) this.#api.fetcher = value;
  }

  /** Automatic retries of a transient failure (same Idempotency-Key) before the error shows. Default 2. */
  get autoRetries(): number {
    return this.#autoRetries;
  }
  set autoRetries(value: number) {
    this.#autoRetries = Math.max(0, Math.floor(value));
    if (this.#api) this.#api.autoRetries = this.#autoRetries;
  }

  @state() private _layout: TableLayout | null = null;
  /** The chunk or the catalogs failed to load (before the session exists). */
  @state() private _bootNotice: Notice | null = null;
  @state() private _mediaReduced = false;

  #i18n = new I18nController(this);
  // The lazy chunk's parts, and the controllers made from them once it has arrived.
  #parts: typeof Parts | null = null;
  #api: ApiClient | null = null;
  /** Session, shoe and round (table-session.ts), or the shared table played over that session (../session/shared-table-session.ts). */
  #table: TablePlay | null = null;
  /** The player's own session (the private table's controller; a shared table plays on it). */
  #private: TableSession | null = null;
  #shared: SharedTableSession | null = null;
  /** The shared-table chunk, once a `table` asked for it. */
  #sharedParts: typeof SharedParts | null = null;
  #bets: BetState | null = null;
  /** The bet boxes' and the chip tray's input, with the dragging (bet-input.ts). */
  #input: BetInput | null = null;
  /** The status line, the live region, the toast, the last result and the session summary (round-status.ts). */
  #status: RoundStatus | null = null;
  /** The room or mode switch and its question (switch-question.ts). */
  #switch: SwitchQuestion | null = null;
  /** Scoreboard, history, fairness and help (panels/drawer-controller.ts). */
  #panels: PanelsController | null = null;
  #fetcher: FetchLike = (input, init) => fetch(input, init);
  #autoRetries = 2;
  #size: { width: number; height: number } | null = null;
  /** The scene's life: WebGL budget, visibility, rebuilds (scene-slot.ts, in the lazy chunk). */
  #slot: SceneSlot | null = null;
  /** Effects and the dealer's voice (table-audio.ts, lazy). */
  #audio: TableAudio | null = null;
  /** The page set `muted` itself: the player's remembered choice does not override it. */
  #pageMuted = false;
  #onGesture = (): void => this.#audio?.unlock();
  #booting: Promise<void> | null = null;
  #bootError: ApiError | null = null;
  #resize: ResizeObserver | null = null;
  #media: MediaQueryList | null = null;
  /** Esc puts the chip in hand back; R repeats the last bets and deals (table-input.ts). */
  #onKey = (e: KeyboardEvent): void => {
    const asked = this.#parts?.tableShortcut(e);
    if (asked === 'drop') this.selectChip(null);
    else if (asked === 'repeatDeal') void this.repeatAndDeal();
  };
  #onFullscreen = (): void => {
    this.requestUpdate(); // the full-screen button shows the new state
  };
  #onMedia = (e: MediaQueryListEvent): void => {
    this._mediaReduced = e.matches;
  };

  // ---- public, read-only view of the table -------------------------------------------------

  /** Current state: loading, ready, dealing, settled or error. */
  get state(): TableState {
    return this._bootNotice ? 'error' : (this.#table?.state ?? 'loading');
  }

  /** The balance in minor units, as the Worker last reported it. */
  get balance(): number {
    return this.#table?.balance ?? 0;
  }

  /** The bets on the felt (minor units), in table order. */
  get bets(): readonly Bet[] {
    return this.#bets?.bets ?? [];
  }

  /** The room's limits and chips, once the session is open. */
  get limits(): TableLimits | null {
    return this.#table?.limits ?? null;
  }

  /** The open session's id, or null. */
  get sessionId(): string | null {
    return this.#table?.sessionId ?? null;
  }

  /** Whether animations are currently instant (the `reduced-motion` override, else the OS setting). */
  get effectiveReducedMotion(): boolean {
    return this.reducedMotion ?? this._mediaReduced;
  }

  /** The mounted scene (null while loading, after teardown, or without WebGL). */
  get scene(): TableScene | null {
    return this.#scene;
  }

  get #scene(): TableScene | null {
    return this.#slot?.scene ?? null;
  }

  /** What failed and how to retry: the boot's failure, else the session's. */
  get #notice(): Notice | null {
    return this._bootNotice ?? this.#table?.notice ?? null;
  }

  // ---- lifecycle ----------------------------------------------------------------------------

  static override get observedAttributes(): string[] {
    return [...super.observedAttributes, 'lang'];
  }

  override attributeChangedCallback(name: string, old: string | null, value: string | null): void {
    super.attributeChangedCallback(name, old, value);
    if (name === 'lang' && old !== value) void this.#configureLanguage();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#media = window.matchMedia('(prefers-reduced-motion: reduce)');
    this._mediaReduced = this.#media.matches;
    this.#media.addEventListener('change', this.#onMedia);
    this.#pageMuted ||= this.hasAttribute('muted');
    // Audio only after a gesture on the table (no context before: browsers refuse one anyway).
    this.addEventListener('pointerdown', this.#onGesture);
    this.addEventListener('keydown', this.#onGesture);
    this.addEventListener('keydown', this.#onKey);
    document.addEventListener('fullscreenchange', this.#onFullscreen);
    if (this.#audio) void this.#loadAudio();
    void this.#configureLanguage();
    if (!this.#booting) this.#booting = this.#boot();
    else if (this.state !== 'loading') void this.#slot?.mount();
    if (this.hasUpdated) this.#observe();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#media?.removeEventListener('change', this.#onMedia);
    this.#resize?.disconnect();
    this.#resize = null;
    this.#slot?.disconnect();
    this.removeEventListener('pointerdown', this.#onGesture);
    this.removeEventListener('keydown', this.#onGesture);
    this.removeEventListener('keydown', this.#onKey);
    document.removeEventListener('fullscreenchange', this.#onFullscreen);
    this.#audio?.destroy();
  }

  protected override firstUpdated(): void {
    this.#observe();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // A shared table's room is in its id: the session is opened there.
    const room = changed.has('table') ? this.table?.split('/')[0] : undefined;
    if (room === 'hall-1' || room === 'hall-2' || room === 'vip') this.room = room;
    if (changed.has('currency')) void this.#configureLanguage();
    if (changed.has('endpoint') && this.#api) this.#api.endpoint = this.endpoint;
  }

  protected override updated(changed: PropertyValues): void {
    const felt = this.#parts?.measureChrome(this.renderRoot);
    if (felt) this.#relayout(felt.width, felt.height);
    if (changed.has('reducedMotion') || changed.has('_mediaReduced')) {
      this.toggleAttribute('data-reduced-motion', this.effectiveReducedMotion);
      this.#scene?.setOptions({ reducedMotion: this.effectiveReducedMotion });
    }
    // A new room or Worker means a new session (the old one's limits no longer apply).
    if (changed.has('muted')) this.#audio?.setMuted(this.muted, false);
    if (changed.has('speed')) this.#scene?.setOptions({ speed: this.speed === 'fast' ? 'fast' : 'normal' });
    this.#switch?.changed(changed);
  }

  /** The player's answer to the switch question: yes opens the new session, no puts the old mode or room back. */
  confirmSwitch(yes: boolean): void {
    this.#switch?.answer(yes);
  }

  #observe(): void {
    const stage = this.renderRoot.querySelector<HTMLElement>('.stage');
    if (!stage) return;
    // Visibility comes with the parts: whichever of the stage and the parts is last starts it (once per connection).
    this.#slot?.observe(stage);
    if (this.#resize) return;
    this.#resize = new ResizeObserver((entries) => {
      const box = entries[0]?.contentRect;
      if (box && box.width > 0 && box.height > 0) this.#relayout(box.width, box.height);
    });
    this.#resize.observe(stage);
  }

  #relayout(width: number, height: number): void {
    this.#size = { width, height };
    if (this.#parts) this._layout = this.#parts.tableLayout(width, height);
    this.#scene?.resize(width, height);
  }

  // ---- boot: texts, parts, session, scene ---------------------------------------------------

  async #boot(): Promise<void> {
    this._bootNotice = null;
    this.#bootError = null;
    this.#table?.begin();
    try {
      await Promise.all([this.#i18n.load(), this.#loadParts()]);
    } catch (err) {
      this.#bootFailed({ code: 'unreachable', message: String((err as Error)?.message ?? err), status: 0, retryable: true });
      return;
    }
    await this.#table!.start(this.#slot!.mount(), () => this.#boot());
  }

  #bootFailed(error: ApiError): void {
    this.#bootError = error;
    const message = this.#errorText(error);
    this._bootNotice = { code: error.code, message, retry: () => this.#boot() };
    emit(this, 'pb-error', { code: error.code, message });
  }

  /** The lazy chunk (templates, styles, geometry, bets, API client), then the controllers made from it. */
  async #loadParts(): Promise<void> {
    const parts = (this.#parts ??= await import('./parts.ts'));
    adoptStyles(this.renderRoot as ShadowRoot, [loaderStyles, parts.tableStyles, parts.panelsStyles]);
    if (!this.#api) {
      const api = (this.#api = new parts.ApiClient(this));
      api.fetcher = this.#fetcher;
      api.autoRetries = this.#autoRetries;
      const status = (this.#status = new parts.RoundStatus(this, this.#i18n));
      const input = (this.#input = new parts.BetInput(this, {
        canBet: () => this.#canBet,
        limits: () => this.limits,
        balance: () => this.balance,
        scene: () => this.#scene,
        t: (key, values) => this.#i18n.t(key, values),
        money: (minor) => this.#i18n.money(minor),
        refuse: (error) => this.#refuse(error),
        changed: () => {
          status.hideToast();
          this.#table!.betsTouched();
        },
        announce: (text) => status.announce(text),
      }));
      const bets = (this.#bets = input.bets);
      this.#switch = new parts.SwitchQuestion(this, {
        holdsMoney: () => status.summary.rounds > 0 || this.bets.length > 0,
        reopen: () => void this.#reopen(),
        t: (key) => this.#i18n.t(key),
      });
      const panels = (this.#panels = new parts.PanelsController(this, {
        api,
        shoe: () => this.#table?.shoe ?? null,
        t: (key, values) => this.#i18n.t(key, values),
        money: (minor) => this.#i18n.money(minor),
        exactMoney: (minor) => this.#i18n.exactMoney(minor),
        language: () => this.#i18n.language,
        startShoe: () => this.#table!.startShoe(),
        endShoe: (key) => this.#table!.endShoe(key),
        player: () => (this.#table?.copy ? { key: this.#table.playerKey, copy: this.#table.copy } : null),
      }));
      this.#table = this.#private = new parts.TableSession(this, {
        api,
        bets,
        fetcher: () => this.#fetcher,
        scene: () => this.#scene,
        defaultProvider: panels.provider,
        explain: (error) => this.#errorText(error),
        freshShoeText: () => this.#i18n.t('play.freshShoe'),
        hideToast: () => status.hideToast(),
        opened: (rounds) => this.#opened(rounds),
        shoeStarted: (shoe) => panels.shoeStarted(shoe),
        played: (answer) => this.#played(answer),
      });
      this.#slot = new parts.SceneSlot(this, {
        maker: () => {
          const factory = this.sceneFactory ?? PuntoBancoTable.defaultSceneFactory;
          const onCue = (cue: SceneCue, hand?: 'player' | 'banker'): void => this.#audio?.cue(cue, this.#table?.onFelt?.outcome ?? null, hand);
          return factory && (() => factory({ ...this.#sceneTexts(), reducedMotion: this.effectiveReducedMotion, onCue }, this.#size ?? undefined));
        },
        restore: (scene) => this.#restore(scene),
        unavailable: (err) => emit(this, 'pb-error', { code: 'scene_unavailable', message: String((err as Error)?.message ?? err) }),
      });
      this.#audio = new parts.TableAudio(this.#i18n.language);
      void this.#loadAudio();
      if (this.isConnected) this.#observe();
    }
    if (this.#size) this._layout = parts.tableLayout(this.#size.width, this.#size.height);
    await this.#joinShared();
    this.requestUpdate();
  }

  /** With `table` set, the shared table's controller (its own lazy chunk) plays over the player's session. */
  async #joinShared(): Promise<void> {
    const id = this.table || null;
    if ((this.#shared?.tableId ?? null) === id) return;
    this.#shared?.close();
    this.#shared = null;
    this.#table = this.#private;
    this.#scene?.setOptions({ titleOnPhone: !id });
    if (!id) return;
    const sp = (this.#sharedParts ??= await import('./shared-table-parts.ts'));
    const parts = this.#parts!;
    adoptStyles(this.renderRoot as ShadowRoot, [loaderStyles, parts.tableStyles, parts.panelsStyles, sp.sharedStyles]);
    this.#shared = this.#table = new sp.SharedTableSession(this, {
      session: this.#private!,
      api: this.#api!,
      bets: this.#bets!,
      scene: () => this.#scene,
      t: (key, values) => this.#i18n.t(key, values),
      money: (minor) => this.#i18n.money(minor),
      refuse: (code, reason) => this.#status!.sharedNotice(code, reason ?? ''),
      announce: (text) => this.#status!.announce(text),
      played: (body) => this.#sharedRound(body, true),
      watched: (body) => this.#sharedRound(body, false),
    });
  }

  async #loadAudio(): Promise<void> {
    if (await this.#audio!.start(this.muted, this.#pageMuted)) this.muted = true;
  }

  /** The player's sound button: mutes or unmutes, remembered for the next visit. */
  toggleMuted(): void {
    this.muted = !this.muted;
    this.#audio?.setMuted(this.muted, true);
  }

  async #reopen(): Promise<void> {
    this.#table?.forget();
    this.#status?.reset();
    this.#booting = this.#boot();
    await this.#booting;
  }

  /** The session is open (new, or resumed with the rounds of its current shoe). */
  #opened(rounds: SettledRound[]): void {
    this.#status?.opened(rounds);
    this.#panels?.sessionOpened(rounds);
    this.#scene?.setOptions(this.#sceneTexts());
    this.#scene?.setBets(this.bets, this.limits?.chips ?? []);
  }

  /** A new scene, now in the page, draws at once what the table knows (its predecessor's round, bets and shoe). */
  #restore(scene: TableScene): void {
    // The stage may have been measured (or resized) while the scene was being made.
    if (this.#size) scene.resize(this.#size.width, this.#size.height);
    scene.setOptions({ reducedMotion: this.effectiveReducedMotion });
    // Texts again: the session (and so the limits) may have arrived while the scene loaded.
    scene.setOptions(this.#sceneTexts());
    const onFelt = this.#table?.onFelt;
    if (onFelt) scene.showRound?.(onFelt);
    scene.setBets(this.bets, this.limits?.chips ?? []);
    this.#table?.showShoe();
  }

  /** The scene's texts (a scene exists only once the parts have arrived). */
  #sceneTexts(): Omit<SceneOptions, 'reducedMotion'> {
    return {
      ...this.#parts!.sceneTexts(this.#i18n, this.limits, this.#i18n.language),
      speed: this.speed === 'fast' ? 'fast' : 'normal',
      // A shared table's clock and player count take the plaque's place on a phone.
      titleOnPhone: !this.table,
    };
  }

  async #configureLanguage(): Promise<void> {
    const lang = normalizeLanguage(this.getAttribute('lang') || this.closest('[lang]')?.getAttribute('lang') || document.documentElement.lang);
    const changed = lang !== this.#i18n.language;
    await this.#i18n.configure(lang, this.currency || 'EUR');
    if (changed) this.#audio?.setLanguage(lang);
    // Texts already on screen were composed in the old language: a refusal goes, an error is re-said.
    if (changed) {
      this.#status?.relanguage();
      if (this._bootNotice && this.#bootError) this._bootNotice = { ...this._bootNotice, message: this.#errorText(this.#bootError) };
      this.#table?.resay();
    }
    this.#scene?.setOptions(this.#sceneTexts());
  }

  // ---- the deal -----------------------------------------------------------------------------

  /** Sends the bets on the felt to the Worker and plays the round it deals. */
  async deal(): Promise<void> {
    const table = this.#table;
    if (!this.#canBet || !table) return;
    const refused = table.prepareDeal(this.bets);
    if (refused) return this.#refuse(refused);
    // The dealer's call: card by card as the scene deals them, else all at once; the shoe's last hand is announced first.
    const last = this.#lastHandNext;
    this.#status?.dealing(last);
    // (At a shared table this is "Place bet": the cards go out for all at the close, called as the scene deals them.)
    if (!this.#shared) this.#audio?.callDeal(this.#scene !== null && !this.effectiveReducedMotion, last);
    await table.runDeal();
  }

  /** Retries whatever failed, resending the same request with the same Idempotency-Key. */
  async retry(): Promise<void> {
    if (!this._bootNotice) return this.#table?.retry();
    const retry = this._bootNotice.retry;
    this._bootNotice = null;
    await retry?.();
  }

  /** A round was dealt, drawn and settled: the table says so. */
  #played(answer: PlayedRound): void {
    this.#status!.played(answer.round, Boolean(answer.nextShoe));
    this.#audio?.roundSettled(answer.round.outcome);
    this.#panels?.roundPlayed(answer);
    emit(this, 'pb-round-settled', answer.receipt);
  }

  /** A shared table's round was drawn: its result, and the player's own if it had a stake. */
  #sharedRound(round: SettledRound, mine: boolean): void {
    this.#status!.sharedRound(round, mine);
    this.#audio?.roundSettled(round.outcome);
  }

  // ---- errors and messages ------------------------------------------------------------------

  #errorText(error: ApiError): string {
    return this.#parts ? this.#parts.explainApiError(this.#i18n, error, this.#context()) : error.message;
  }

  #betText(error: BetProblem | { code: string; message: string }): string {
    return this.#parts ? this.#parts.explainBetProblem(this.#i18n, error, this.#context()) : error.message;
  }

  #context(): { limits: TableLimits | null; balance: number; bets: readonly Bet[] } {
    return { limits: this.limits, balance: this.balance, bets: this.bets };
  }

  #refuse(error: BetProblem | { code: string; message: string }): void {
    this.#status?.showToast(error.code, this.#betText(error));
  }

  // ---- bets (the bet boxes' and the chip tray's input: bet-input.ts) -------------------------

  get #canBet(): boolean {
    return this.#bets !== null && !this._bootNotice && !this.#switch?.asked && this.#table?.canBet === true;
  }

  /** Adds the selected chip (or the minimum) to a box, as a click or Enter would. */
  placeBet(sector: number, box: Box): boolean {
    return this.#input?.place({ sector, box }) ?? false;
  }

  /** Removes a box's bet. */
  removeBet(sector: number, box: Box): boolean {
    return this.#input?.remove({ sector, box }) ?? false;
  }

  /** Selects a chip by value (minor units), or none with null. */
  selectChip(amount: number | null): void {
    this.#input?.select(amount);
  }

  /** Removes every bet. */
  clearBets(): boolean {
    return this.#input?.clear() ?? false;
  }

  /** Takes back the last bet change. */
  undo(): boolean {
    return this.#input?.undo() ?? false;
  }

  /** Doubles every bet, if the limits and balance allow. */
  double(): boolean {
    return this.#input?.double() ?? false;
  }

  /**
   * Rebet and deal in one action: the previous round's bets go back on the empty felt and are
   * dealt at once (bets already on the felt are simply dealt).
   */
  async repeatAndDeal(): Promise<void> {
    if (!this.#canBet) return;
    if (this.bets.length === 0 && !this.repeat()) return;
    await this.deal();
  }

  /** Shows the table full screen (the host element), or leaves full screen. */
  async toggleFullscreen(): Promise<void> {
    await this.#parts?.toggleFullscreen(this);
  }

  /** Puts the previous round's bets back, if still legal. */
  repeat(): boolean {
    return this.#input?.repeat() ?? false;
  }

  // ---- render -------------------------------------------------------------------------------

  protected override render(): TemplateResult {
    const i = this.#i18n;
    const view = this.#parts;
    const state = this.state;
    const loading = state === 'loading' || !i.ready || !view;
    const m = view && !loading ? this.#viewModel() : null;
    return html`
      <div class="table" part="table" lang=${i.language} data-mode=${this.mode} role="region" aria-label=${i.t('table')} aria-busy=${loading ? 'true' : 'false'}>
        <div class="stage" part="stage" @contextmenu=${(e: Event) => e.preventDefault()} @pointerleave=${(e: PointerEvent) => this.#input?.leaveField(e)}>
          <div class="canvas-host" aria-hidden="true"></div>
          ${m && view ? [view.renderPlainRound(m), view.renderChips(m), view.renderBoxes(m), view.renderGhost(m)] : nothing}
          ${m && this.#shared ? this.#sharedParts!.renderSharedHud(this.#shared.view(), this.#sharedTexts(m)) : m && this.#panels ? this.#panels.renderInvite(this._layout) : nothing}
          ${view && (m || state === 'error') ? view.renderMessages(m ?? this.#viewModel()) : nothing} ${m && view ? view.renderSwitchQuestion(m) : nothing}
          ${
            loading && state !== 'error'
              ? html`<div class="loader" part="loader"><div class="mark" aria-hidden="true">Punto Banco</div><div class="spinner"></div><div>${i.t('loading')}</div></div>`
              : nothing
          }
        </div>
        ${m && view ? view.renderBar(m) : nothing}
        <div class="sr-only" role="status" aria-live="polite" aria-atomic="true">${this.#status?.announcement ?? ''}</div>
        ${m && this.#shared ? this.#sharedParts!.renderSharedSide(this.#shared.view(), this.#sharedTexts(m)) : m && this.#panels ? this.#panels.render(view!.renderSummary(m)) : nothing}
      </div>
    `;
  }

  #sharedTexts(m: ViewModel): SharedParts.SharedTexts {
    return {
      t: (key, values) => this.#i18n.t(key, values),
      money: (minor) => this.#i18n.money(minor),
      layout: this._layout,
      panelStrings: this.#panelStrings(),
      summary: this.#parts!.renderSummary(m),
    };
  }

  /** The scoreboard's texts in the element's language. */
  #panelStrings(): SharedParts.SharedTexts['panelStrings'] {
    const key = `${this.#i18n.language}|${this.#i18n.t('panels.beadPlate')}`;
    if (this.#panelTexts?.key !== key) this.#panelTexts = { key, value: this.#sharedParts!.panelStringsIn((k) => this.#i18n.t(k)) };
    return this.#panelTexts.value;
  }

  #panelTexts: { key: string; value: SharedParts.SharedTexts['panelStrings'] } | null = null;

  #handlers: ViewHandlers = {
    boxClick: (e, at) => this.#input?.boxClick(e, at),
    boxKey: (e, at) => this.#input?.boxKey(e, at),
    boxFocus: (at) => this.#input?.boxFocus(at),
    boxContextMenu: (e, at) => this.#input?.boxContextMenu(e, at),
    pointerDown: (e, source) => this.#input?.drag.pointerDown(e, source),
    highlight: (at) => this.#input?.highlight(at),
    chipClick: (amount) => this.#input?.chipClick(amount),
    action: (name) => {
      if (name === 'retry') void this.retry();
      else if (name === 'repeatDeal') void this.repeatAndDeal();
      else if (this.#canBet) void this[name === 'clear' ? 'clearBets' : name]();
    },
    tool: (name) => this.#parts!.runTool(this, name, this.#canBet),
    confirmSwitch: (yes) => this.confirmSwitch(yes),
  };

  #viewModel(): ViewModel {
    const i = this.#i18n;
    const bets = this.#bets!;
    const notice = this.#notice;
    const status = this.#status!;
    const asked = this.#switch?.asked;
    const drag = this.#input?.drag;
    return {
      t: (key, values) => i.t(key, values),
      money: (minor) => i.money(minor),
      chipLabel: (minor) => i.chip(minor),
      layout: this._layout,
      activeBox: this.#input!.activeBox,
      limits: this.limits,
      canBet: this.#canBet,
      settled: this.state === 'settled',
      dealing: this.state === 'dealing',
      bets: bets.bets,
      total: bets.total,
      amountAt: (at) => bets.amountAt(at),
      selectedChip: bets.selectedChip,
      canUndo: bets.canUndo,
      canRepeat: bets.previous.length > 0,
      canDouble: this.limits !== null && bets.canDouble(this.limits, this.balance),
      balance: this.balance,
      lastWin: status.lastWin,
      lastStaked: status.lastStaked,
      muted: this.muted,
      fast: this.speed === 'fast',
      mode: this.mode === 'reshuffle' ? 'reshuffle' : 'shoe',
      shared: this.#shared !== null,
      fullscreen: this.#parts!.fullscreenState(this),
      status: this.#statusText(),
      // A refused origin stays refused until the operator changes the configuration: no Retry to press in vain.
      notice: notice && this.state === 'error' ? { message: notice.message, canRetry: notice.retry !== null && notice.code !== 'origin_not_allowed' } : null,
      toast: status.toast,
      ghost: drag?.ghost ?? null,
      dropTarget: drag?.dropTarget ?? null,
      onFelt: this.#table?.onFelt ?? null,
      summary: { ...status.summary, now: Date.now() },
      confirm: asked ? { to: asked.to, room: asked.room } : null,
      on: this.#handlers,
    };
  }

  #statusText(): string {
    return this.#status!.statusText({
      state: this.state,
      shared: this.#shared?.statusText(),
      shoeNumber: this.#private?.shoe?.number ?? '',
      notice: this.#notice?.message ?? null,
      staked: this.bets.length ? this.#bets!.total : null,
      lastHandNext: this.#lastHandNext,
    });
  }

  /** The next round is the private shoe's last (its cut card will come out): the table says so. */
  get #lastHandNext(): boolean {
    return !this.#shared && this.#private?.lastHandNext === true;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'punto-banco-table': PuntoBancoTable;
  }
  /**
   * The table's events on every event target's map (HTMLElementEventMap, DocumentEventMap and
   * WindowEventMap extend this one), so `addEventListener('pb-round-settled', (e) => e.detail)` and
   * `removeEventListener` are typed on the element, an ancestor, the document and the window alike:
   * the events bubble and are composed (emit.ts).
   */
  interface GlobalEventHandlersEventMap extends PuntoBancoEventMap {}
}
