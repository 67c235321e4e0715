/**
 * The table's templates and texts: pure functions of a view model the element builds at each
 * render. Loaded lazily together with the catalogs (the loader only draws the loading overlay), so
 * the entry chunk stays small. No state lives here.
 */
import { html, nothing, svg, type SVGTemplateResult, type TemplateResult } from 'lit';
import { cssProps } from './css-props.ts';
import { type Bet, BOXES, type RoomId, SECTORS, startingBalance, type TableLimits, totalStake } from '../../shared/table.ts';
import type { Rect, TableLayout } from '../layout.ts';
import type { SettledRound } from '../round-view.ts';
import { cardFace } from '../panels/card-face.ts';
import type { BetProblem, Spot } from './bets.ts';
import type { SceneOptions } from '../scene/types.ts';
import { tableStyles } from '../styles/table.ts';
import { type PendingPayout, renderBackLink, renderPending, walletErrorText, type WalletViewModel } from './wallet-view.ts';

export { tableStyles };

/** What the templates read and call. */
export interface ViewModel {
  t(key: string, values?: Record<string, string | number>): string;
  money(minor: number): string;
  /** A round's net as shown beside its rounded returned and staked figures (shared/money.ts displayedReturn). */
  net(returned: number, staked: number): number;
  chipLabel(minor: number): string;
  layout: TableLayout | null;
  limits: TableLimits | null;
  canBet: boolean;
  settled: boolean;
  dealing: boolean;
  bets: readonly Bet[];
  total: number;
  amountAt(at: Spot): number;
  selectedChip: number | null;
  canUndo: boolean;
  canRepeat: boolean;
  /** Double would be taken (every doubled bet within the limits and the balance). */
  canDouble: boolean;
  balance: number;
  lastWin: number | null;
  /** What the last round staked: a return not above it is shown as returned, not as a win. */
  lastStaked: number;
  /** The table's settings as the player sees them. */
  muted: boolean;
  fast: boolean;
  mode: 'shoe' | 'reshuffle';
  /** A shared table: Deal is "Place bet" (the round is dealt for all at the close), and the mode is the table's. */
  shared?: boolean;
  /** null: the page cannot go full screen (the button is not shown). */
  fullscreen: boolean | null;
  status: string;
  notice: { message: string; canRetry: boolean } | null;
  toast: string | null;
  ghost: { x: number; y: number; amount: number; tone: number } | null;
  dropTarget: string | null;
  /** The one box in the Tab order (the others are reached with the arrow keys). */
  activeBox: Spot;
  /** The round still on the felt (the scene draws it; the plain felt draws it from here). */
  onFelt: SettledRound | null;
  /** The session so far: since when (ms), rounds, staked, net (minor units). */
  summary: SessionSummary;
  /** A mode or room switch waiting for the player's yes (it opens a new session). */
  confirm: SwitchQuestion | null;
  /** Wallet mode (a launched session; wallet-view.ts), else null. */
  wallet?: WalletViewModel | null;
  /** Money on its way to the balance, not in it yet ("Payout pending"; wallet-view.ts), else null. */
  pending?: PendingPayout | null;
  on: ViewHandlers;
}

export interface SessionSummary {
  since: number;
  now: number;
  rounds: number;
  staked: number;
  net: number;
}

/** What a switch asks: to which mode or room (already in words), and the room the new session opens in. */
export interface SwitchQuestion {
  to: string;
  room: RoomId;
}

export interface ViewHandlers {
  boxClick(e: MouseEvent, at: Spot): void;
  boxKey(e: KeyboardEvent, at: Spot): void;
  boxFocus(at: Spot): void;
  boxContextMenu(e: MouseEvent, at: Spot): void;
  pointerDown(e: PointerEvent, source: { chip?: number; from?: Spot }): void;
  highlight(at: Spot | null): void;
  chipClick(amount: number): void;
  action(name: 'undo' | 'clear' | 'double' | 'repeat' | 'deal' | 'repeatDeal' | 'retry'): void;
  /** The player's answer to a switch question. */
  confirmSwitch(yes: boolean): void;
  tool(name: 'sound' | 'fast' | 'fullscreen' | 'mode'): void;
}

