/**
 * The room or mode switch, as a reactive controller of <punto-banco-table>: a new room, Worker,
 * affiliate, mode or shared table means a new session. A player whose session has played or holds
 * bets is asked first when the switch is theirs (a room or a mode at the private table): yes opens
 * the new session, no puts the old room or mode back (that change is no switch).
 */
import type { PropertyValues, ReactiveController, ReactiveControllerHost } from 'lit';
import type { ShoeMode } from '../../shared/shoe.ts';
import type { RoomId } from '../../shared/table.ts';

/** The question on screen: what the player would switch to, and what to put back on a no. */
export interface SwitchAsked {
  to: string;
  room: RoomId;
  undo: { room?: RoomId; mode?: ShoeMode };
}

export interface SwitchHost extends ReactiveControllerHost, HTMLElement {
  room: RoomId;
  mode: ShoeMode;
  readonly table: string | null;
  /** A casino's launch: its room and mode are the launch's, so only a new token or Worker opens another session. */
  readonly launchToken: string | null;
  readonly sessionId: string | null;
  readonly state: string;
  readonly renderRoot: HTMLElement | DocumentFragment;
}

export interface SwitchLink {
  /** The session has played or holds bets: a switch would leave its balance behind. */
  holdsMoney(): boolean;
  /** Opens the new session. */
  reopen(): void;
  t(key: string): string;
}

/** The properties whose change opens a new session. */
const SWITCHES = ['room', 'endpoint', 'affiliate', 'mode', 'table', 'launchToken'];

export class SwitchQuestion implements ReactiveController {
  asked: SwitchAsked | null = null;
  /** The player said yes: the next switch goes through. */
  #agreed = false;
  /** A no puts the old mode or room back: that change is no switch. */
  #reverting = false;
  /** The question has just come up: its Cancel takes the focus once drawn. */
  #focus = false;
  #host: SwitchHost;
  #link: SwitchLink;

  constructor(host: SwitchHost, link: SwitchLink) {
    this.#host = host;
    this.#link = link;
    host.addController(this);
  }

  hostUpdated(): void {
    if (!this.#focus || !this.asked) return;
    this.#focus = false;
    this.#host.renderRoot.querySelector<HTMLElement>('.switch-cancel')?.focus();
  }

  /** The element's properties changed (its `updated`): a switch asks, or opens the new session. */
  changed(changed: PropertyValues): void {
    const host = this.#host;
    const launched = (key: string): boolean => key === 'launchToken' || key === 'endpoint' || !host.launchToken;
    const switched = SWITCHES.filter((key) => changed.has(key) && changed.get(key) !== undefined && launched(key));
    if (!switched.length || !host.sessionId || host.state === 'dealing') return;
    const asks = !host.table && switched.every((key) => key === 'room' || key === 'mode') && this.#link.holdsMoney();
    if (this.#reverting) this.#reverting = false;
    else if (asks && !this.#agreed) this.#ask(changed);
    else {
      this.#agreed = false;
      this.#link.reopen();
    }
  }

  /** The player's answer: yes opens the new session, no puts the old mode or room back. */
  answer(yes: boolean): void {
    const q = this.asked;
    this.asked = null;
    this.#host.requestUpdate();
    if (!q) return;
    if (yes) {
      this.#link.reopen();
      return;
    }
    this.#reverting = true;
    if (q.undo.room) this.#host.room = q.undo.room;
    if (q.undo.mode) this.#host.mode = q.undo.mode;
  }

  #ask(changed: PropertyValues): void {
    const host = this.#host;
    const undo: { room?: RoomId; mode?: ShoeMode } = {};
    if (changed.has('room')) undo.room = changed.get('room') as RoomId;
    if (changed.has('mode')) undo.mode = changed.get('mode') as ShoeMode;
    const to = undo.mode ? this.#link.t(`mode.${host.mode}`) : this.#link.t(`rooms.${host.room}`);
    this.asked = { to, room: host.room, undo };
    this.#focus = true;
    host.requestUpdate();
  }
}
