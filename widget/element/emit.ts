/**
 * Every event of <punto-banco-table> bubbles and crosses the shadow boundary (composed), so a host
 * page can listen on the element, an ancestor or the document alike.
 */
import type { Receipt, ShoeStartChoice, Signed } from '../session/api-types.ts';
import type { Bet, RoomId, TableLimits } from '../../shared/table.ts';
import type { Result } from '../../shared/errors.ts';
import type { SharedSettlement, SignedShared } from '../../shared/fairness/pb-shared-1/records.ts';
import type { SessionEndCode } from '../../shared/wallet/responsible.ts';

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

/** `pb-reality-check` (wallet mode): a reality check now waits for the player; betting waits with it. Amounts in the currency's ISO 4217 minor units. */
export interface RealityCheckDetail {
  /** Time played in this session, milliseconds. */
  playedMs: number;
  /** Returned − staked over the session's settled rounds (negative: the player lost). */
  net: number;
  /** The session's stakes so far. */
  wagered: number;
  /** ISO 4217 code of the amounts. */
  currency: string;
}

/** `pb-session-ended` (wallet mode): the session ended; no bet is taken any more. */
export interface SessionEndedDetail {
  code: SessionEndCode;
  /** The casino's page to send the player back to (the launch's `returnUrl`), or null. */
  returnUrl: string | null;
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
  'pb-reality-check': CustomEvent<RealityCheckDetail>;
  'pb-session-ended': CustomEvent<SessionEndedDetail>;
}

/** The names of the table's public events, every key of PuntoBancoEventMap (the /embed frame forwards them all). */
export const PUNTO_BANCO_EVENTS = [
  'pb-ready',
  'pb-bet-change',
  'pb-round-settled',
  'pb-error',
  'pb-reality-check',
  'pb-session-ended',
] as const satisfies readonly (keyof PuntoBancoEventMap)[];
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