/** The box's accessible name: "Banker, sector 2, bet €1.00". */
export function boxLabel(m: Pick<ViewModel, 't' | 'money' | 'amountAt'>, at: Spot): string {
  const amount = m.amountAt(at);
  return m.t(amount > 0 ? 'boxLabelBet' : 'boxLabel', { box: m.t(`box.${at.box}`), sector: at.sector + 1, amount: m.money(amount) });
}

/**
 * The box an arrow key moves to from `at` (null: not an arrow, or the felt's edge): left and right
 * go along the ring from sector to sector, up goes towards the dealer (Player, Banker, Tie), down
 * back towards the player; Home and End go to the ring's first and last sector.
 */
export function boxAfterKey(at: Spot, key: string): Spot | null {
  const ring = BOXES.indexOf(at.box);
  const to = (sector: number, r: number): Spot | null =>
    sector < 0 || sector >= SECTORS || r < 0 || r >= BOXES.length || (sector === at.sector && r === ring) ? null : { sector, box: BOXES[r]! };
  switch (key) {
    case 'ArrowLeft':
      return to(at.sector - 1, ring);
    case 'ArrowRight':
      return to(at.sector + 1, ring);
    case 'ArrowUp':
      return to(at.sector, ring + 1);
    case 'ArrowDown':
      return to(at.sector, ring - 1);
    case 'Home':
      return to(0, ring);
    case 'End':
      return to(SECTORS - 1, ring);
    default:
      return null;
  }
}

/**
 * The 15 transparent buttons over the felt's boxes, in table order (sector by sector, left to
 * right). One of them is in the Tab order (a roving tabindex); the arrow keys move between them.
 */
export function renderBoxes(m: ViewModel): TemplateResult | typeof nothing {
  const layout = m.layout;
  if (!layout) return nothing;
  const disabled = m.canBet ? 'false' : 'true';
  return html`<div class="boxes" role="group" aria-label=${m.t('table')}>
    ${layout.boxes.map((spot) => {
      const at: Spot = { sector: spot.sector, box: spot.box };
      const drop = m.dropTarget === `${spot.sector}:${spot.box}`;
      const amount = m.amountAt(at);
      const place = { left: `${spot.x}px`, top: `${spot.y}px`, width: `${spot.w}px`, height: `${spot.h}px`, transform: `rotate(${spot.angle}rad)` };
      return html`<button
        class="box ${drop ? 'drop' : ''} ${amount > 0 ? 'bet' : ''}"
        part="box box-${spot.box}"
        data-sector=${spot.sector}
        data-box=${spot.box}
        aria-label=${boxLabel(m, at)}
        aria-disabled=${disabled}
        tabindex=${m.activeBox.sector === spot.sector && m.activeBox.box === spot.box ? '0' : '-1'}
        ${cssProps(place)}
        @click=${(e: MouseEvent) => m.on.boxClick(e, at)}
        @keydown=${(e: KeyboardEvent) => m.on.boxKey(e, at)}
        @keyup=${(e: KeyboardEvent) => e.key === ' ' && e.preventDefault()}
        @contextmenu=${(e: MouseEvent) => m.on.boxContextMenu(e, at)}
        @pointerdown=${(e: PointerEvent) => m.on.pointerDown(e, { from: at })}
        @pointerenter=${() => m.on.highlight(at)}
        @pointerleave=${() => m.dropTarget === null && m.on.highlight(null)}
        @focus=${() => {
          m.on.boxFocus(at);
          m.on.highlight(at);
        }}
        @blur=${() => m.on.highlight(null)}
      >
        <span class="plain"><span class="plain-name">${m.t(`box.${spot.box}`)}</span></span>
      </button>${
        amount > 0
          ? // The plain felt's bet, beside the button: inside, it would break the button's label-in-name (WCAG 2.5.3).
            html`<span class="plain-stack" aria-hidden="true" ${cssProps(place)}><span class="plain-bet">${m.money(amount)}</span></span>`
          : nothing
      }`;
    })}
  </div>`;
}

/**
 * The round on the plain felt (no scene): both hands as cards in their places on the layout, and
 * the result where the scene shows its banner. Hidden by CSS whenever a scene draws the felt.
 */
