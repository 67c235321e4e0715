/**
 * The players' side of a shared table (FAIRNESS.md §C6): the request bodies a seated player signs
 * (signSharedRequest). No BLS here: the widget can build and sign requests without the beacon code.
 */
import type { Bet } from '../../table.ts';
import type { SharedBetRequest, SharedCommitment, SharedStartRequest, SignedShared } from './records.ts';

/** A seated player's start request: its seed and cut for the shoe committed by `commitment`. */
export const sharedStartRequest = (commitment: SignedShared<SharedCommitment>, player: string, clientSeed: string, cut: number): SharedStartRequest => ({
  type: 'start',
  table: commitment.body.table,
  shoe: commitment.body.shoe,
  commitment: commitment.hash,
  player,
  clientSeed,
  cut,
});

/** A player's bets for round `round` of a shoe. */
export const sharedBetRequest = (table: string, shoe: number, round: number, player: string, bets: readonly Bet[]): SharedBetRequest => ({
  type: 'bet',
  table,
  shoe,
  round,
  player,
  bets: bets.map((b) => ({ sector: b.sector, box: b.box, amount: b.amount })),
});

/** Ascending by player pseudonym, compared code unit by code unit (base64url is ASCII: byte order). */
export const byPlayer = (a: { body: { player: string } }, b: { body: { player: string } }): number =>
  a.body.player < b.body.player ? -1 : a.body.player > b.body.player ? 1 : 0;
