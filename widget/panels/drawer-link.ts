/**
 * What the element lends the panels' drawer (drawer-controller.ts): its API client, its texts, the
 * table's shoe and the two shoe actions the element owns; and the element as the drawer reads it.
 */
import type { ReactiveControllerHost } from 'lit';
import type { TableLimits } from '../../shared/table.ts';
import type { ApiClient, ApiResult, FetchLike } from '../session/api-client.ts';
import type { Reveal, ShoeState, ShoeStatus, Signed } from '../session/api-types.ts';
import type { PlayerCopy } from '../session/player.ts';
import type { TableScene } from '../scene/types.ts';

/** `POST /api/sessions/:id/shoe/end` → 200 (API.md). */
export interface ShoeEndAnswer {
  reveal: Signed<Reveal>;
  balance: number;
  shoe: { number: number; status: ShoeStatus; rounds: number };
  nextShoe: ShoeState;
}

/** What the element lends the controller: its API client, its texts, the shoe, and the two shoe actions it owns. */
export interface PanelsLink {
  api: ApiClient;
  /** The table's shoe now (the session's one copy), or null before the session opens. */
  shoe(): ShoeState | null;
  /** A text of the element's catalogs (`panels.*`, `drawer.*`, `rooms.*`). */
  t(key: string, values?: Record<string, string | number>): string;
  money(minor: number): string;
  /** The exact figure, every minor unit (the receipt details). */
  exactMoney(minor: number): string;
  /** The element's language (`en`, `ru`, `it`, `el`). */
  language(): string;
  /** Starts the committed shoe now; the seed and cut come from the shoe-start provider. */
  startShoe(): Promise<boolean>;
  /** Ends the shoe in play (POST …/shoe/end with this idempotency key); the element takes the next shoe. Null when it cannot now. */
  endShoe(idempotencyKey: string): Promise<ApiResult<ShoeEndAnswer> | null>;
  /** The table's scene (it draws the offer of the cut), or null while there is none. */
  scene(): TableScene | null;
  /** The player's key and own copy of the session (table-session.ts), or null before it opens. */
  player(): { key: string | null; copy: PlayerCopy | null } | null;
}

/** The element as the controller reads it. */
export interface PanelsHost extends ReactiveControllerHost, HTMLElement {
  readonly state: string;
  readonly limits: TableLimits | null;
  readonly sessionId: string | null;
  room: string;
  currency: string;
  /** `shoe` or `reshuffle`: the cut invitation says what the mode does. */
  mode: string;
  fetcher: FetchLike;
  readonly renderRoot: HTMLElement | DocumentFragment;
}