export function renderPlainRound(m: ViewModel): TemplateResult | typeof nothing {
  const { layout, onFelt: body } = m;
  if (!layout || !body) return nothing;
  const hand = (side: 'player' | 'banker', rect: Rect, total: number) => html`<div
    class="plain-hand ${side}"
    ${cssProps({ left: `${rect.x}px`, top: `${rect.y}px`, width: `${rect.w}px`, height: `${rect.h}px` })}
  >
    <span class="plain-hand-name">${m.t(`box.${side}`)} · ${total}</span>
    <span class="plain-cards"
      >${body.cards
        .filter((c) => c.hand === side)
        .map((c) => {
          const face = cardFace(c.code);
          return html`<span class="plain-card ${face.red ? 'red' : ''}">${face.rank}${face.suit}</span>`;
        })}</span
    >
  </div>`;
  const r = layout.result;
  return html`<div class="plain-round" aria-hidden="true">
    ${hand('player', layout.playerHand, body.playerTotal)} ${hand('banker', layout.bankerHand, body.bankerTotal)}
    <div class="plain-result ${body.outcome}" ${cssProps({ left: `${r.x}px`, top: `${r.y}px`, width: `${r.w}px`, height: `${r.h}px` })}>
      ${m.t(`result.${body.outcome}`, { player: body.playerTotal, banker: body.bankerTotal })}
    </div>
  </div>`;
}

/**
 * A chip's accessible name, which must contain what the chip shows (WCAG 2.5.3, label in name):
 * "Chip €1.00" for the 1 chip, but "Chip 0.1 (€0.10)" where the face is not part of the amount.
 */
function chipName(m: ViewModel, chip: number): string {
  const face = m.chipLabel(chip);
  const amount = m.money(chip);
  // As a whole token: "1" is in "€1.00", but "0.1" is not in "€0.10".
  const inAmount = new RegExp(`(^|[^\\d.])${face.replace(/[.]/g, '\\.')}($|[^\\d])`).test(amount);
  return m.t('chip', { amount: inAmount ? amount : `${face} (${amount})` });
}

/** The chip selector, in the felt's chip tray. */
export function renderChips(m: ViewModel): TemplateResult | typeof nothing {
  const { layout, limits } = m;
  if (!layout || !limits) return nothing;
  const tray = layout.chipTray;
  const n = limits.chips.length;
  const size = Math.floor(Math.max(34, Math.min(tray.h * 0.72, (tray.w - 24 - (n - 1) * 10) / n, 64)));
  return html`<div class="tray">
    <div class="chips" role="group" aria-label=${m.t('chips')} ${cssProps({ left: `${tray.x}px`, top: `${tray.y}px`, width: `${tray.w}px`, height: `${tray.h}px`, '--chip-size': `${size}px` })}>
      ${limits.chips.map((chip, index) => {
        const selected = m.selectedChip === chip;
        return html`<button
          class="chip"
          part=${selected ? 'chip chip-selected' : 'chip'}
          data-tone=${index + 1}
          data-value=${chip}
          aria-pressed=${selected ? 'true' : 'false'}
          aria-label=${chipName(m, chip)}
          aria-disabled=${m.canBet ? 'false' : 'true'}
          @click=${() => m.on.chipClick(chip)}
          @pointerdown=${(e: PointerEvent) => m.on.pointerDown(e, { chip })}
        >
          ${m.chipLabel(chip)}
        </button>`;
      })}
    </div>
  </div>`;
}

/** The chip (or stack) following a drag. */
export function renderGhost(m: ViewModel): TemplateResult | typeof nothing {
  const g = m.ghost;
  if (!g) return nothing;
  return html`<div class="ghost chip" data-tone=${Math.min(6, Math.max(1, g.tone))} aria-hidden="true" ${cssProps({ transform: `translate(${g.x - 23}px, ${g.y - 23}px)` })}>
    ${m.chipLabel(g.amount)}
  </div>`;
}

