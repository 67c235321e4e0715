/**
 * A private table in wallet mode (WALLET.md): the operator's wallet holds the player's money, and
 * this object is the session's side of it. It reaches the wallet (`call`: signed, with the
 * operator's timeout, never throwing), reads the session's wallet and limits, and answers what the
 * table asks: the opening balance, the responsible-gaming decision on an event (`stepLimits`, its
 * state kept in `wallet_session` only when it changes), the view (`SessionCommon.wallet`) and the
 * operator's list of calls. The debit is debit.ts, the outbox of credits and rollbacks outbox.ts.
 */
import type { PendingPayment, SessionView, WalletSessionView } from '../../shared/api.ts';
import { type EngineError, fail, ok, type Result } from '../../shared/errors.ts';
import type { TableLimits } from '../../shared/table.ts';
import {
  type FetchLike,
  type LimitsDecision,
  type LimitsEvent,
  type LimitsState,
  minorUnitDigits,
  type OperatorConfig,
  stepLimits,
  type TransactionKind,
  callWallet,
  walletCallUrl,
  type WalletCall,
  type WalletCallResult,
  walletTransactionId,
  withSharedTotals,
} from '../../shared/wallet/index.ts';
import { operators } from '../config/env.ts';
import { type Answer, failure } from '../http/answers.ts';
import { iso, type SessionParts } from '../session/parts.ts';
import type { SessionRow } from '../session/store.ts';
import type { WalletCallRow, WalletCallState, WalletInit } from './calls-view.ts';
import { type StoredCall, type WalletSessionRow, WalletStore } from './store.ts';

/** What every commitment of a wallet-mode shoe names (FAIRNESS.md: `Commitment.wallet`), and the room's limits in minor units. */
export interface WalletTerms {
  limits: TableLimits;
  wallet: { operator: string; player: string; currency: string };
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** A fresh call nonce: 16 random bytes, 32 hex digits (WALLET.md §2). */
export const newNonce = (): string => hex(crypto.getRandomValues(new Uint8Array(16)));

/** The HTTP status a bet refused by the wallet answers with, by the wallet's code. */
const REFUSAL_STATUS: Readonly<Record<string, number>> = {
  insufficient_funds: 402,
  player_blocked: 403,
  unknown_player: 403,
  limit_reached: 409,
  wrong_currency: 409,
};

/** The wallet's refusal codes a player is shown (others become `wallet_unavailable`). */
export const WALLET_PLAYER_CODES: ReadonlySet<string> = new Set(Object.keys(REFUSAL_STATUS));

/** The HTTP status of a responsible-gaming refusal. */
const LIMIT_STATUS: Readonly<Record<string, number>> = {
  stake_limit: 422,
  loss_limit: 422,
  wager_limit: 422,
  reality_check_pending: 409,
  session_ended: 403,
  bad_event: 409,
};

export class WalletSession {
  readonly store: WalletStore;
  readonly #parts: SessionParts;
  readonly #fetch: () => FetchLike;

  constructor(parts: SessionParts, fetchLike: () => FetchLike) {
    this.#parts = parts;
    this.store = new WalletStore(parts.store);
    this.#fetch = fetchLike;
  }

  /** The session's wallet, or null for a play-money session. */
  row(): WalletSessionRow | null {
    return this.store.session();
  }

  /** The one alarm's hooks (session/ledger-push.ts): when the outbox next needs it (a debit left `sending`: now), and whether this is a wallet session. */
  due(): number | null {
    if (this.row() === null) return null;
    return this.store.sending().length > 0 ? this.#parts.now() : this.store.nextDue();
  }

  active(): boolean {
    return this.row() !== null;
  }

  /** This session's terms (null: play money). */
  sessionTerms(): WalletTerms | null {
    const w = this.row();
    return w ? WalletSession.terms(w) : null;
  }

  /** A pb-fair-2 view in wallet mode: the wallet's last answered balance, the room's limits in minor units and the wallet part. */
  sessionView(view: SessionView, session: SessionRow): SessionView {
    const w = this.row();
    return w ? { ...view, balance: this.store.lastBalance(), limits: w.tableLimits, wallet: this.view(w, session) } : view;
  }

