/**
 * A shared table's seats: the sessions with a socket at the table, each with its address and its
 * last activity (a bet, or its arrival), kept in the sockets' attachments (they survive
 * hibernation). A full table gives the seat idle the longest to a newcomer.
 */
import { type Attachment, attachment } from './sockets.ts';
import type { SharedTableParts, TableState } from './parts.ts';

/** A seat with no bet for this many betting windows is idle: on a full table it gives way to a newcomer. */
export const IDLE_ROUNDS = 3;

/** A seated session: its address, its last activity, its sockets. */
export interface Seat {
  address: string;
  active: number;
  sockets: WebSocket[];
}

export class Seats {
  readonly #p: SharedTableParts;

  constructor(parts: SharedTableParts) {
    this.#p = parts;
  }

  /** The sessions with a socket at the table, in order of their oldest socket. */
  sessions(): string[] {
    return [...this.all().keys()];
  }
  /** Each seated session: its address and its last activity (a bet, or its arrival), over its sockets. */
  all(): Map<string, Seat> {
    const seats = new Map<string, Seat>();
    for (const ws of this.#p.ctx.getWebSockets()) {
      const a = attachment(ws);
      const seat = seats.get(a.session);
      if (seat) {
        seat.active = Math.max(seat.active, a.active);
        seat.sockets.push(ws);
      } else seats.set(a.session, { address: a.address, active: a.active, sockets: [ws] });
    }
    return seats;
  }
  /**
   * On a full table, the seat idle the longest gives way: no bet for IDLE_ROUNDS betting windows
   * and none in the open round. Its sockets are closed (4001); it may come back when a seat is free.
   */
  releaseIdle(seats: Map<string, Seat>, s: TableState): boolean {
    const idleSince = this.#p.now() - (this.#p.hooks.idleMs ?? IDLE_ROUNDS * s.config.windowMs);
    const round = s.phase === 'awaiting-beacon' ? s.shoe.closed : s.shoe.closed + 1;
    let oldest: [string, Seat] | null = null;
    for (const entry of seats) {
      if (entry[1].active >= idleSince || this.#p.store.sessionBets(s.shoe.number, round, entry[0]).length > 0) continue;
      if (!oldest || entry[1].active < oldest[1].active) oldest = entry;
    }
    if (!oldest) return false;
    for (const ws of oldest[1].sockets) {
      try {
        ws.close(4001, 'seat released: idle at a full table');
      } catch {
        // already closing
      }
    }
    return true;
  }
  /** A bet is activity: the session's seat is not idle. */
  touch(session: string): void {
    const now = this.#p.now();
    for (const ws of this.#p.ctx.getWebSockets(session)) ws.serializeAttachment({ ...attachment(ws), active: now } satisfies Attachment);
  }
}