/** A refused bet (transient) and the error notice with Retry. */
export function renderMessages(m: ViewModel): TemplateResult {
  // The refusal stands in the felt's empty room (layout.ts): over the empty hands, or beside the
  // dealt cards (in a smaller type) while they lie on the felt; beside the offer of the cut while it
  // stands (styles/console.ts).
  const byCards = m.dealing || m.settled;
  const place: Record<string, string> = {};
  const rooms = m.layout ? { '': byCards ? m.layout.toastByCards : m.layout.toast, '-offer': m.layout.toastByOffer } : {};
  for (const [k, r] of Object.entries(rooms))
    Object.assign(place, { [`--toast${k}-x`]: `${r.x + r.w / 2}px`, [`--toast${k}-y`]: `${r.y}px`, [`--toast${k}-w`]: `${r.w}px` });
  return html`${m.toast ? html`<div class="toast ${byCards ? 'by-cards' : ''}" role="alert" ${cssProps(place)}>${m.toast}</div>` : nothing}
  ${
    m.notice
      ? html`<div class="notice" part="notice" role="alert">
        <div>${m.notice.message}</div>
        ${
          m.notice.canRetry
            ? html`<div class="buttons"><button class="action retry" part="button retry" @click=${() => m.on.action('retry')}>${m.t('retry')}</button></div>`
            : nothing
        }
        ${m.wallet?.refusedReturnUrl ? html`<div class="buttons back">${renderBackLink(m, m.wallet.refusedReturnUrl)}</div>` : nothing}
      </div>`
      : nothing
  }`;
}

/**
 * The switch question: a mode or room switch opens a new session, so the table asks first and says
 * what happens to the balance (it stays with this session; the new one starts afresh).
 */
export function renderSwitchQuestion(m: ViewModel): TemplateResult | typeof nothing {
  const q = m.confirm;
  if (!q) return nothing;
  const onKey = (e: KeyboardEvent): void => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      m.on.confirmSwitch(false);
    }
  };
  return html`<div class="switch-question" role="alertdialog" aria-modal="true" aria-labelledby="pb-switch-title" aria-describedby="pb-switch-body" @keydown=${onKey}>
    <h2 id="pb-switch-title">${m.t('play.switchTitle', { mode: q.to })}</h2>
    <p id="pb-switch-body">${m.t('play.switchBody', { balance: m.money(m.balance), start: m.money(startingBalance(q.room)) })}</p>
    <div class="buttons">
      <button type="button" class="action switch-cancel" @click=${() => m.on.confirmSwitch(false)}>${m.t('play.switchCancel')}</button>
      <button type="button" class="action switch-confirm" @click=${() => m.on.confirmSwitch(true)}>${m.t('play.switchConfirm')}</button>
    </div>
  </div>`;
}

/**
 * The session at a glance, one tap away (a native <details> at the start of the panels' strip, or of
 * a shared table's side): time at the table, rounds, staked, net result.
 */
export function renderSummary(m: Pick<ViewModel, 't' | 'money' | 'summary'>): TemplateResult {
  const s = m.summary;
  const minutes = Math.max(0, Math.floor((s.now - s.since) / 60_000));
  const row = (key: string, value: string, part: string): TemplateResult => html`<dt>${m.t(key)}</dt><dd data-summary=${part}>${value}</dd>`;
  return html`<details class="session-summary" part="summary">
    <summary>${m.t('play.summary')}</summary>
    <div class="summary-card" role="group" aria-label=${m.t('play.summaryTitle')}>
      <dl>
        ${row('play.summaryTime', m.t('play.summaryMinutes', { minutes }), 'time')} ${row('play.summaryRounds', String(s.rounds), 'rounds')}
        ${row('play.summaryStaked', m.money(s.staked), 'staked')} ${row('play.summaryNet', signedMoney(m, s.net), 'net')}
      </dl>
    </div>
  </details>`;
}

/** The control bar: balance, bet, last win, the status line and the buttons. */
export function renderBar(m: ViewModel): TemplateResult {
  const off = (enabled: boolean): string => (m.canBet && enabled ? 'false' : 'true');
  const hasBets = m.bets.length > 0;
  const button = (name: 'undo' | 'clear' | 'double' | 'repeat' | 'deal' | 'repeatDeal', enabled: boolean, keys?: string): TemplateResult =>
    html`<button class="action ${name}" part="button ${name}" data-action=${name} aria-disabled=${off(enabled)} aria-keyshortcuts=${keys ?? nothing} @click=${() => m.on.action(name)}>${m.t(m.shared && (name === 'deal' || name === 'repeatDeal') ? `shared.${name}` : name)}</button>`;
  // What came back (gross) and what it made (net), named as such: never a gross "win" beside a net one.
  const returned = m.settled && m.lastWin ? m.t('play.returned', { amount: m.money(m.lastWin), net: signedMoney(m, m.net(m.lastWin, m.lastStaked)) }) : null;
  return html`<div class="bar" part="controls" role="group" aria-label=${m.t('controls')}>
    <div class="meters">
      ${meter('balance', m.t('balance'), m.money(m.balance))} ${renderPending(m)} ${meter('bet-total', m.t('bet'), m.money(m.total))}
      ${returned ? meter('win', m.t('felt.returned'), returned) : nothing}
    </div>
    <div class="status" part="status">${m.status}</div>
    ${renderTools(m)}
    <div class="actions">
      ${button('undo', m.canUndo)} ${button('clear', hasBets)} ${button('double', m.canDouble)} ${button('repeat', m.canRepeat)}
      ${button('repeatDeal', m.canRepeat && !hasBets, 'R')} ${button('deal', hasBets)}
    </div>
  </div>`;
}