  /** The room's limits and the wallet fields every commitment of this session carries. */
  static terms(w: Pick<WalletSessionRow, 'operator' | 'playerId' | 'currency' | 'tableLimits'>): WalletTerms {
    return { limits: w.tableLimits, wallet: { operator: w.operator, player: w.playerId, currency: w.currency } };
  }

  /** The operator's settings (wallet URL, secrets, timeout); a 503 naming the setting when they are missing. */
  config(operator: string): Result<OperatorConfig, EngineError<'misconfigured'>> {
    const all = operators(this.#parts.env);
    if (!all.ok) return fail('misconfigured', all.error.message);
    const config = all.value.get(operator);
    if (!config) return fail('misconfigured', `the operator "${operator}" is not configured (OPERATOR_SETTINGS)`);
    return ok(config);
  }

  /**
   * One wallet call, signed, given up after the operator's timeout: never throws, a missing
   * configuration included (an unknown outcome: nothing was sent, but the caller treats it alike).
   */
  async call(operator: string, call: WalletCall): Promise<WalletCallResult> {
    const config = this.config(operator);
    if (!config.ok) return { outcome: { kind: 'unknown', reason: 'network', message: config.error.message }, body: '' };
    const c = config.value;
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), c.timeoutMs);
    try {
      return await callWallet(
        this.#fetch(),
        { walletBase: c.walletUrl, providerSecret: c.providerSecret, operatorSecret: c.operatorSecret },
        call,
        this.#parts.now(),
        newNonce(),
        { signal: timeout.signal },
      );
    } catch (err) {
      // A fetch that throws synchronously, a URL the runtime refuses: still only an unknown outcome.
      return {
        outcome: { kind: 'unknown', reason: 'network', message: `${call.kind} to ${walletCallUrl(c.walletUrl, call.kind)} failed: ${String(err)}` },
        body: '',
      };
    } finally {
      clearTimeout(timer);
    }
  }

  /** The balance that opens a new session: the wallet's answer to `balance`; a refusal 502, an unknown outcome 503. */
  async openingBalance(init: WalletInit, sessionId: string): Promise<{ ok: true; balance: number } | { ok: false; answer: Answer<never> }> {
    const config = this.config(init.operator);
    if (!config.ok) return { ok: false, answer: failure(503, 'misconfigured', config.error.message, { setting: 'OPERATOR_SETTINGS' }) };
    const result = await this.call(init.operator, { kind: 'balance', playerId: init.playerId, sessionId, currency: init.currency });
    const o = result.outcome;
    if (o.kind === 'applied') return { ok: true, balance: o.answer.balance };
    if (o.kind === 'refused') return { ok: false, answer: walletRefusal(o.code, `the wallet refused the balance: ${o.message}`, 502, 502) };
    return { ok: false, answer: failure(503, 'wallet_unavailable', `the wallet did not answer the balance: ${o.message}`) };
  }

  /** The limits' state: the records' running totals (wagered and net of settled rounds) and the row's own part. */
  limitsState(w: WalletSessionRow, session: SessionRow): LimitsState {
    return withSharedTotals(this.#ownLimitsState(w, session), this.store.sharedTotals());
  }

  #ownLimitsState(w: WalletSessionRow, session: SessionRow): LimitsState {
    return {
      startedAt: Date.parse(w.startedAt),
      wagered: session.staked,
      net: session.returned - session.staked,
      lastRealityCheckAt: Date.parse(w.lastRealityCheckAt),
      realityCheckPending: w.realityCheckPending,
      ended: w.ended ? { code: w.ended.code, at: Date.parse(w.ended.at) } : null,
    };
  }

