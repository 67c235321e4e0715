/**
 * Wallet mode's templates and texts (lazy chunk, with view.ts): "payout pending" beside the balance
 * (a shared table's owed payouts too),
 * the reality check dialog, the session's end with the way back to the casino, and every refusal
 * the launch, the casino's wallet and the player's limits give, in the player's language. Pure
 * functions of the view model; amounts go through its one money formatter, already in the
 * session's currency.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { ref } from 'lit/directives/ref.js';
import type { WalletSessionView } from '../../shared/api.ts';
import type { ViewModel } from './view.ts';
import { safeReturnUrl } from '../session/wallet-session.ts';

/** What the templates read of wallet mode. */
export interface WalletViewModel {
  view: WalletSessionView | null;
  /** A refused launch's link back to the casino, when the Worker knew the launch. */
  refusedReturnUrl: string | null;
  answer(choice: 'continue' | 'stop'): void;
}

/**
 * Every code of the contract the player can meet in wallet mode, each with its own text in all four
 * languages (`wallet.errors.<code>`): the launch token's refusals, the wallet's refusals of a debit,
 * an unknown debit outcome, a shared table whose stakes the session's limits do not take, and the
 * responsible-gaming limits (at the session's own table and at shared tables alike).
 */
export const WALLET_PLAYER_CODES = [
  'launch_token_unknown',
  'launch_token_used',
  'launch_token_expired',
  'launch_wrong_operator',
  'insufficient_funds',
  'limit_reached',
  'player_blocked',
  'unknown_player',
  'wrong_currency',
  'wallet_unavailable',
  'shared_table_currency',
  'stake_limit',
  'loss_limit',
  'wager_limit',
  'reality_check_pending',
  'session_ended',
] as const;

/** The reasons a wallet session ends (`wallet.ended.<code>`). */
export const SESSION_END_CODES = ['session_time_limit', 'player_stopped', 'self_exclusion', 'operator_ended'] as const;

const PLAYER_CODES: ReadonlySet<string> = new Set(WALLET_PLAYER_CODES);

/** A wallet-mode refusal in the player's words, or null for a code that is not wallet mode's. */
export function walletErrorText(m: Pick<ViewModel, 't'>, code: string): string | null {
  return PLAYER_CODES.has(code) ? m.t(`wallet.errors.${code}`) : null;
}

/** The status line while betting waits for the reality check's answer or after the session's end; null otherwise. */
export function walletStatus(m: Pick<ViewModel, 't'>, view: WalletSessionView | null): string | null {
  if (view?.ended) return m.t('wallet.errors.session_ended');
  if (view?.realityCheck) return m.t('wallet.realityCheck.blocked');
  return null;
}

/** Dialogs already given the focus: each takes it once, when it appears (a re-render does not take it again). */
const focused = new WeakSet<Element>();
const focusOnce = ref((el) => {
  if (!el || focused.has(el)) return;
  focused.add(el);
  queueMicrotask(() => (el as HTMLElement).focus());
});

/** The link back to the casino (a plain link: the casino's page opens in the table's frame or tab). */
export function renderBackLink(m: Pick<ViewModel, 't'>, url: string | null): TemplateResult | typeof nothing {
  return url
    ? html`<a class="action back-to-casino" part="button back-to-casino" href=${url} target="_top" rel="noopener">${m.t('wallet.ended.back')}</a>`
    : nothing;
}

/**
 * Money on its way to the balance and not in it yet: a wallet's credits and rollbacks it has not
 * confirmed (`wallet.pendingDetail`), or at a shared table the credits and refunds the table still
 * owes the player's session (its seat's `owed`: `wallet.owedDetail`).
 */
export interface PendingPayout {
  amount: number;
  words: 'pending' | 'owed';
}

/** What "Payout pending" shows: the shared table's `owed` at a shared table (null elsewhere), else the wallet's unconfirmed payments. */
export function pendingPayout(owed: readonly { amount: number }[] | null, wallet: WalletSessionView | null): PendingPayout | null {
  const list = owed ?? wallet?.pendingPayments ?? [];
  if (list.length === 0) return null;
  return { amount: list.reduce((sum, p) => sum + p.amount, 0), words: owed ? 'owed' : 'pending' };
}

/** "Payout pending" beside the balance, never added to it: the balance shown stays the one the money is not in yet. */
export function renderPending(m: ViewModel): TemplateResult | typeof nothing {
  const pending = m.pending;
  if (!pending) return nothing;
  const detail = m.t(`wallet.${pending.words}Detail`, { amount: m.money(pending.amount) });
  return html`<div class="meter pending" part="pending" title="${detail}. ${m.t(`wallet.${pending.words}Hint`)}">
    <span class="label" id="pending-label">${m.t('wallet.pending')}</span><output aria-labelledby="pending-label" aria-describedby="pending-detail">${m.money(pending.amount)}</output>
    <span class="sr-only" id="pending-detail">${detail}</span>
  </div>`;
}

/** The reality check (betting waits for its answer) or the session's end, over the felt. */
export function renderWalletScreens(m: ViewModel): TemplateResult | typeof nothing {
  const w = m.wallet?.view;
  if (!w) return nothing;
  if (w.ended) {
    return html`<div class="wallet-screen session-ended" part="session-ended" tabindex="-1" ${focusOnce} role="alertdialog" aria-modal="true" aria-labelledby="pb-ended-title" aria-describedby="pb-ended-body">
      <h2 id="pb-ended-title">${m.t('wallet.ended.title')}</h2>
      <p id="pb-ended-body">${m.t(`wallet.ended.${w.ended.code}`)}</p>
      <p class="fine">${m.t('wallet.ended.settled')}</p>
      <div class="buttons">${renderBackLink(m, safeReturnUrl(w.returnUrl))}</div>
    </div>`;
  }
  const check = w.realityCheck;
  if (!check) return nothing;
  const minutes = Math.max(0, Math.floor(check.playedMs / 60_000));
  const time = m.t('wallet.realityCheck.minutes', { minutes });
  const net = check.net > 0 ? `+${m.money(check.net)}` : check.net < 0 ? `−${m.money(-check.net)}` : m.money(0);
  const row = (key: string, value: string, name: string): TemplateResult =>
    html`<dt>${m.t(`wallet.realityCheck.${key}`)}</dt><dd data-reality=${name}>${value}</dd>`;
  return html`<div class="wallet-screen reality-check" part="reality-check" role="alertdialog" aria-modal="true" aria-labelledby="pb-reality-title" aria-describedby="pb-reality-body">
    <h2 id="pb-reality-title">${m.t('wallet.realityCheck.title')}</h2>
    <p id="pb-reality-body">${m.t('wallet.realityCheck.body', { time })}</p>
    <dl>${row('played', time, 'played')} ${row('net', net, 'net')} ${row('wagered', m.money(check.wagered), 'wagered')}</dl>
    <div class="buttons">
      <button type="button" class="action reality-stop" @click=${() => m.wallet?.answer('stop')}>${m.t('wallet.realityCheck.stop')}</button>
      <button type="button" class="action reality-continue" ${focusOnce} @click=${() => m.wallet?.answer('continue')}>
        ${m.t('wallet.realityCheck.continue')}
      </button>
    </div>
  </div>`;
}