const ICONS = {
  sound: svg`<path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor"/><path d="M16.5 8.5a5 5 0 0 1 0 7M19 6a8.5 8.5 0 0 1 0 12"/>`,
  muted: svg`<path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor"/><path d="M16.5 9.5l5 5M21.5 9.5l-5 5"/>`,
  fast: svg`<path d="M3 6l8 6-8 6zM12 6l8 6-8 6z" fill="currentColor"/>`,
  fullscreen: svg`<path d="M4 9V4h5M15 4h5v5M20 15v5h-5M9 20H4v-5"/>`,
};

/** Sound, speed, mode and full screen: small toggles at the end of the bar. */
function renderTools(m: ViewModel): TemplateResult {
  const toggle = (name: 'sound' | 'fast' | 'fullscreen', on: boolean, icon: SVGTemplateResult): TemplateResult =>
    html`<button class="tool ${name}" part="button tool-${name}" data-tool=${name} aria-pressed=${on ? 'true' : 'false'} aria-label=${m.t(`tools.${name}`)} title=${m.t(`tools.${name}`)} @click=${() => m.on.tool(name)}>
      <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${icon}</svg>
    </button>`;
  const other = m.mode === 'shoe' ? 'reshuffle' : 'shoe';
  return html`<div class="tools" role="group" aria-label=${m.t('tools.label')}>
    ${m.shared || m.wallet?.view ? nothing : html`<button class="tool mode" part="button tool-mode" data-tool="mode" data-mode=${m.mode} aria-label="${m.t('tools.mode')}: ${m.t(`mode.${m.mode}`)}" title="${m.t('tools.mode')} → ${m.t(`mode.${other}`)}" aria-disabled=${m.canBet ? 'false' : 'true'} @click=${() => m.on.tool('mode')}>${m.t(`mode.${m.mode}`)}</button>`}
    ${toggle('sound', !m.muted, m.muted ? ICONS.muted : ICONS.sound)} ${toggle('fast', m.fast, ICONS.fast)}
    ${m.fullscreen === null ? nothing : toggle('fullscreen', m.fullscreen, ICONS.fullscreen)}
  </div>`;
}

function meter(part: string, label: string, value: string): TemplateResult {
  return html`<div class="meter" part=${part}><span class="label" id="${part}-label">${label}</span><output aria-labelledby="${part}-label">${value}</output></div>`;
}

