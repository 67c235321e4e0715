/**
 * A shared table's round and shoe as the felt draws them, from the table's signed records: the
 * round in the shape the scene plays (the deal's cards and result, with the player's own bets and
 * settlement when it had a stake), the shoe's gauge, and the HUD's status line. Pure functions.
 */
import { CARDS_PER_DECK } from '../../shared/cards.ts';
import { cardsDealtThrough } from '../../shared/shoe.ts';
import type { SharedDeal } from '../../shared/fairness/pb-shared-1/records.ts';
import type { ServerMessageOf } from '../../shared/wire/shared-table-socket.ts';
import type { Bet } from '../../shared/table.ts';
import type { TableScene } from '../scene/types.ts';
import { type TableState } from '../element/host-types.ts';
import type { SharedTableView } from './shared-table-link.ts';
import { totalStake } from '../../shared/table.ts';

/** The shared table's shoe as its `state` message describes it. */
type SharedShoe = ServerMessageOf<'state'>['shoe'];

/** The shoe after a deal: the cards dealt so far (the highest position, plus one) and those left before its end. */
export function afterDeal(shoe: SharedShoe, deal: SharedDeal): SharedShoe {
  const used = cardsDealtThrough(deal.cards);
  const total = shoe.params.decks * CARDS_PER_DECK;
  return { ...shoe, cardsDealt: used, cardsLeft: shoe.params.mode === 'shoe' ? total - used : null };
}

/** What the shoe gauge draws for the shared table's shoe. */
export function sharedShoeGauge(shoe: SharedShoe): Parameters<TableScene['setShoe']>[0] {
  const total = shoe.params.decks * CARDS_PER_DECK;
  // A shoe the state has not dealt from yet says null: it is full.
  const left = shoe.cardsLeft ?? (shoe.params.mode === 'shoe' ? total - shoe.cardsDealt : total);
  const cutAt = shoe.params.mode === 'shoe' ? shoe.params.cutCardFromEnd : 0;
  return { cardsLeft: left, total, discarded: total - left, ...(cutAt ? { cutAt } : {}) };
}

/** The status line for a shared table from its view, its life state and the chips on the felt (null: the element's own, e.g. a settled round's result). */
export function sharedStatusText(
  view: SharedTableView,
  state: TableState,
  onFelt: readonly Bet[],
  t: (key: string, values?: Record<string, string | number>) => string,
  money: (minor: number) => string,
): string | null {
  if (state === 'error' || state === 'loading') return null;
  if (view.phase === 'connecting') return t('shared.connecting');
  if (state === 'dealing') return t('status.dealing');
  if (view.phase === 'awaiting-beacon') return view.beaconRound ? t('shared.closed') : t('shared.closedSaid');
  if (view.phase === 'idle') return t('shared.waiting');
  if (view.mine?.status === 'accepted') return t('shared.accepted', { amount: money(view.mine.stake) });
  if (view.mine) return t('shared.sending');
  if (state === 'settled' && onFelt.length === 0) return null;
  return onFelt.length ? t('shared.confirmHint', { amount: money(totalStake(onFelt)) }) : t('shared.placeBets');
}
