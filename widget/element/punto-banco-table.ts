/**
 * <punto-banco-table>: the embeddable Punto Banco table. Lit owns the state, the DOM controls and
 * accessibility; the Pixi scene (loaded lazily) only draws. Every outcome comes from the Worker:
 * the element sends bets and animates the signed receipt it gets back.
 *
 * States: `loading` → `ready` → `dealing` → `settled` (→ `ready` at the next bet), and `error`,
 * which keeps the bets and offers Retry; a retry resends the same request with the same
 * Idempotency-Key, so a round the Worker already played is answered again, never played twice.
 */
import { adoptStyles, html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { Bet, Box, RoomId, TableLimits } from '../../shared/table.ts';
import type { TableLayout } from '../layout.ts';
import type { SceneOptions, TableScene } from '../scene/index.ts';
import { normalizeLanguage } from '../i18n/languages.ts';
import type { ApiClient, ApiError, FetchLike } from './api-client.ts';
import type { ReceiptBody, RoundAnswer, SessionAnswer, ShoeStartAnswer, ShoeStartChoice, ShoeState, Signed } from './api-types.ts';
import type { BetChange, BetState } from './bet-state.ts';
import type { BetProblem, Spot } from './bets.ts';
import type * as Parts from './parts.ts';
import type { ViewHandlers, ViewModel } from './view.ts';
import { emit, type PuntoBancoEventMap } from './emit.ts';
import { I18nController } from './i18n-controller.ts';
import type { ShoeStartProvider } from './shoe-start.ts';
import type { PanelsController, PanelsLink, ShoeEndAnswer } from './panels-controller.ts';
import type { SceneSlot } from './scene-slot.ts';
import { loaderStyles } from './loader-styles.ts';

/** Where the table is in its life. */
export type TableState = 'loading' | 'ready' | 'dealing' | 'settled' | 'error';

/** Makes the Pixi scene. The default (set by widget/index.ts) imports `./scene/index.ts` lazily. */
export type SceneFactory = (options: SceneOptions, size?: { width: number; height: number }) => Promise<TableScene>;

/** Pointer travel (CSS px) that turns a press into a drag. */
const DRAG_THRESHOLD = 6;
/** How long a refused-bet message stays up. */
const TOAST_MS = 4_500;
/** Cards per deck, to show how much of the shoe is left. */
const CARDS_PER_DECK = 52;

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

interface Press {
  pointerId: number;
  x0: number;
  y0: number;
  chip?: number;
  from?: Spot;
  dragging: boolean;
  target: HTMLElement;
}

interface Notice {
  code: string;
  message: string;
  retry: (() => Promise<void>) | null;
}

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
 * @attr room - `hall-1` | `hall-2` | `vip`: limits and chips; changing it opens a new session.
 * @attr affiliate - The partner embedding the table (`a–z 0–9 _ -`, 1–40 characters): sent when the session opens, recorded on every receipt, and checked by the Worker against the page's origin. Changing it opens a new session.
 * @attr lang - `en` | `ru` | `it` | `el` (`ru-RU` etc. map to their language; anything else is English). Absent: the nearest `lang` up the page. Live.
 * @attr currency - ISO 4217 code for amounts (default `EUR`). Live.
 * @attr reduced-motion - Present: instant animations; `"false"`: animate even when the OS asks for less; absent: follow `prefers-reduced-motion` (live).
 * @attr resume - Default on: the table remembers its session (id and token only) in the tab's `sessionStorage`, per endpoint, room and affiliate, and resumes it after a page reload — balance, shoe, scoreboard and history. `"off"`: every page load opens a new session and storage is never read or written.
 *
 * @event pb-ready - The session is open and the table takes bets. detail: `{ sessionId, room, balance, limits }`.
 * @event pb-bet-change - The bets on the felt changed. detail: `{ bets: Bet[], total }` (minor units).
 * @event pb-round-settled - A round was dealt and settled. detail: the signed receipt `Signed<ReceiptBody>` as the Worker sent it.
 * @event pb-error - Something failed (Worker unreachable, a limit, session expired, no WebGL); the bets are kept. detail: `{ code, message }`.
 *
 * @csspart table - The whole table (stage and control bar).
 * @csspart stage - The felt: the canvas and the transparent buttons laid over it.
 * @csspart canvas - The Pixi canvas (aria-hidden; drawing only).
 * @csspart box - Each of the 15 betting boxes (also `box-player`, `box-banker`, `box-tie`).
 * @csspart chip - Each chip of the chip selector (also `chip-selected` on the selected one).
 * @csspart controls - The bar under the felt: balance, bet, status and buttons.
 * @csspart balance - The balance meter.
 * @csspart bet-total - The total bet meter.
 * @csspart status - The status line.
 * @csspart button - Every control button (also `deal`, `repeat`, `clear`, `undo`, `double`).
 * @csspart notice - The error notice with Retry.
 * @csspart loader - The loading overlay.
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
 * @cssproperty --pb-font - Font family.
 * @cssproperty --pb-chip-1 - Chip colours, smallest denomination first (through `--pb-chip-6`).
 */
export class PuntoBancoTable extends LitElement {
  static override styles = loaderStyles;

  /** The default scene factory; widget/index.ts sets it to a lazy `import('./scene/index.ts')`. */
  static defaultSceneFactory: SceneFactory | null = null;

  /** The `endpoint` of a table whose page names none: `/`; the CDN loader (widget/cdn.ts) sets the Worker that served it. */
  static defaultEndpoint = '/';

  /** Base URL of the Worker; API paths (`api/sessions`, …) are resolved against it. Default: the Worker that served the script (CDN loader), else `/` (same origin). */
  @property() endpoint = PuntoBancoTable.defaultEndpoint;

  /** The room, which sets limits and chips: `hall-1` (0.1–10), `hall-2` (1–100) or `vip` (25–1,000). Changing it opens a new session. */
  @property() room: RoomId = 'hall-1';

  /** The affiliate (partner) showing the table, sent with the new session and signed into every receipt; null: none. Changing it opens a new session. */
  @property() affiliate: string | null = null;

  /** ISO 4217 code used to format amounts (`EUR`, `USD`, …). Amounts are minor units, 1000 per currency unit. */
  @property() currency = 'EUR';

  /**
   * Motion override. Absent: follow the OS `prefers-reduced-motion` (live). Present (or `"true"`):
   * every animation is instant. `"false"`: animate even if the OS asks for less motion.
   */
  @property({ attribute: 'reduced-motion', converter: reducedMotionConverter, reflect: true }) reducedMotion: boolean | null = null;

  /** `"off"`: never resume a session after a reload, and never read or write `sessionStorage`. Default: on (see `@attr resume`). */
  @property() resume = 'on';

  // `lang` (en, ru, it, el; anything else falls back to English) is the native global attribute:
  // it is observed below instead of redeclared, so `el.lang = 'ru'` and the attribute agree.

  /** Picks the client seed and cut that start a committed shoe. Null (default): random, from crypto.getRandomValues. */
  shoeStartProvider: ShoeStartProvider | null = null;

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

  @state() private _state: TableState = 'loading';
  @state() private _balance = 0;
  @state() private _limits: TableLimits | null = null;
  @state() private _layout: TableLayout | null = null;
  @state() private _notice: Notice | null = null;
  @state() private _toast: string | null = null;
  @state() private _announcement = '';
  @state() private _lastResult: string | null = null;
  @state() private _lastWin: number | null = null;
  @state() private _ghost: { x: number; y: number; amount: number; tone: number } | null = null;
  @state() private _dropTarget: string | null = null;
  @state() private _mediaReduced = false;

  #i18n = new I18nController(this);
  // The lazy chunk's parts, and the controllers made from them once it has arrived.
  #parts: typeof Parts | null = null;
  #api: ApiClient | null = null;
  #bets: BetState | null = null;
  /** Scoreboard, history, fairness and help (panels-controller.ts). */
  #panels: PanelsController | null = null;
  #fetcher: FetchLike = (input, init) => fetch(input, init);
  #autoRetries = 2;
  #size: { width: number; height: number } | null = null;
  #session: { id: string; token: string } | null = null;
  /** Where this tab keeps the session for a reload (null: `resume="off"`, or not opened yet). */
  #store: Parts.SessionStore | null = null;
  /** Only the first boot resumes a stored session. */
  #resumable = true;
  #shoe: ShoeState | null = null;
  #consumed = 0;
  /** The scene's life: WebGL budget, visibility, rebuilds (scene-slot.ts, in the lazy chunk). */
  #slot: SceneSlot | null = null;
  #booting: Promise<void> | null = null;
  #createKey: string | null = null;
  #pendingStart: { shoe: number; body: ShoeStartChoice; key: string } | null = null;
  #pendingRound: { bets: Bet[]; key: string } | null = null;
  #lastError: ApiError | null = null;
  #lastBody: ReceiptBody | null = null;
  /** The settled round the felt shows (until swept): a rebuilt scene draws it again. */
  #onFelt: ReceiptBody | null = null;
  #press: Press | null = null;
  #suppressClickUntil = 0;
  #toastTimer: ReturnType<typeof setTimeout> | undefined;
  #resize: ResizeObserver | null = null;
  #media: MediaQueryList | null = null;
  #onMedia = (e: MediaQueryListEvent): void => {
    this._mediaReduced = e.matches;
  };

  // ---- public, read-only view of the table -------------------------------------------------

  /** Current state: loading, ready, dealing, settled or error. */
  get state(): TableState {
    return this._state;
  }

  /** The balance in minor units, as the Worker last reported it. */
  get balance(): number {
    return this._balance;
  }

  /** The bets on the felt (minor units), in table order. */
  get bets(): readonly Bet[] {
    return this.#bets?.bets ?? [];
  }

  /** The room's limits and chips, once the session is open. */
  get limits(): TableLimits | null {
    return this._limits;
  }

  /** The open session's id, or null. */
  get sessionId(): string | null {
    return this.#session?.id ?? null;
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
    void this.#configureLanguage();
    if (!this.#booting) this.#booting = this.#boot();
    else if (this._state !== 'loading') void this.#slot?.mount();
    if (this.hasUpdated) this.#observe();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#media?.removeEventListener('change', this.#onMedia);
    this.#resize?.disconnect();
    this.#resize = null;
    clearTimeout(this.#toastTimer);
    this.#endPress();
    this.#slot?.disconnect();
  }

  protected override firstUpdated(): void {
    this.#observe();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('currency')) void this.#configureLanguage();
    if (changed.has('endpoint') && this.#api) this.#api.endpoint = this.endpoint;
  }

  protected override updated(changed: PropertyValues): void {
    if (changed.has('reducedMotion') || changed.has('_mediaReduced')) {
      this.toggleAttribute('data-reduced-motion', this.effectiveReducedMotion);
      this.#scene?.setOptions({ reducedMotion: this.effectiveReducedMotion });
    }
    // A new room or Worker means a new session (the old one's limits no longer apply).
    const switched = ['room', 'endpoint', 'affiliate'].some((key) => changed.has(key) && changed.get(key) !== undefined);
    if (switched && this.#session && this._state !== 'dealing') void this.#reopen();
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

  // ---- boot: texts, session, scene ----------------------------------------------------------

  async #boot(): Promise<void> {
    this._state = 'loading';
    this._notice = null;
    try {
      await Promise.all([this.#i18n.load(), this.#loadParts()]);
    } catch (err) {
      this.#fail({ code: 'unreachable', message: String((err as Error)?.message ?? err), status: 0, retryable: true }, () => this.#boot());
      return;
    }
    const scene = this.#slot!.mount();
    const opened = await this.#openSession(() => this.#boot());
    await scene;
    if (!opened || !this.isConnected) return;
    this._state = 'ready';
    emit(this, 'pb-ready', { sessionId: this.#session!.id, room: this.room, balance: this._balance, limits: this._limits! });
  }

  /** The lazy chunk (templates, styles, geometry, bets, API client), then the controllers made from it. */
  async #loadParts(): Promise<void> {
    const parts = (this.#parts ??= await import('./parts.ts'));
    adoptStyles(this.renderRoot as ShadowRoot, [loaderStyles, parts.tableStyles, parts.panelsStyles]);
    if (!this.#api) {
      this.#api = new parts.ApiClient(this);
      this.#api.fetcher = this.#fetcher;
      this.#api.autoRetries = this.#autoRetries;
      this.#bets = new parts.BetState(this, (bets) => this.#betsChanged(bets));
      this.#panels = new parts.PanelsController(this, this.#panelsLink());
      this.#slot = new parts.SceneSlot(this, {
        maker: () => {
          const factory = this.sceneFactory ?? PuntoBancoTable.defaultSceneFactory;
          return factory && (() => factory({ ...this.#sceneTexts(), reducedMotion: this.effectiveReducedMotion }, this.#size ?? undefined));
        },
        restore: (scene) => this.#restore(scene),
        unavailable: (err) => emit(this, 'pb-error', { code: 'scene_unavailable', message: String((err as Error)?.message ?? err) }),
      });
      if (this.isConnected) this.#observe();
    }
    if (this.#size) this._layout = parts.tableLayout(this.#size.width, this.#size.height);
    this.requestUpdate();
  }

  async #reopen(): Promise<void> {
    this.#store?.release(this);
    this.#resumable = false; // a new room, affiliate or Worker opens a new session (the attributes say so)
    this.#bets?.reset();
    this.#session = null;
    this.#createKey = null;
    this.#pendingRound = null;
    this.#pendingStart = null;
    this.#booting = this.#boot();
    await this.#booting;
  }

  /**
   * Opens the table's session: on the first boot, the one this tab stored for this endpoint, room and
   * affiliate (if the Worker still knows it: session-store.ts), else a new one. On failure shows
   * the error with `retry`.
   */
  async #openSession(retry: () => Promise<void>): Promise<boolean> {
    const api = this.#api!;
    const parts = this.#parts!;
    api.endpoint = this.endpoint;
    const store = (this.#store = ['off', 'false'].includes(String(this.resume).trim().toLowerCase()) ? null : new parts.SessionStore(parts.storageKey(api.url(''), this.room, this.affiliate || null)));
    // A create already under way (a Retry) goes on with its key; otherwise a stored session comes first.
    const stored = this.#resumable && !this.#createKey ? store?.claim(this) : null;
    if (stored) {
      const result = await parts.resumeSession(api, store!, stored, this.room, this.affiliate || null);
      if (result.kind === 'resumed') {
        const { view, receipts } = result.value;
        this.#opened(stored, view, receipts);
        return true;
      }
      if (result.kind === 'failed') return this.#openFailed(result.error, retry);
    }
    this.#createKey ??= parts.newIdempotencyKey();
    api.token = null;
    const body = this.affiliate ? { room: this.room, affiliate: this.affiliate } : { room: this.room };
    const answer = await api.send<SessionAnswer>({ method: 'POST', path: 'api/sessions', body, idempotencyKey: this.#createKey });
    if (!answer.ok) {
      let error = answer.error;
      // A page the Worker refuses gets no CORS headers, which looks like a dead network: ask why.
      if (error.code === 'unreachable' && error.status === 0) error = (await parts.embedRefusal(this.#fetcher, this.endpoint, this.affiliate || null)) ?? error;
      return this.#openFailed(error, retry);
    }
    const s = answer.value;
    const session = { sessionId: s.sessionId, token: s.token };
    store?.keep(this, session);
    this.#opened(session, s, []);
    return true;
  }

  #openFailed(error: ApiError, retry: () => Promise<void>): false {
    if (error.code !== 'aborted' && this.isConnected) this.#fail(error, retry);
    return false;
  }

  /** The session is open (new, or resumed with the receipts of its current shoe): the table takes its state. */
  #opened(session: { sessionId: string; token: string }, s: { balance: number; limits: TableLimits; shoe: ShoeState }, receipts: Signed<ReceiptBody>[]): void {
    this.#createKey = null;
    this.#session = { id: session.sessionId, token: session.token };
    this.#api!.token = session.token;
    this._balance = s.balance;
    this._limits = s.limits;
    this.#setShoe(s.shoe, true);
    for (const r of receipts) this.#consume(r.body);
    this.#showShoe();
    this.#panels?.sessionOpened(s.shoe, receipts);
    this.#scene?.setOptions(this.#sceneTexts());
    this.#scene?.setBets(this.bets, s.limits.chips);
  }

  /** A new scene, now in the page, draws at once what the table knows (its predecessor's round, bets and shoe). */
  #restore(scene: TableScene): void {
    // The stage may have been measured (or resized) while the scene was being made.
    if (this.#size) scene.resize(this.#size.width, this.#size.height);
    scene.setOptions({ reducedMotion: this.effectiveReducedMotion });
    // Texts again: the session (and so the limits) may have arrived while the scene loaded.
    scene.setOptions(this.#sceneTexts());
    if (this.#onFelt) scene.showRound?.(this.#onFelt);
    scene.setBets(this.bets, this._limits?.chips ?? []);
    this.#showShoe();
  }

  #sceneTexts(): Omit<SceneOptions, 'reducedMotion'> {
    const t = (key: string): string => this.#i18n.t(key);
    const limits = this._limits;
    return {
      labels: {
        player: t('box.player'),
        banker: t('box.banker'),
        tie: t('box.tie'),
        pays: { player: t('pays.player'), banker: t('pays.banker'), tie: t('pays.tie') },
        result: { player: t('banner.player'), banker: t('banner.banker'), tie: t('banner.tie') },
        natural: t('natural'),
      },
      formatAmount: (minor) => this.#i18n.money(minor),
      limitsText: limits ? `${this.#i18n.money(limits.min)} – ${this.#i18n.money(limits.max)}` : '',
    };
  }

  async #configureLanguage(): Promise<void> {
    const lang = normalizeLanguage(this.getAttribute('lang') || this.closest('[lang]')?.getAttribute('lang') || document.documentElement.lang);
    const changed = lang !== this.#i18n.language;
    await this.#i18n.configure(lang, this.currency || 'EUR');
    // Texts already on screen were composed in the old language: a refusal goes, an error is re-said.
    if (changed) {
      this.#hideToast();
      if (this._notice && this.#lastError) this._notice = { ...this._notice, message: this.#errorText(this.#lastError) };
      if (this.#lastBody) this._lastResult = this.#resultText(this.#lastBody);
    }
    this.#scene?.setOptions(this.#sceneTexts());
  }

  // ---- shoe ---------------------------------------------------------------------------------

  #setShoe(shoe: ShoeState, fresh: boolean): void {
    if (fresh || shoe.number !== this.#shoe?.number) {
      this.#consumed = 0;
      this.#shoe = { ...shoe };
    } else {
      this.#shoe = { ...this.#shoe, ...shoe };
    }
    this.#showShoe();
  }

  /** The cards a round used are gone from the shoe. */
  #consume(body: ReceiptBody): void {
    for (const card of body.cards) this.#consumed = Math.max(this.#consumed, card.position + 1);
  }

  #showShoe(): void {
    if (!this.#shoe || !this.#scene) return;
    const decks = this.#shoe.commitment?.body.params.decks ?? this.#shoe.params?.decks ?? 6;
    const total = decks * CARDS_PER_DECK;
    this.#scene?.setShoe({ cardsLeft: Math.max(0, total - this.#consumed), total, discarded: this.#consumed });
  }

  /** Starts a committed shoe with the provider's seed and cut (kept, with its key, for retries). */
  async #startShoe(): Promise<boolean> {
    const shoe = this.#shoe!;
    if (this.#pendingStart?.shoe !== shoe.number) {
      let choice: ShoeStartChoice;
      try {
        choice = await (this.shoeStartProvider ?? this.#parts!.randomShoeStart)(shoe);
      } catch {
        this._state = 'ready'; // the player backed out of choosing a seed and cut
        return false;
      }
      this.#pendingStart = { shoe: shoe.number, body: { clientSeed: choice.clientSeed, cut: choice.cut }, key: this.#parts!.newIdempotencyKey() };
    }
    const pending = this.#pendingStart;
    const answer = await this.#api!.send<ShoeStartAnswer>({
      method: 'POST',
      path: `api/sessions/${encodeURIComponent(this.#session!.id)}/shoe/start`,
      body: pending.body,
      idempotencyKey: pending.key,
    });
    if (!answer.ok && answer.error.code !== 'shoe_already_started') {
      this.#roundFailed(answer.error);
      return false;
    }
    this.#pendingStart = null;
    this.#shoe = { ...shoe, ...(answer.ok ? answer.value.shoe : {}), status: 'in-play' };
    this.#panels?.shoeStarted(this.#shoe);
    return true;
  }

  /** What the panels may use of the table: the API client, the texts, and the two shoe actions below. */
  #panelsLink(): PanelsLink {
    return {
      api: this.#api!,
      t: (key, values) => this.#i18n.t(key, values),
      money: (minor) => this.#i18n.money(minor),
      language: () => this.#i18n.language,
      // "Cut and start": the player's fresh choice, not an earlier failed attempt's (hence no pending start).
      startShoe: async () => {
        if (!this.#canBet || this.#shoe?.status !== 'awaiting-start') return false;
        this.#pendingStart = null;
        return this.#startShoe();
      },
      endShoe: (key) => this.#endShoe(key),
    };
  }

  /** Ends the shoe in play early: the Worker reveals its server seed and commits the next shoe. */
  async #endShoe(key: string): ReturnType<PanelsLink['endShoe']> {
    if (!this.#canBet || this.#shoe?.status !== 'in-play') return null;
    const before = this._state;
    this._state = 'dealing'; // no bet or deal while the shoe changes
    const answer = await this.#api!.send<ShoeEndAnswer>({
      method: 'POST',
      path: `api/sessions/${encodeURIComponent(this.#session!.id)}/shoe/end`,
      body: {},
      idempotencyKey: key,
    });
    if (this._state === 'dealing') this._state = before;
    if (answer.ok) this.#setShoe(answer.value.nextShoe, true);
    return answer;
  }

  // ---- the deal -----------------------------------------------------------------------------

  /** Sends the bets on the felt to the Worker and plays the round it deals. */
  async deal(): Promise<void> {
    const parts = this.#parts;
    if (!this.#canBet || !this._limits || !parts) return;
    const checked = parts.checkBets(this.bets, this._limits, this._balance);
    if (!checked.ok) return this.#refuse(checked.error);
    if (checked.value.length === 0) return this.#refuse({ code: 'empty_bet', message: '' });
    // The same bets as a failed attempt keep that attempt's key: the Worker may already have dealt them.
    if (!this.#pendingRound || !parts.sameBets(this.#pendingRound.bets, checked.value)) {
      this.#pendingRound = { bets: checked.value, key: parts.newIdempotencyKey() };
    }
    await this.#runDeal();
  }

  /** Retries whatever failed, resending the same request with the same Idempotency-Key. */
  async retry(): Promise<void> {
    const retry = this._notice?.retry;
    if (!retry) return;
    this._notice = null;
    await retry();
  }

  async #runDeal(): Promise<void> {
    this._state = 'dealing';
    this._notice = null;
    this.#hideToast();
    if (!this.#session && !(await this.#openSession(() => this.#runDeal()))) return;
    if (this.#shoe?.status !== 'in-play' && !(await this.#startShoe())) return;
    const pending = this.#pendingRound;
    // No bets waiting: this was the retry of a shoe started without a deal ("Cut and start").
    if (!pending) return void (this._state = 'ready');
    const answer = await this.#api!.send<RoundAnswer>({
      method: 'POST',
      path: `api/sessions/${encodeURIComponent(this.#session!.id)}/rounds`,
      body: { bets: pending.bets },
      idempotencyKey: pending.key,
    });
    if (!answer.ok) return this.#roundFailed(answer.error);
    this.#pendingRound = null;
    await this.#play(answer.value);
  }

  #roundFailed(error: ApiError): void {
    if (error.code === 'aborted') return;
    if (error.code === 'session_expired') {
      if (this.#session) this.#store?.forget(this.#session.id);
      this.#session = null;
      this.#pendingStart = null;
    }
    if (error.code === 'shoe_not_started' && this.#shoe) this.#shoe = { ...this.#shoe, status: 'awaiting-start' };
    this.#fail(error, () => this.#runDeal());
  }

  async #play(answer: RoundAnswer): Promise<void> {
    const receipt = answer.receipt;
    const body = receipt.body;
    this.#consume(body);
    // The scene may go (out of view) or be rebuilt between these awaits: ask for it each time.
    this.#showShoe();
    this.#onFelt = null;
    await this.#scene?.clearRound();
    this.#onFelt = body;
    await this.#scene?.playRound(body);
    if (!this.isConnected) return;
    this._balance = answer.balance;
    // On a tie the Player and Banker bets were returned and stay on the felt (RULES.md).
    const staying = body.outcome === 'tie' ? body.bets.filter((b) => b.box !== 'tie') : [];
    const kept = staying.length && this._limits ? this.#parts!.checkBets(staying, this._limits, this._balance) : null;
    this.#bets!.settle(body.bets, kept?.ok ? kept.value : []);
    this._lastWin = body.returned;
    this.#lastBody = body;
    this._lastResult = this.#resultText(body);
    this._state = 'settled';
    let said = `${this._lastResult}. ${this.#netText(body)}.`;
    if (answer.nextShoe) {
      this.#setShoe(answer.nextShoe, true);
      said += ` ${this.#i18n.t('newShoe')}.`;
    } else if (this.#shoe) {
      this.#shoe = { ...this.#shoe, ...answer.shoe };
    }
    this.#announce(said);
    this.#panels?.roundPlayed(answer);
    emit(this, 'pb-round-settled', receipt as Signed<ReceiptBody>);
  }

  #resultText(body: ReceiptBody): string {
    return this.#i18n.t(`result.${body.outcome}`, { player: body.playerTotal, banker: body.bankerTotal });
  }

  #netText(body: ReceiptBody): string {
    const net = body.returned - body.staked;
    if (net > 0) return this.#i18n.t('net.win', { amount: this.#i18n.money(net) });
    if (net < 0) return this.#i18n.t('net.lose', { amount: this.#i18n.money(-net) });
    return this.#i18n.t(body.payouts.every((p) => p.result === 'push') ? 'net.push' : 'net.even');
  }

  // ---- errors and messages ------------------------------------------------------------------

  #fail(error: ApiError, retry: () => Promise<void>): void {
    this.#lastError = error;
    const message = this.#errorText(error);
    this._notice = { code: error.code, message, retry };
    this._state = 'error';
    emit(this, 'pb-error', { code: error.code, message });
  }

  #errorText(error: ApiError): string {
    return this.#parts ? this.#parts.explainApiError(this.#i18n, error, this.#context()) : error.message;
  }

  #betText(error: BetProblem | { code: string; message: string }): string {
    return this.#parts ? this.#parts.explainBetProblem(this.#i18n, error, this.#context()) : error.message;
  }

  #context(): { limits: TableLimits | null; balance: number; bets: readonly Bet[] } {
    return { limits: this._limits, balance: this._balance, bets: this.bets };
  }

  #refuse(error: BetProblem | { code: string; message: string }): void {
    const text = this.#betText(error);
    this._toast = text;
    clearTimeout(this.#toastTimer);
    this.#toastTimer = setTimeout(() => (this._toast = null), TOAST_MS);
    emit(this, 'pb-error', { code: error.code, message: text });
  }

  #hideToast(): void {
    clearTimeout(this.#toastTimer);
    this._toast = null;
  }

  /** Says `text` in the live region (a no-break space makes a repeated text count as new). */
  #announce(text: string): void {
    this._announcement = text === this._announcement.trimEnd() ? `${text}\u00a0` : text;
  }

  // ---- bets ---------------------------------------------------------------------------------

  get #canBet(): boolean {
    const s = this._state;
    return this.#bets !== null && this._limits !== null && this.#session !== null && (s === 'ready' || s === 'settled' || (s === 'error' && this._notice?.code !== 'session_expired'));
  }

  /** Applies a bet change: on success leaves the settled/error state; on refusal explains why. */
  #change(run: (limits: TableLimits, balance: number) => BetChange, said?: () => string): boolean {
    if (!this.#canBet || !this._limits) return false;
    const result = run(this._limits, this._balance);
    if (!result.ok) {
      this.#refuse(result.error);
      return false;
    }
    this.#hideToast();
    if (this._state === 'settled') {
      this.#onFelt = null;
      void this.#scene?.clearRound();
    }
    if (this._state !== 'ready') {
      this._notice = null;
      this._state = 'ready';
    }
    if (said) this.#announce(said());
    return true;
  }

  #betsChanged(bets: readonly Bet[]): void {
    this.#scene?.setBets(bets, this._limits?.chips ?? []);
    emit(this, 'pb-bet-change', { bets: bets.map((b) => ({ ...b })), total: this.#parts!.totalStake(bets) });
  }

  #spotText(at: Spot): Record<string, string | number> {
    return { box: this.#i18n.t(`box.${at.box}`), sector: at.sector + 1, amount: this.#i18n.money(this.#bets?.amountAt(at) ?? 0) };
  }

  /** Adds the selected chip (or the minimum) to a box, as a click or Enter would. */
  placeBet(sector: number, box: Box): boolean {
    const at = { sector, box };
    return this.#change((l, b) => this.#bets!.add(at, l, b), () => this.#i18n.t('betPlaced', this.#spotText(at)));
  }

  /** Removes a box's bet. */
  removeBet(sector: number, box: Box): boolean {
    const at = { sector, box };
    if (!this.#bets?.amountAt(at)) return false;
    return this.#change(() => this.#bets!.remove(at), () => this.#i18n.t('betRemoved', this.#spotText(at)));
  }

  /** Selects a chip by value (minor units), or none with null. */
  selectChip(amount: number | null): void {
    if (!this.#bets) return;
    this.#bets.selectedChip = amount;
    this.requestUpdate();
  }

  /** Removes every bet. */
  clearBets(): boolean {
    return this.#change(() => this.#bets!.clear(), () => this.#i18n.t('betsCleared'));
  }

  /** Takes back the last bet change. */
  undo(): boolean {
    return this.#change(() => this.#bets!.undo(), () => this.#totalText());
  }

  /** Doubles every bet, if the limits and balance allow. */
  double(): boolean {
    return this.#change((l, b) => this.#bets!.double(l, b), () => this.#totalText());
  }

  /** Puts the previous round's bets back, if still legal. */
  repeat(): boolean {
    return this.#change((l, b) => this.#bets!.repeat(l, b), () => this.#totalText());
  }

  #totalText(): string {
    return `${this.#i18n.t('bet')}: ${this.#i18n.money(this.#bets!.total)}`;
  }

  // ---- input: boxes, chips, drag ------------------------------------------------------------

  #onBoxClick(e: MouseEvent, at: Spot): void {
    if (performance.now() < this.#suppressClickUntil) return;
    if (e.ctrlKey || e.metaKey) this.removeBet(at.sector, at.box);
    else if (this.#bets!.selectedChip === null && this.#bets!.amountAt(at) > 0) this.removeBet(at.sector, at.box);
    else this.placeBet(at.sector, at.box);
  }

  #onBoxKey(e: KeyboardEvent, at: Spot): void {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      if (!e.repeat) this.placeBet(at.sector, at.box);
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      this.removeBet(at.sector, at.box);
    }
  }

  #onBoxContextMenu(e: MouseEvent, at: Spot): void {
    e.preventDefault();
    this.removeBet(at.sector, at.box);
  }

  #highlight(at: Spot | null): void {
    this.#scene?.setHighlight(at);
  }

  #onChipClick(amount: number): void {
    if (performance.now() < this.#suppressClickUntil) return;
    this.selectChip(this.#bets!.selectedChip === amount ? null : amount);
  }

  #onPointerDown(e: PointerEvent, source: { chip?: number; from?: Spot }): void {
    if (e.button !== 0 || e.ctrlKey || e.metaKey || !this.#canBet) return;
    if (source.from && this.#bets!.amountAt(source.from) === 0) return;
    this.#endPress();
    const target = e.currentTarget as HTMLElement;
    this.#press = { pointerId: e.pointerId, x0: e.clientX, y0: e.clientY, ...source, dragging: false, target };
    try {
      target.setPointerCapture(e.pointerId); // keeps the drag when the finger leaves the chip
    } catch {
      // a pointer the browser does not track (synthetic events): moves still reach the target
    }
    target.addEventListener('pointermove', this.#onPointerMove);
    target.addEventListener('pointerup', this.#onPointerUp);
    target.addEventListener('pointercancel', this.#onPointerCancel);
  }

  #onPointerMove = (e: PointerEvent): void => {
    const press = this.#press;
    if (!press || e.pointerId !== press.pointerId) return;
    if (!press.dragging && Math.hypot(e.clientX - press.x0, e.clientY - press.y0) < DRAG_THRESHOLD) return;
    press.dragging = true;
    const stage = this.renderRoot.querySelector('.stage')!.getBoundingClientRect();
    const amount = press.chip ?? (press.from ? this.#bets!.amountAt(press.from) : 0);
    const chips = this._limits?.chips ?? [];
    const tone = press.chip !== undefined ? chips.indexOf(press.chip) + 1 : toneOf(amount, chips);
    this._ghost = { x: e.clientX - stage.left, y: e.clientY - stage.top, amount, tone };
    const over = this.#spotAt(e.clientX, e.clientY);
    const key = over ? `${over.sector}:${over.box}` : null;
    if (key !== this._dropTarget) {
      this._dropTarget = key;
      this.#highlight(over);
    }
  };

  #onPointerUp = (e: PointerEvent): void => {
    const press = this.#press;
    if (!press || e.pointerId !== press.pointerId) return;
    this.#endPress();
    if (!press.dragging) return;
    // The click that follows this pointerup belongs to the drag, not to a tap.
    this.#suppressClickUntil = performance.now() + 400;
    const over = this.#spotAt(e.clientX, e.clientY);
    if (press.chip !== undefined) {
      if (over) {
        const chip = press.chip;
        this.#change((l, b) => this.#bets!.addChip(over, chip, l, b), () => this.#i18n.t('betPlaced', this.#spotText(over)));
      }
    } else if (press.from) {
      const from = press.from;
      if (!over) this.removeBet(from.sector, from.box); // dragged off the table
      else if (over.sector !== from.sector || over.box !== from.box) {
        this.#change((l, b) => this.#bets!.move(from, over, l, b), () => this.#i18n.t('betPlaced', this.#spotText(over)));
      }
    }
  };

  #onPointerCancel = (): void => this.#endPress();

  #endPress(): void {
    const press = this.#press;
    this.#press = null;
    if (press) {
      press.target.removeEventListener('pointermove', this.#onPointerMove);
      press.target.removeEventListener('pointerup', this.#onPointerUp);
      press.target.removeEventListener('pointercancel', this.#onPointerCancel);
      if (press.target.hasPointerCapture?.(press.pointerId)) press.target.releasePointerCapture(press.pointerId);
    }
    if (this._ghost || this._dropTarget) {
      this._ghost = null;
      this._dropTarget = null;
      this.#highlight(null);
    }
  }

  /** The betting box under a viewport point, if any. */
  #spotAt(x: number, y: number): Spot | null {
    const root = this.renderRoot as ShadowRoot;
    const hit = root.elementsFromPoint?.(x, y).find((el) => el instanceof HTMLElement && el.classList.contains('box')) as HTMLElement | undefined;
    if (!hit) return null;
    return { sector: Number(hit.dataset.sector), box: hit.dataset.box as Box };
  }

  // ---- render -------------------------------------------------------------------------------

  protected override render(): TemplateResult {
    const i = this.#i18n;
    const view = this.#parts;
    const loading = this._state === 'loading' || !i.ready || !view;
    const m = view && !loading ? this.#viewModel() : null;
    return html`
      <div class="table" part="table" role="region" aria-label=${i.t('table')} aria-busy=${loading ? 'true' : 'false'}>
        <div class="stage" part="stage" @contextmenu=${(e: Event) => e.preventDefault()}>
          <div class="canvas-host" aria-hidden="true"></div>
          ${m && view ? [view.renderPlainRound(m), view.renderBoxes(m), view.renderChips(m), view.renderGhost(m)] : nothing}
          ${view && (m || this._state === 'error') ? view.renderMessages(m ?? this.#viewModel()) : nothing}
          ${loading && this._state !== 'error'
            ? html`<div class="loader" part="loader"><div class="mark" aria-hidden="true">Punto Banco</div><div class="spinner"></div><div>${i.t('loading')}</div></div>`
            : nothing}
        </div>
        ${m && view ? view.renderBar(m) : nothing}
        <div class="sr-only" role="status" aria-live="polite" aria-atomic="true">${this._announcement}</div>
        ${m && this.#panels ? this.#panels.render() : nothing}
      </div>
    `;
  }

  #handlers: ViewHandlers = {
    boxClick: (e, at) => this.#onBoxClick(e, at),
    boxKey: (e, at) => this.#onBoxKey(e, at),
    boxContextMenu: (e, at) => this.#onBoxContextMenu(e, at),
    pointerDown: (e, source) => this.#onPointerDown(e, source),
    highlight: (at) => this.#highlight(at),
    chipClick: (amount) => this.#onChipClick(amount),
    action: (name) => {
      if (name === 'retry') void this.retry();
      else if (this.#canBet) void this[name === 'clear' ? 'clearBets' : name]();
    },
  };

  #viewModel(): ViewModel {
    const i = this.#i18n;
    const bets = this.#bets!;
    return {
      t: (key, values) => i.t(key, values),
      money: (minor) => i.money(minor),
      chipLabel: (minor) => i.chip(minor),
      layout: this._layout,
      limits: this._limits,
      canBet: this.#canBet,
      settled: this._state === 'settled',
      dealing: this._state === 'dealing',
      bets: bets.bets,
      total: bets.total,
      amountAt: (at) => bets.amountAt(at),
      selectedChip: bets.selectedChip,
      canUndo: bets.canUndo,
      canRepeat: bets.previous.length > 0,
      balance: this._balance,
      lastWin: this._lastWin,
      status: this.#statusText(),
      // A refused origin stays refused until the operator changes the configuration: no Retry to press in vain.
      notice: this._notice && this._state === 'error' ? { message: this._notice.message, canRetry: this._notice.retry !== null && this._notice.code !== 'origin_not_allowed' } : null,
      toast: this._toast,
      ghost: this._ghost,
      dropTarget: this._dropTarget,
      onFelt: this.#onFelt,
      on: this.#handlers,
    };
  }

  #statusText(): string {
    const i = this.#i18n;
    switch (this._state) {
      case 'dealing':
        return i.t('status.dealing');
      case 'settled':
        return this._lastResult ?? i.t('status.settled');
      case 'error':
        return this._notice?.message ?? i.t('status.error');
      default:
        return this.bets.length ? i.t('status.betting', { amount: i.money(this.#bets!.total) }) : i.t('status.ready');
    }
  }

  // Typed addEventListener for the pb-* events.
  override addEventListener<K extends keyof PuntoBancoEventMap>(type: K, listener: (this: PuntoBancoTable, ev: PuntoBancoEventMap[K]) => unknown, options?: boolean | AddEventListenerOptions): void;
  override addEventListener<K extends keyof HTMLElementEventMap>(type: K, listener: (this: PuntoBancoTable, ev: HTMLElementEventMap[K]) => unknown, options?: boolean | AddEventListenerOptions): void;
  override addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  override addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void {
    super.addEventListener(type, listener, options);
  }
}

/** The tone (1–6) of the largest chip not above `amount`, for a dragged stack. */
function toneOf(amount: number, chips: readonly number[]): number {
  let tone = 1;
  chips.forEach((chip, index) => {
    if (chip <= amount) tone = index + 1;
  });
  return tone;
}

declare global {
  interface HTMLElementTagNameMap {
    'punto-banco-table': PuntoBancoTable;
  }
}