/** A refused bet in the player's language, with the amounts they tried. */
export function explainBetProblem(
  m: Pick<ViewModel, 't' | 'money'>,
  error: BetProblem | { code: string; message: string },
  context: { limits: TableLimits | null; balance: number; bets: readonly Bet[] },
): string {
  const p = error as BetProblem;
  const limits = context.limits;
  const where: Record<string, string | number> = p.box !== undefined ? { box: m.t(`box.${p.box}`), sector: (p.sector ?? 0) + 1 } : {};
  switch (error.code) {
    case 'nothing_to_repeat':
      return m.t('nothingToRepeat');
    case 'nothing_to_undo':
      return m.t('nothingToUndo');
    case 'no_bets':
      return m.t('noBets');
    case 'empty_bet':
      return m.t('errors.empty_bet');
    case 'under_minimum':
      return m.t('errors.under_minimum', { ...where, amount: m.money(p.amount ?? 0), limit: m.money(limits?.min ?? 0) });
    case 'over_maximum':
      return m.t('errors.over_maximum', { ...where, amount: m.money(p.amount ?? 0), limit: m.money(limits?.max ?? 0) });
    case 'over_type_limit': {
      // The engine names no box for a type sum: show the largest type sum of the attempted set.
      const bets = p.bets ?? [];
      const sums = BOXES.map((box) => [box, totalStake(bets.filter((b) => b.box === box))] as const);
      const [box, sum] = sums.reduce((a, b) => (b[1] > a[1] ? b : a));
      return m.t('errors.over_type_limit', { box: m.t(`box.${box}`), amount: m.money(sum), limit: m.money(limits?.max ?? 0) });
    }
    case 'fourth_sector':
      return m.t('errors.fourth_sector', { sector: (p.sector ?? 0) + 1 });
    case 'insufficient_balance':
      return m.t('errors.insufficient_balance', { amount: m.money(totalStake(p.bets ?? context.bets)), balance: m.money(context.balance) });
    case 'amount_off_step':
      // Under the minimum too (e.g. 0.05 at a 0.10 table): the minimum is the rule to state.
      if (limits && p.amount !== undefined && p.amount < limits.min)
        return m.t('errors.under_minimum', { ...where, amount: m.money(p.amount), limit: m.money(limits.min) });
      return m.t('errors.amount_off_step', { limit: m.money(limits?.step ?? 0) });
    default:
      return m.t('errors.invalid_bet');
  }
}

/** A failed request in the player's language. */
export function explainApiError(
  m: Pick<ViewModel, 't' | 'money'>,
  error: { code: string; message: string; status: number; voidAt?: string; endpoint?: string },
  context: { limits: TableLimits | null; balance: number; bets: readonly Bet[] },
): string {
  if (error.code === 'unreachable' || error.code === 'session_expired' || error.code === 'rate_limited' || error.code === 'round_voided')
    return m.t(`errors.${error.code}`);
  if (error.code === 'round_pending' && error.voidAt) return m.t('errors.round_pending', { time: new Date(error.voidAt).toLocaleTimeString() });
  // The Worker's own words: they name the page's origin and the affiliate, for the site owner.
  if (error.code === 'origin_not_allowed') return error.message;
  if (error.code === 'wrong_endpoint') return m.t('errors.wrong_endpoint', { url: error.endpoint ?? '' });
  const wallet = walletErrorText(m, error.code);
  if (wallet) return wallet;
  if (error.status === 422) return explainBetProblem(m, error, context);
  return m.t('errors.server', { code: error.code });
}

/** The round's result ("Banker wins, 7 to 4") in the player's language. */
export function resultText(m: Pick<ViewModel, 't'>, body: SettledRound): string {
  return m.t(`result.${body.outcome}`, { player: body.playerTotal, banker: body.bankerTotal });
}

/** An amount with its sign: "+€0.50", "−€0.50", "€0.00". */
export function signedMoney(m: Pick<ViewModel, 'money'>, minor: number): string {
  if (minor > 0) return `+${m.money(minor)}`;
  if (minor < 0) return `−${m.money(-minor)}`;
  return m.money(0);
}

/** What the round did to the player's money: a win, a loss, every bet pushed, or even. */
export function netText(m: Pick<ViewModel, 't' | 'money' | 'net'>, body: SettledRound): string {
  const net = m.net(body.returned, body.staked);
  if (net > 0) return m.t('net.win', { amount: m.money(net) });
  if (net < 0) return m.t('net.lose', { amount: m.money(-net) });
  return m.t(body.payouts.every((p) => p.result === 'push') ? 'net.push' : 'net.even');
}

/** The texts the Pixi scene draws, in the player's language. */
export function sceneTexts(m: Pick<ViewModel, 't' | 'money'>, limits: TableLimits | null, language: string): Omit<SceneOptions, 'reducedMotion'> {
  const t = (key: string): string => m.t(key);
  return {
    labels: {
      player: t('box.player'),
      banker: t('box.banker'),
      tie: t('box.tie'),
      pays: { player: t('pays.player'), banker: t('pays.banker'), tie: t('pays.tie') },
      result: { player: t('banner.player'), banker: t('banner.banker'), tie: t('banner.tie') },
      natural: t('natural'),
      returned: t('felt.returned'),
      discard: t('felt.discard'),
    },
    language,
    formatAmount: (minor) => m.money(minor),
    limitsText: limits ? `${m.money(limits.min)} – ${m.money(limits.max)}` : '',
  };
}
