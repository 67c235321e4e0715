/**
 * A shared table's seats: the sessions with a socket at one of the table's relays (relay.ts), each
 * with its relay, its address and its last activity. The relays hold the sockets and their
 * attachments (which survive hibernation): this list is the table's copy, in memory, taken from
 * the relays when the object starts (`load`) and again before each close (`sync`, which also
 * drops the seats of a relay that restarted and lost its sockets), kept between by the relays'
 * joins and leaves. A full table gives the seat idle the longest to a newcomer.
 */
import type { SharedTableParts, TableState } from './parts.ts';
import type { Relays } from './relays.ts';

/** A seat with no bet for this many betting windows is idle: on a full table it gives way to a newcomer. */
export const IDLE_ROUNDS = 3;
/** A seat taken this recently (ms) is kept by `sync` even when its relay does not list it yet (its socket is being accepted). */
const JOINING_MS = 5_000;

/** A seated session: its relay, address, last activity (a bet, or its arrival) and sockets. */
export interface Seat {
  relay: number;
  address: string;
  active: number;
  sockets: number;
  /** When the table last gave it a socket (Unix ms). */
  joined: number;
}

export class Seats {
  readonly #p: SharedTableParts;
  readonly #relays: Relays;
  readonly #seats = new Map<string, Seat>();
  #loaded: Promise<void> | null = null;

  constructor(parts: SharedTableParts, relays: Relays) {
    this.#p = parts;
    this.#relays = relays;
  }

  /** Takes the seats from the relays, once per instance (a restarted table asks them again). */
  load(): Promise<void> {
    this.#loaded ??= this.sync().catch((err) => {
      this.#loaded = null;
      throw err;
    });
    return this.#loaded;
  }
  /** Takes every relay's seats again: a seat its relay no longer lists is gone (unless just taken). */
  async sync(): Promise<void> {
    const asked = this.#p.now();
    const lists = await this.#relays.seats();
    const listed = new Set<string>();
    lists.forEach((seats, relay) => {
      for (const s of seats) {
        listed.add(s.session);
        const known = this.#seats.get(s.session);
        this.#seats.set(s.session, {
          relay,
          address: s.address,
          active: Math.max(s.active, known?.active ?? 0),
          sockets: s.sockets,
          joined: known?.joined ?? s.active,
        });
      }
    });
    for (const [session, seat] of this.#seats) if (!listed.has(session) && seat.joined < asked - JOINING_MS) this.#seats.delete(session);
  }

  /** The sessions seated, in order of arrival. */
  sessions(): string[] {
    return [...this.#seats.keys()];
  }
  all(): ReadonlyMap<string, Seat> {
    return this.#seats;
  }
  of(session: string): Seat | undefined {
    return this.#seats.get(session);
  }
  /** Sockets at the table, over every relay (as of the relays' last word). */
  connections(): number {
    let n = 0;
    for (const seat of this.#seats.values()) n += seat.sockets;
    return n;
  }
  /** Sockets at each relay. */
  perRelay(): number[] {
    const counts = Array.from({ length: this.#relays.count() }, () => 0);
    for (const seat of this.#seats.values()) counts[seat.relay] = (counts[seat.relay] ?? 0) + seat.sockets;
    return counts;
  }

  /** A socket of `session` accepted at `relay` (its seat moves there if it sat at another). */
  join(session: string, relay: number, address: string, sockets: number): void {
    const now = this.#p.now();
    const known = this.#seats.get(session);
    this.#seats.set(session, { relay, address, active: Math.max(now, known?.active ?? 0), sockets, joined: now });
  }
  /** The last socket of `session` at `relay` closed. */
  leave(session: string, relay: number): void {
    if (this.#seats.get(session)?.relay === relay) this.#seats.delete(session);
  }

  /**
   * On a full table, the seat idle the longest gives way: no bet for IDLE_ROUNDS betting windows
   * and none in the open round. Its sockets are closed (4001); it may come back when a seat is free.
   */
  async releaseIdle(s: TableState): Promise<boolean> {
    const idleSince = this.#p.now() - (this.#p.hooks.idleMs ?? IDLE_ROUNDS * s.config.windowMs);
    const round = s.phase === 'awaiting-beacon' ? s.shoe.closed : s.shoe.closed + 1;
    let oldest: [string, Seat] | null = null;
    for (const entry of this.#seats) {
      if (entry[1].active >= idleSince || this.#p.store.sessionBets(s.shoe.number, round, entry[0]).length > 0) continue;
      if (!oldest || entry[1].active < oldest[1].active) oldest = entry;
    }
    if (!oldest) return false;
    this.#seats.delete(oldest[0]);
    await this.#relays.closeSession(oldest[1].relay, oldest[0], 4001, 'seat released: idle at a full table');
    return true;
  }
  /** A bet is activity: the session's seat is not idle. */
  touch(session: string): void {
    const seat = this.#seats.get(session);
    if (seat) seat.active = this.#p.now();
  }
}
