/**
 * <punto-banco-table>: the embeddable Punto Banco table. Lit owns the state, the DOM controls and
 * accessibility; the Pixi scene (loaded lazily) only draws. Every outcome comes from the Worker:
 * the element sends bets and animates the signed receipt it gets back.
 *
 * The element draws the loading state and holds the public API; its loader (table-loader.ts, in
 * the same chunk) boots the table, watches the page for it and follows the language. What
 * runs once the table is up comes in the lazy parts chunk (parts.ts) as controllers: the session,
 * shoe and round (table-session.ts, with the states and retries), the bet boxes' input with the
 * bets and dragging (bet-input.ts), the status line and announcer (round-status.ts), the room or
 * mode switch (switch-question.ts), the panels (panels/drawer-controller.ts) and the scene's life
 * (scene-slot.ts), made and held together by table-controllers.ts, which also gathers the
 * reads the view model is built from (view-model.ts). A round reaches the scene and the panels as
 * the widget's own view of it (round-view.ts).
 */
import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property } from 'lit/decorators.js';
import type { Bet, Box, RoomId, TableLimits } from '../../shared/table.ts';
import type { ShoeMode } from '../../shared/shoe.ts';
import type { WalletSessionView } from '../../shared/api.ts';
import { DEFAULT_ROOM } from '../../shared/default-room.ts';
import type { SceneOptions, TableScene } from '../scene/types.ts';
import type { FetchLike, SocketFactory, TableState } from './host-types.ts';
import type { PuntoBancoEventMap } from './emit.ts';
import type { ShoeStartProvider } from '../session/shoe-start.ts';
import type { TablePlay } from '../session/table-play.ts';
import type { TableControllers } from './table-controllers.ts';
import { TableLoader } from './table-loader.ts';
import { loaderStyles } from '../styles/loader.ts';
import { reducedMotionConverter } from './reduced-motion-attribute.ts';

export type { TableState };