  /**
   * One responsible-gaming event (shared/wallet/responsible.ts). The state it leaves is written
   * (one row) only when its own part changed: a reality check raised or answered, the session ended.
   */
  step(w: WalletSessionRow, session: SessionRow, event: LimitsEvent): LimitsDecision {
    const before = this.limitsState(w, session);
    const { state, decision } = stepLimits(w.playerLimits, before, event, this.#parts.now());
    const changed =
      state.lastRealityCheckAt !== before.lastRealityCheckAt ||
      state.realityCheckPending !== before.realityCheckPending ||
      (state.ended === null) !== (before.ended === null);
    if (changed) this.#parts.counted('wallet-limits', () => this.store.setLimitsState(state));
    return decision;
  }

  /** The view's wallet part. `tick`: what a tick would raise now (a due reality check, the time limit), shown without being written. */
  view(w: WalletSessionRow, session: SessionRow): WalletSessionView {
    const now = this.#parts.now();
    const { state, decision } = stepLimits(w.playerLimits, this.limitsState(w, session), { type: 'tick' }, now);
    const realityCheck =
      decision.kind === 'reality-check'
        ? decision.realityCheck
        : state.realityCheckPending && !state.ended
          ? { playedMs: now - state.startedAt, net: state.net, wagered: state.wagered }
          : null;
    const digits = minorUnitDigits(w.currency);
    return {
      operator: w.operator,
      currency: w.currency,
      minorUnits: digits.ok ? digits.value : 0,
      lang: w.lang,
      returnUrl: w.returnUrl,
      playerLimits: w.playerLimits,
      played: { startedAt: w.startedAt, wagered: state.wagered, net: state.net },
      pendingPayments: this.pendingPayments(),
      realityCheck,
      ended: state.ended ? { code: state.ended.code, at: iso(state.ended.at) } : null,
    };
  }

  /** The credits and rollbacks the wallet has not acknowledged: "payout pending". */
  pendingPayments(): PendingPayment[] {
    return this.store.unacknowledged().map((c) => ({
      kind: c.kind as 'credit' | 'rollback',
      shoe: c.shoe,
      round: c.round,
      transaction: c.txn,
      amount: c.amount,
    }));
  }

  /** Every money call created in [from, to) (ISO times), as the operator lists them. */
  calls(w: WalletSessionRow, from: string, to: string): WalletCallRow[] {
    const rolledBack = this.store.rolledBackDebits();
    return this.store.calls(from, to).map((c) => callRow(w, c, rolledBack.has(c.txn)));
  }

  /** A call's transaction id (`walletTransactionId`): the round is the debit's attempt. */
  async transactionId(w: WalletSessionRow, sessionId: string, shoe: number, attempt: number, kind: TransactionKind): Promise<string> {
    const id = await walletTransactionId({ operatorId: w.operator, sessionId, shoe, round: attempt, kind });
    if (!id.ok) throw new Error(`wallet transaction id: ${id.error.message}`);
    return id.value;
  }
}

function callState(c: StoredCall, rolledBack: boolean): WalletCallState {
  if (c.kind === 'debit') {
    if (rolledBack) return 'rolled_back';
    return c.state === 'acknowledged' ? 'acknowledged' : c.state === 'refused' ? 'refused' : 'pending';
  }
  return c.state === 'acknowledged' ? 'acknowledged' : c.state === 'stuck' ? 'refused' : 'pending';
}

function callRow(w: WalletSessionRow, c: StoredCall, rolledBack: boolean): WalletCallRow {
  const row: WalletCallRow = {
    transaction: c.txn,
    kind: c.kind,
    roundId: c.roundId,
    playerId: w.playerId,
    currency: w.currency,
    amount: c.amount,
    state: callState(c, rolledBack),
    attempts: c.attempts,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
  if (c.code !== null) row.code = c.code;
  return row;
}

/**
 * A refusal by the wallet, passed to the player with its code (codes the player is not shown
 * become `wallet_unavailable`, with `otherStatus`); `status` overrides the code's own (a creation
 * refused by the wallet is a 502 whatever the code).
 */
export function walletRefusal(code: string, message: string, otherStatus = 503, status = REFUSAL_STATUS[code]): Answer<never> {
  if (code in REFUSAL_STATUS) return failure(status!, code as 'insufficient_funds', message);
  return failure(otherStatus, 'wallet_unavailable', message);
}

/** A responsible-gaming refusal, with the reality check to show when it is one. */
export function limitsRefusal(decision: Extract<LimitsDecision, { kind: 'refuse' }>): Answer<never> {
  const detail = {
    ...(decision.realityCheck ? { realityCheck: decision.realityCheck } : {}),
    ...(decision.ended ? { ended: decision.ended } : {}),
  };
  return failure(LIMIT_STATUS[decision.error.code] ?? 409, decision.error.code, decision.error.message, detail);
}
