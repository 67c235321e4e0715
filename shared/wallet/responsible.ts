/**
 * Responsible-gaming limits as one pure state machine, enforced by the server from the launch
 * (WALLET.md "Responsible gaming"): `step(limits, state, event, now) → { state, decision }`.
 *
 * - maximum stake per round: a round whose stakes add up to more is refused (`stake_limit`);
 * - loss limit per session: a round is refused when losing all of it would take the session's net
 *   loss past the limit (`loss_limit`): the limit holds even in the worst case;
 * - wager limit per session: the sum of every stake in the session may not pass it (`wager_limit`);
 * - session time limit: from the session's start; once reached the session ends
 *   (`session_time_limit`) and every later event is refused with it;
 * - reality check every N minutes: once due, the next event raises it (time played, net result,
 *   amount wagered) and every bet is refused (`reality_check_pending`) until the player answers
 *   `continue` (the next check is due N minutes later) or `stop` (the session ends, `player_stopped`).
 * - an operator may end the session at once (`self_exclusion`, or `operator_ended`).
 *
 * All amounts are minor units; times Unix milliseconds. A limit left out does not apply.
 */
import type { EngineError } from '../errors.ts';

export interface PlayerLimits {
  /** Largest sum of stakes in one round. */
  maxStakePerRound?: number;
  /** Largest net loss of a session. */
  lossLimit?: number;
  /** Largest sum of stakes over a session. */
  wagerLimit?: number;
  /** Longest session, minutes. */
  sessionMinutes?: number;
  /** A reality check every this many minutes. */
  realityCheckMinutes?: number;
}

export type SessionEndCode = 'session_time_limit' | 'player_stopped' | 'self_exclusion' | 'operator_ended';

export interface LimitsState {
  startedAt: number;
  /** Sum of the stakes of settled rounds. */
  wagered: number;
  /** Returned − staked over settled rounds (negative: the player lost). */
  net: number;
  /** When the last reality check was answered (or the session started). */
  lastRealityCheckAt: number;
  /** A reality check raised and not answered yet. */
  realityCheckPending: boolean;
  ended: { code: SessionEndCode; at: number } | null;
}

export type LimitsEvent =
  /** The player wants to stake `stake` in total on one round. */
  | { type: 'bet'; stake: number }
  /** A round settled: `stake` taken, `returned` paid back (stakes of pushes and wins included). */
  | { type: 'settled'; stake: number; returned: number }
  /** The player answered the reality check. */
  | { type: 'reality-check-answer'; choice: 'continue' | 'stop' }
  /** Time passed (an alarm, a poll): raises a due reality check or ends a session out of time. */
  | { type: 'tick' }
  /** The operator ends the session now. */
  | { type: 'end'; code: 'self_exclusion' | 'operator_ended' };

export type LimitsRefusalCode = 'stake_limit' | 'loss_limit' | 'wager_limit' | 'reality_check_pending' | 'session_ended' | 'bad_event';

export interface RealityCheck {
  playedMs: number;
  net: number;
  wagered: number;
}

export type LimitsDecision =
  | { kind: 'allow' }
  /** Nothing to do (a tick with nothing due, a settle recorded). */
  | { kind: 'none' }
  | { kind: 'refuse'; error: EngineError<LimitsRefusalCode>; realityCheck?: RealityCheck; ended?: SessionEndCode }
  /** Show the reality check now; betting waits for the answer. */
  | { kind: 'reality-check'; realityCheck: RealityCheck }
  /** The session has just ended. */
  | { kind: 'ended'; code: SessionEndCode };

export function startLimits(now: number): LimitsState {
  return { startedAt: now, wagered: 0, net: 0, lastRealityCheckAt: now, realityCheckPending: false, ended: null };
}

const MINUTE = 60_000;

function realityCheck(state: LimitsState, now: number): RealityCheck {
  return { playedMs: now - state.startedAt, net: state.net, wagered: state.wagered };
}

function refuse(code: LimitsRefusalCode, message: string, extra: { realityCheck?: RealityCheck; ended?: SessionEndCode } = {}): LimitsDecision {
  return { kind: 'refuse', error: { code, message }, ...extra };
}

function whole(n: unknown, min: number): n is number {
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= min;
}

