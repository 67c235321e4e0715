/**
 * The view model the templates (view.ts) draw, built from plain reads of the table: the texts, the
 * bets on the felt, the status line's and the meters' state, the play's state and the settings.
 * No controller is called here and nothing changes: the same reads give the same model.
 */
import type { Bet, TableLimits } from '../../shared/table.ts';
import type { TableLayout } from '../layout.ts';
import type { SettledRound } from '../round-view.ts';
import type { Notice, TableState } from '../session/table-play.ts';
import type { Spot } from './bets.ts';
import type { SessionSummary, SwitchQuestion, ViewHandlers, ViewModel } from './view.ts';
import type { PendingPayout, WalletViewModel } from './wallet-view.ts';

/** The texts in the element's language and currency. */
export interface ViewTexts {
  t(key: string, values?: Record<string, string | number>): string;
  money(minor: number): string;
  net(returned: number, staked: number): number;
  chip(minor: number): string;
}

/** The bets on the felt as bet-state.ts keeps them. */
export interface ViewBets {
  readonly bets: readonly Bet[];
  readonly total: number;
  readonly selectedChip: number | null;
  readonly canUndo: boolean;
  readonly previous: readonly Bet[];
  amountAt(at: Spot): number;
  canDouble(limits: TableLimits, balance: number): boolean;
}

/** The meters, the toast and the session summary as round-status.ts keeps them. */
export interface ViewMeters {
  readonly lastWin: number | null;
  readonly lastStaked: number;
  readonly toast: string | null;
  readonly summary: Omit<SessionSummary, 'now'>;
}

export interface ViewInputs {
  texts: ViewTexts;
  layout: TableLayout | null;
  state: TableState;
  limits: TableLimits | null;
  balance: number;
  canBet: boolean;
  bets: ViewBets;
  activeBox: Spot;
  /** The chip being dragged and the box under it, if any. */
  drag: { ghost: ViewModel['ghost']; dropTarget: string | null } | null;
  meters: ViewMeters;
  now: number;
  statusText: string;
  notice: Notice | null;
  onFelt: SettledRound | null;
  asked: SwitchQuestion | null;
  muted: boolean;
  speed: 'normal' | 'fast';
  mode: string;
  shared: boolean;
  fullscreen: boolean | null;
  /** Wallet mode's state and answer (null: play money). */
  wallet: WalletViewModel | null;
  /** "Payout pending": a shared table's owed payouts, or the wallet's unconfirmed ones (null: none). */
  pending: PendingPayout | null;
  on: ViewHandlers;
}

export function viewModel(v: ViewInputs): ViewModel {
  const { texts, bets, limits, balance, notice, state, meters } = v;
  return {
    t: (key, values) => texts.t(key, values),
    money: (minor) => texts.money(minor),
    net: (returned, staked) => texts.net(returned, staked),
    chipLabel: (minor) => texts.chip(minor),
    layout: v.layout,
    activeBox: v.activeBox,
    limits,
    canBet: v.canBet,
    settled: state === 'settled',
    dealing: state === 'dealing',
    bets: bets.bets,
    total: bets.total,
    amountAt: (at) => bets.amountAt(at),
    selectedChip: bets.selectedChip,
    canUndo: bets.canUndo,
    canRepeat: bets.previous.length > 0,
    canDouble: limits !== null && bets.canDouble(limits, balance),
    balance,
    lastWin: meters.lastWin,
    lastStaked: meters.lastStaked,
    muted: v.muted,
    fast: v.speed === 'fast',
    mode: v.mode === 'reshuffle' ? 'reshuffle' : 'shoe',
    shared: v.shared,
    fullscreen: v.fullscreen,
    status: v.statusText,
    // A refused origin stays refused until the operator changes the configuration: no Retry to press in vain.
    notice: notice && state === 'error' ? { message: notice.message, canRetry: notice.retry !== null && notice.code !== 'origin_not_allowed' } : null,
    toast: meters.toast,
    ghost: v.drag?.ghost ?? null,
    dropTarget: v.drag?.dropTarget ?? null,
    onFelt: v.onFelt,
    summary: { ...meters.summary, now: v.now },
    confirm: v.asked ? { to: v.asked.to, room: v.asked.room } : null,
    wallet: v.wallet,
    pending: v.pending,
    on: v.on,
  };
}
