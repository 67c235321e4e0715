/**
 * Every event of <punto-banco-table> bubbles and crosses the shadow boundary (composed), so a host
 * page can listen on the element, an ancestor or the document alike.
 */
import type { Receipt, ShoeStartChoice, Signed } from '../session/api-types.ts';
import type { Bet, RoomId, TableLimits } from '../../shared/table.ts';
import type { Result } from '../../shared/errors.ts';
import type { SharedSettlement, SignedShared } from '../../shared/fairness/pb-shared-1/records.ts';

/** `pb-ready`: the session is open and the table takes bets. */
export interface ReadyDetail {
  sessionId: string;
  room: RoomId;
  balance: number;
  limits: TableLimits;
}

/** `pb-bet-change`: the bets on the felt changed (minor units). */
export interface BetChangeDetail {
  bets: Bet[];
  total: number;
}

/** `pb-error`: something failed; the bets are kept. */
export interface ErrorDetail {
  code: string;
  message: string;
}

/**
 * `pb-round-settled`: the signed record exactly as the Worker sent it: the pb-fair-2 receipt at a
 * private table, the player's pb-shared-1 settlement at a shared one; `body.type` tells them apart.
 */
export type RoundSettledDetail = Signed<Receipt> | SignedShared<SharedSettlement>;

/**
 * The typed events, by name. `pb-round-settled` carries the signed record exactly as the Worker
 * sent it: the pb-fair-2 receipt at a private table, the player's pb-shared-1 settlement at a
 * shared one (`table` set); `body.type` tells them apart.
 */
export interface PuntoBancoEventMap {
  'pb-ready': CustomEvent<ReadyDetail>;
  'pb-bet-change': CustomEvent<BetChangeDetail>;
  'pb-round-settled': CustomEvent<RoundSettledDetail>;
  'pb-error': CustomEvent<ErrorDetail>;
}

/** The names of the table's public events, every key of PuntoBancoEventMap (the /embed frame forwards them all). */
export const PUNTO_BANCO_EVENTS = ['pb-ready', 'pb-bet-change', 'pb-round-settled', 'pb-error'] as const satisfies readonly (keyof PuntoBancoEventMap)[];
// A compile error here means an event of the map is missing from the list.
const everyEvent: Exclude<keyof PuntoBancoEventMap, (typeof PUNTO_BANCO_EVENTS)[number]> extends never ? true : never = true;
void everyEvent;

/**
 * `pb-shoe-choice` (from <pb-fairness>, inside the table): the client seed and cut the player has
 * chosen for a shoe so far, whenever they change; or why the seed cannot be used.
 */
export interface ShoeChoiceDetail {
  /** The shoe, by its commitment. */
  shoe: number;
  choice: Result<ShoeStartChoice>;
}

/** The events the table's own parts send each other (they stop at the table). */
export interface PartsEventMap {
  'pb-shoe-choice': CustomEvent<ShoeChoiceDetail>;
}

type EventMap = PuntoBancoEventMap & PartsEventMap;
type DetailOf<K extends keyof EventMap> = EventMap[K] extends CustomEvent<infer D> ? D : never;

/** Dispatches a bubbling, composed CustomEvent from `target`. */
export function emit<K extends keyof EventMap>(target: EventTarget, name: K, detail: DetailOf<K>): CustomEvent<DetailOf<K>> {
  const event = new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable: false });
  target.dispatchEvent(event);
  return event;
}