/** One event. The state passed in is never changed; the answer carries the next one. */
export function stepLimits(limits: PlayerLimits, state: LimitsState, event: LimitsEvent, now: number): { state: LimitsState; decision: LimitsDecision } {
  const same = (decision: LimitsDecision) => ({ state, decision });
  if (state.ended) {
    if (event.type === 'tick' || event.type === 'settled') {
      // A round accepted before the end still settles; nothing else moves.
      return event.type === 'settled' ? settle(state, event) : same({ kind: 'none' });
    }
    return same(refuse('session_ended', `the session has ended (${state.ended.code})`, { ended: state.ended.code }));
  }
  if (event.type === 'end') return { state: { ...state, ended: { code: event.code, at: now } }, decision: { kind: 'ended', code: event.code } };
  if (event.type === 'settled') return settle(state, event);
  if (limits.sessionMinutes !== undefined && now - state.startedAt >= limits.sessionMinutes * MINUTE) {
    const ended = { ...state, ended: { code: 'session_time_limit' as const, at: now } };
    if (event.type === 'bet')
      return {
        state: ended,
        decision: refuse('session_ended', `the session time limit of ${limits.sessionMinutes} minutes is reached`, { ended: 'session_time_limit' }),
      };
    return { state: ended, decision: { kind: 'ended', code: 'session_time_limit' } };
  }
  if (event.type === 'reality-check-answer') {
    if (!state.realityCheckPending) return same(refuse('bad_event', 'there is no reality check to answer'));
    if (event.choice === 'stop')
      return {
        state: { ...state, realityCheckPending: false, ended: { code: 'player_stopped', at: now } },
        decision: { kind: 'ended', code: 'player_stopped' },
      };
    return { state: { ...state, realityCheckPending: false, lastRealityCheckAt: now }, decision: { kind: 'none' } };
  }
  let next = state;
  if (!state.realityCheckPending && limits.realityCheckMinutes !== undefined && now - state.lastRealityCheckAt >= limits.realityCheckMinutes * MINUTE) {
    next = { ...state, realityCheckPending: true };
    if (event.type === 'tick') return { state: next, decision: { kind: 'reality-check', realityCheck: realityCheck(next, now) } };
  }
  if (event.type === 'tick') return { state: next, decision: { kind: 'none' } };
  // event.type === 'bet'
  if (next.realityCheckPending) {
    return { state: next, decision: refuse('reality_check_pending', 'answer the reality check to go on betting', { realityCheck: realityCheck(next, now) }) };
  }
  const stake = event.stake;
  if (!whole(stake, 1)) return same(refuse('bad_event', 'a stake is a whole number of minor units > 0'));
  if (limits.maxStakePerRound !== undefined && stake > limits.maxStakePerRound) {
    return same(refuse('stake_limit', `a round's stakes may add up to ${limits.maxStakePerRound} at most; these add up to ${stake}`));
  }
  if (limits.wagerLimit !== undefined && state.wagered + stake > limits.wagerLimit) {
    return same(
      refuse('wager_limit', `the session's wager limit is ${limits.wagerLimit}; ${state.wagered} is wagered, ${limits.wagerLimit - state.wagered} is left`),
    );
  }
  if (limits.lossLimit !== undefined && -state.net + stake > limits.lossLimit) {
    return same(refuse('loss_limit', `the session's loss limit is ${limits.lossLimit}; losing this round could take the loss to ${-state.net + stake}`));
  }
  return same({ kind: 'allow' });
}

function settle(state: LimitsState, event: { stake: number; returned: number }): { state: LimitsState; decision: LimitsDecision } {
  if (!whole(event.stake, 0) || !whole(event.returned, 0)) return { state, decision: refuse('bad_event', 'a settled round has whole stake and return ≥ 0') };
  return { state: { ...state, wagered: state.wagered + event.stake, net: state.net + event.returned - event.stake }, decision: { kind: 'none' } };
}

/** Checks a set of limits as a launch carries them: each, when there, a whole number > 0 (minutes at most a day). */
export function limitsProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return '"limits" must be an object';
  const record = value as Record<string, unknown>;
  const names = ['maxStakePerRound', 'lossLimit', 'wagerLimit', 'sessionMinutes', 'realityCheckMinutes'];
  const extra = Object.keys(record).find((k) => !names.includes(k));
  if (extra !== undefined) return `unknown limit "${extra}"`;
  for (const name of names) {
    if (!(name in record)) continue;
    const max = name.endsWith('Minutes') ? 1440 : Number.MAX_SAFE_INTEGER;
    if (!whole(record[name], 1) || (record[name] as number) > max) return `"limits.${name}" must be a whole number from 1 to ${max}`;
  }
  return undefined;
}

/** What a session's shared tables moved in its wallet, by transfer kind (applied transfers only). */
export interface SharedTotals {
  debited: number;
  credited: number;
  refunded: number;
}

/**
 * The limits' state with the session's shared-table bets counted (FAIRNESS.md §B15, WALLET.md
 * "Shared tables"): a stake is wagered when its debit applies and counts as lost until its credit
 * comes; a refunded stake was neither wagered nor lost. So the loss and wager limits, the stake
 * limit and the reality check's figures cover every table the session bets at.
 */
export function withSharedTotals(state: LimitsState, shared: SharedTotals): LimitsState {
  const wagered = shared.debited - shared.refunded;
  return { ...state, wagered: state.wagered + wagered, net: state.net + shared.credited - wagered };
}
