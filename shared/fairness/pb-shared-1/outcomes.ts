/**
 * A shared table's scoreboard in its public state (API.md "Shared tables"): one short code per
 * dealt round of the shoe — `P`, `B` or `T`, then `n` for a natural, `p` for a Player pair, `b`
 * for a Banker pair. A few bytes a round, so the state carries the whole shoe's roads.
 */
import type { RoundFacts } from '../../round.ts';

export type OutcomeFacts = Pick<RoundFacts, 'outcome' | 'natural' | 'playerPair' | 'bankerPair'>;

export function outcomeCode(d: OutcomeFacts): string {
  return `${d.outcome === 'player' ? 'P' : d.outcome === 'banker' ? 'B' : 'T'}${d.natural ? 'n' : ''}${d.playerPair ? 'p' : ''}${d.bankerPair ? 'b' : ''}`;
}

/** The round an outcome code stands for; null for anything else. */
export function outcomeOfCode(code: string): OutcomeFacts | null {
  const m = /^([PBT])(n?)(p?)(b?)$/.exec(code);
  if (!m) return null;
  return { outcome: m[1] === 'P' ? 'player' : m[1] === 'B' ? 'banker' : 'tie', natural: m[2] === 'n', playerPair: m[3] === 'p', bankerPair: m[4] === 'b' };
}