/** Makes the Pixi scene. The default (set by widget/index.ts) imports `./scene/index.ts` lazily. */
export type SceneFactory = (options: SceneOptions, size?: { width: number; height: number }) => Promise<TableScene>;

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
 * @attr launch-token - A casino's launch token (wallet mode, WALLET.md "The launch"): the table redeems it for the launched player's session (`POST /api/sessions` with `launchToken`, the player's key as always) instead of opening a play-money session. Every amount is then in the session's currency, in its ISO 4217 minor units (`currency` does not apply), the room is the launch's, and the table shows a payout the wallet has not confirmed yet ("payout pending"), the reality check and the session's end. A refused token (unknown, used, expired, another casino's) is said in the player's language, with the casino's link back when known. Stored for a reload under the token, never under a room: a play session and a launched one are never mixed up.
 * @attr operator - With `launch-token`: the casino (operator id) the token must belong to.
 * @attr squeeze - Present: the squeeze. The first two cards of the side the player backed (the larger stake of Player and Banker; Player when equal, or with none, or only Tie) and its third card are dealt face down and wait for the player: a drag on a card peels its corner and turns it once lifted far enough; a tap, or Enter or Space on the focused card, turns it; "Reveal" turns them all; a card not turned within 6 s turns by itself. The result, the totals, the payouts and the voice wait for them. Display only: the Worker's receipt decided the round; at a shared table the squeeze is the player's own screen's and never delays the table. Absent (default): the cards turn by themselves, as ever. Live: removed mid-deal, the cards waiting turn at once.
 * @attr resume - Default on: the table remembers its session (id and token only) in the tab's `sessionStorage`, per endpoint, room and affiliate, and resumes it after a page reload — balance, shoe, scoreboard and history. `"off"`: every page load opens a new session and storage is never read or written.
 *
 * @event {CustomEvent<ReadyDetail>} pb-ready - The session is open and the table takes bets. detail: `{ sessionId, room, balance, limits }`.
 * @event {CustomEvent<BetChangeDetail>} pb-bet-change - The bets on the felt changed. detail: `{ bets: Bet[], total }` (minor units).
 * @event {CustomEvent<RoundSettledDetail>} pb-round-settled - A round was dealt and settled. detail: the signed pb-fair-2 receipt `Signed<Receipt>` as the Worker sent it (its bets are in the acceptance it follows); at a shared table (`table`), the player's signed pb-shared-1 settlement.
 * @event {CustomEvent<ErrorDetail>} pb-error - Something failed (Worker unreachable, a limit, session expired, no WebGL); the bets are kept. detail: `{ code, message }`.
 * @event {CustomEvent<RealityCheckDetail>} pb-reality-check - Wallet mode: a reality check now waits for the player's answer (Continue or Stop); no bet is taken until then. detail: `{ playedMs, net, wagered, currency }` (amounts in the currency's ISO 4217 minor units).
 * @event {CustomEvent<SessionEndedDetail>} pb-session-ended - Wallet mode: the session ended (time limit, the player stopped, self-exclusion, the casino ended it); no bet is taken any more. detail: `{ code, returnUrl }`.
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
 * @csspart road-glance - The shoe's Bead Plate and Big Road at a glance, in the panels' strip (under the felt of a phone held sideways); a click opens the scoreboard.
 * @csspart notice - The error notice with Retry.
 * @csspart loader - The loading overlay.
 * @csspart win - After a round: what came back and the net ("Returned €1.95 · net −€0.05").
 * @csspart pending - "Payout pending" beside the balance: a payment the wallet has not confirmed, or what a shared table still owes the session.
 * @csspart reality-check - Wallet mode: the reality check dialog.
 * @csspart session-ended - Wallet mode: the session's end (the reason and the link back to the casino), or a refused launch.
 * @csspart squeeze-reveal - With `squeeze`: the Reveal button that turns the squeezed cards at once (with `button`).
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
 * @cssproperty [--pb-glance-cell=6px] - Cell size of the roads at a glance in the panels' strip.
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

  /** The squeeze: the backed side's first two cards (and its third) wait face down until the player peels them (drag) or turns them (tap, Enter, Reveal), 6 s at most; display only. Off by default. */
  @property({ type: Boolean, reflect: true }) squeeze = false;

  /** `"off"`: never resume a session after a reload, and never read or write `sessionStorage`. Default: on (see `@attr resume`). */
  @property() resume = 'on';

  /**
   * A casino's launch token (wallet mode): the table redeems it for a session of that casino's
   * player, whose money is the casino wallet's, instead of opening a play-money session. Its room,
   * limits, currency and (unless the page sets `lang`) language are the launch's (`room` and `currency` do not apply). Null
   * (default): play money.
   */
  @property({ attribute: 'launch-token' }) launchToken: string | null = null;

  /** With `launch-token`: the casino the token must belong to (else it is refused, `launch_wrong_operator`). */
  @property() operator: string | null = null;

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
    if (this.#controllers) this.#controllers.api.fetcher = value;
  }

  /** Automatic retries of a transient failure (same Idempotency-Key) before the error shows. Default 2. */
  get autoRetries(): number {
    return this.#autoRetries;
  }
  set autoRetries(value: number) {
    this.#autoRetries = Math.max(0, Math.floor(value));
    if (this.#controllers) this.#controllers.api.autoRetries = this.#autoRetries;
  }

  /** The boot, the page's watchers, the language; the lazy parts and their controllers (table-loader.ts). */
  readonly #loader = new TableLoader(this);
  #fetcher: FetchLike = (input, init) => fetch(input, init);
  #autoRetries = 2;

  // ---- public, read-only view of the table -------------------------------------------------

  /** Current state: loading, ready, dealing, settled or error. */
  get state(): TableState {
    return this.#loader.bootNotice ? 'error' : (this.#table?.state ?? 'loading');
  }

  /** Wallet mode: the session's wallet view (currency, pending payouts, reality check, end); null for play money. */
  get wallet(): WalletSessionView | null {
    return this.#controllers?.private.wallet ?? null;
  }

  /** Wallet mode: answers the reality check (as its buttons do): `continue` goes on betting, `stop` ends the session. */
  async answerRealityCheck(choice: 'continue' | 'stop'): Promise<boolean> {
    return (await this.#controllers?.private.answerRealityCheck(choice)) ?? false;
  }

  /** The balance in minor units, as the Worker last reported it. */
  get balance(): number {
    return this.#table?.balance ?? 0;
  }

  /** The bets on the felt (minor units), in table order. */
  get bets(): readonly Bet[] {
    return this.#controllers?.bets.bets ?? [];
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
    return this.reducedMotion ?? this.#loader.mediaReduced;
  }

  /** The mounted scene (null while loading, after teardown, or without WebGL). */
  get scene(): TableScene | null {
    return this.#scene;
  }

  get #scene(): TableScene | null {
    return this.#controllers?.slot.scene ?? null;
  }

  get #controllers(): TableControllers | null {
    return this.#loader.controllers;
  }

  /** Session, shoe and round (the private table), or the shared table played over that session. */
  get #table(): TablePlay | null {
    return this.#loader.table;
  }

  // ---- lifecycle ----------------------------------------------------------------------------

  static override get observedAttributes(): string[] {
    return [...super.observedAttributes, 'lang'];
  }

  override attributeChangedCallback(name: string, old: string | null, value: string | null): void {
    super.attributeChangedCallback(name, old, value);
    if (name === 'lang' && old !== value) void this.#loader.configureLanguage();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#loader.connected();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#loader.disconnected();
  }

  protected override firstUpdated(): void {
    this.#loader.observe();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    this.#loader.willUpdate(changed);
  }

  protected override updated(changed: PropertyValues): void {
    this.#loader.updated(changed);
  }

  /** The player's answer to the switch question: yes opens the new session, no puts the old mode or room back. */
  confirmSwitch(yes: boolean): void {
    this.#controllers?.switch.answer(yes);
  }

  /** The player's sound button: mutes or unmutes, remembered for the next visit. */
  toggleMuted(): void {
    this.muted = !this.muted;
    this.#controllers?.audio.setMuted(this.muted, true);
  }

  // ---- the deal -----------------------------------------------------------------------------

  /** Sends the bets on the felt to the Worker and plays the round it deals. */
  async deal(): Promise<void> {
    if (this.#canBet) await this.#controllers!.deal();
  }

  /** Retries whatever failed, resending the same request with the same Idempotency-Key. */
  async retry(): Promise<void> {
    if (!(await this.#loader.retryBoot())) await this.#table?.retry();
  }

  // ---- bets (the bet boxes' and the chip tray's input: bet-input.ts) -------------------------

  get #canBet(): boolean {
    return this.#loader.canBet;
  }

  /** Adds the selected chip (or the minimum) to a box, as a click or Enter would. */
  placeBet(sector: number, box: Box): boolean {
    return this.#controllers?.input.place({ sector, box }) ?? false;
  }

  /** Removes a box's bet. */
  removeBet(sector: number, box: Box): boolean {
    return this.#controllers?.input.remove({ sector, box }) ?? false;
  }

  /** Selects a chip by value (minor units), or none with null. */
  selectChip(amount: number | null): void {
    this.#controllers?.input.select(amount);
  }

  /** Removes every bet. */
  clearBets(): boolean {
    return this.#controllers?.input.clear() ?? false;
  }

  /** Takes back the last bet change. */
  undo(): boolean {
    return this.#controllers?.input.undo() ?? false;
  }

  /** Doubles every bet, if the limits and balance allow. */
  double(): boolean {
    return this.#controllers?.input.double() ?? false;
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
    await this.#loader.parts?.toggleFullscreen(this);
  }

  /** Puts the previous round's bets back, if still legal. */
  repeat(): boolean {
    return this.#controllers?.input.repeat() ?? false;
  }

  // ---- render -------------------------------------------------------------------------------

  protected override render(): TemplateResult {
    const i = this.#loader.i18n;
    const view = this.#loader.parts;
    const state = this.state;
    const loading = state === 'loading' || !i.ready || !view;
    const c = this.#controllers;
    const m = c && view && !loading ? c.viewModel() : null;
    return html`
      <div class="table" part="table" lang=${i.language} data-mode=${this.mode} role="region" aria-label=${i.t('table')} aria-busy=${loading ? 'true' : 'false'}>
        <div class="stage" part="stage" @contextmenu=${(e: Event) => e.preventDefault()} @pointerleave=${(e: PointerEvent) => this.#controllers?.input.leaveField(e)}>
          <div class="canvas-host" aria-hidden="true"></div>
          ${m && view ? [view.renderPlainRound(m), view.renderChips(m), view.renderBoxes(m), view.renderGhost(m)] : nothing}
          ${m && c ? c.renderHud(m) : nothing} ${m && c ? c.squeeze.render() : nothing}
          ${c && view && (m || state === 'error') ? view.renderMessages(m ?? c.viewModel()) : nothing} ${m && view ? view.renderSwitchQuestion(m) : nothing}
          ${m && view ? view.renderWalletScreens(m) : nothing}
          ${
            loading && state !== 'error'
              ? html`<div class="loader" part="loader"><div class="mark" aria-hidden="true">Punto Banco</div><div class="spinner"></div><div>${i.t('loading')}</div></div>`
              : nothing
          }
        </div>
        ${m && view ? view.renderBar(m) : nothing}
        <div class="sr-only" role="status" aria-live="polite" aria-atomic="true">${c?.status.announcement ?? ''}</div>
        ${m && c ? c.renderSide(m) : nothing}
      </div>
    `;
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
