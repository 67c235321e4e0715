import { describe, expect, test } from 'vitest';
import {
  limitsProblem,
  startLimits,
  stepLimits,
  type LimitsDecision,
  type LimitsEvent,
  type LimitsState,
  type PlayerLimits,
} from '../../shared/wallet/responsible.ts';

const T0 = 1_767_225_600_000;
const MIN = 60_000;

/** Plays events in order, each at its time; returns every decision and the last state. */
function play(limits: PlayerLimits, events: Array<[number, LimitsEvent]>): { decisions: LimitsDecision[]; state: LimitsState } {
  let state = startLimits(T0);
  const decisions: LimitsDecision[] = [];
  for (const [at, event] of events) {
    const step = stepLimits(limits, state, event, at);
    state = step.state;
    decisions.push(step.decision);
  }
  return { decisions, state };
}

const code = (d: LimitsDecision | undefined) => (d?.kind === 'refuse' ? d.error.code : d?.kind);

describe('responsible-gaming limits: one refusal code per limit', () => {
  test('no limits: every bet allowed', () => {
    const { decisions } = play({}, [[T0, { type: 'bet', stake: 1e12 }]]);
    expect(decisions).toEqual([{ kind: 'allow' }]);
  });

  test('maximum stake per round', () => {
    const { decisions } = play({ maxStakePerRound: 5_000 }, [
      [T0, { type: 'bet', stake: 5_000 }],
      [T0, { type: 'bet', stake: 5_001 }],
    ]);
    expect(decisions.map(code)).toEqual(['allow', 'stake_limit']);
  });

  test('wager limit per session counts every settled stake, won or lost', () => {
    const { decisions, state } = play({ wagerLimit: 10_000 }, [
      [T0, { type: 'settled', stake: 6_000, returned: 12_000 }],
      [T0, { type: 'bet', stake: 4_000 }],
      [T0, { type: 'bet', stake: 4_001 }],
    ]);
    expect(decisions.map(code)).toEqual(['none', 'allow', 'wager_limit']);
    expect(state).toMatchObject({ wagered: 6_000, net: 6_000 });
  });

  test('loss limit: refused when losing the whole round could pass it; wins make room; a tie (push) changes nothing', () => {
    const { decisions } = play({ lossLimit: 10_000 }, [
      [T0, { type: 'settled', stake: 8_000, returned: 0 }], // lost 8,000
      [T0, { type: 'bet', stake: 2_000 }],
      [T0, { type: 'bet', stake: 2_001 }],
      [T0, { type: 'settled', stake: 1_000, returned: 1_000 }], // a tie: the stake back
      [T0, { type: 'bet', stake: 2_001 }],
      [T0, { type: 'settled', stake: 1_000, returned: 1_950 }], // a banker win: +950
      [T0, { type: 'bet', stake: 2_950 }],
      [T0, { type: 'bet', stake: 2_951 }],
    ]);
    expect(decisions.map(code)).toEqual(['none', 'allow', 'loss_limit', 'none', 'loss_limit', 'none', 'allow', 'loss_limit']);
  });

  test('session time limit: the session ends at the limit and stays ended; a round in flight still settles', () => {
    const { decisions, state } = play({ sessionMinutes: 30 }, [
      [T0 + 30 * MIN - 1, { type: 'bet', stake: 100 }],
      [T0 + 30 * MIN, { type: 'settled', stake: 100, returned: 200 }],
      [T0 + 30 * MIN, { type: 'bet', stake: 100 }],
      [T0 + 31 * MIN, { type: 'bet', stake: 100 }],
      [T0 + 31 * MIN, { type: 'reality-check-answer', choice: 'continue' }],
    ]);
    expect(decisions.map(code)).toEqual(['allow', 'none', 'session_ended', 'session_ended', 'session_ended']);
    expect(decisions[2]).toMatchObject({ ended: 'session_time_limit' });
    expect(state.ended).toEqual({ code: 'session_time_limit', at: T0 + 30 * MIN });
    expect(state.net).toBe(100);
  });

  test('a tick ends a session out of time, so the host hears it without a bet', () => {
    const { decisions } = play({ sessionMinutes: 1 }, [
      [T0 + MIN - 1, { type: 'tick' }],
      [T0 + MIN, { type: 'tick' }],
      [T0 + 2 * MIN, { type: 'tick' }],
    ]);
    expect(decisions).toEqual([{ kind: 'none' }, { kind: 'ended', code: 'session_time_limit' }, { kind: 'none' }]);
  });

  test('reality check: raised when due, pauses betting until answered, then due again N minutes after the answer', () => {
    const { decisions, state } = play({ realityCheckMinutes: 15 }, [
      [T0 + 1 * MIN, { type: 'settled', stake: 1_000, returned: 0 }],
      [T0 + 15 * MIN, { type: 'tick' }],
      [T0 + 16 * MIN, { type: 'bet', stake: 100 }],
      [T0 + 40 * MIN, { type: 'bet', stake: 100 }],
      [T0 + 41 * MIN, { type: 'reality-check-answer', choice: 'continue' }],
      [T0 + 41 * MIN, { type: 'bet', stake: 100 }],
      [T0 + 56 * MIN - 1, { type: 'bet', stake: 100 }],
      [T0 + 56 * MIN, { type: 'bet', stake: 100 }],
    ]);
    expect(decisions.map(code)).toEqual([
      'none',
      'reality-check',
      'reality_check_pending',
      'reality_check_pending',
      'none',
      'allow',
      'allow',
      'reality_check_pending',
    ]);
    expect(decisions[1]).toEqual({ kind: 'reality-check', realityCheck: { playedMs: 15 * MIN, net: -1_000, wagered: 1_000 } });
    expect(decisions[2]).toMatchObject({ realityCheck: { playedMs: 16 * MIN, net: -1_000 } });
    expect(state.realityCheckPending).toBe(true);
  });

  test('a bet can raise the reality check itself (no tick needed); stop ends the session', () => {
    const { decisions, state } = play({ realityCheckMinutes: 5 }, [
      [T0 + 5 * MIN, { type: 'bet', stake: 100 }],
      [T0 + 6 * MIN, { type: 'reality-check-answer', choice: 'stop' }],
      [T0 + 6 * MIN, { type: 'bet', stake: 100 }],
    ]);
    expect(decisions.map(code)).toEqual(['reality_check_pending', 'ended', 'session_ended']);
    expect(state.ended?.code).toBe('player_stopped');
  });

  test('an answer with no check pending is bad_event; a bad stake is bad_event', () => {
    const { decisions } = play({}, [
      [T0, { type: 'reality-check-answer', choice: 'continue' }],
      [T0, { type: 'bet', stake: 0 }],
      [T0, { type: 'bet', stake: 1.5 }],
    ]);
    expect(decisions.map(code)).toEqual(['bad_event', 'bad_event', 'bad_event']);
  });

  test('the operator ends a session at once (self-exclusion)', () => {
    const { decisions, state } = play({}, [
      [T0, { type: 'end', code: 'self_exclusion' }],
      [T0, { type: 'bet', stake: 100 }],
    ]);
    expect(decisions[0]).toEqual({ kind: 'ended', code: 'self_exclusion' });
    expect(decisions[1]).toMatchObject({ kind: 'refuse', error: { code: 'session_ended' }, ended: 'self_exclusion' });
    expect(state.ended).toEqual({ code: 'self_exclusion', at: T0 });
  });

  test('the state passed in is never changed', () => {
    const before = startLimits(T0);
    const copy = structuredClone(before);
    stepLimits({ realityCheckMinutes: 1 }, before, { type: 'settled', stake: 5, returned: 0 }, T0 + 2 * MIN);
    stepLimits({ realityCheckMinutes: 1 }, before, { type: 'tick' }, T0 + 2 * MIN);
    expect(before).toEqual(copy);
  });

  test('limits as a launch carries them', () => {
    expect(limitsProblem({})).toBeUndefined();
    expect(limitsProblem({ maxStakePerRound: 1, lossLimit: 2, wagerLimit: 3, sessionMinutes: 1440, realityCheckMinutes: 60 })).toBeUndefined();
    expect(limitsProblem({ sessionMinutes: 1441 })).toMatch(/sessionMinutes/);
    expect(limitsProblem({ lossLimit: 0 })).toMatch(/lossLimit/);
    expect(limitsProblem({ lossLimit: 1.5 })).toMatch(/lossLimit/);
    expect(limitsProblem({ depositLimit: 5 })).toMatch(/unknown limit/);
    expect(limitsProblem(null)).toMatch(/object/);
  });
});
