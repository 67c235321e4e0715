/**
 * A shared table's relays, from the table's side: how many it has (stored: a restarted table asks
 * each of them for its seats), which one a newcomer goes to (the first with room: each holds
 * `relaySockets`, RELAY_SOCKETS unless a test sets fewer), and the one way the table speaks to its
 * players: `fanOut` (to every socket) and `toPlayer` (to one session's), queued per relay and sent
 * as one `deliver` call per relay per tick, in order. The table never lists its sockets: a message
 * costs it one call per relay, whatever the number of players.
 *
 * Sending is best effort, as it was on the table's own sockets: every message follows the stored
 * step it reports, and a player who missed one (a relay restarting) resynchronises from `state`.
 */
import { type ServerMessage, serverMessageText } from '../../shared/wire/shared-table-socket.ts';
import type { Env } from '../config/env.ts';
import { type RelayDelivery, relayName, type RelaySeat } from './relay.ts';
import { RELAY_TICK_MS } from './settings.ts';
import { logFault } from './sockets.ts';

const COUNT_KEY = 'relays';

export class Relays {
  readonly #ctx: DurableObjectState;
  readonly #env: () => Env;
  readonly #tableId: () => string;
  #count: number | null = null;
  /** Deliveries waiting for the tick, by relay. */
  #queues = new Map<number, RelayDelivery[]>();
  #tick: ReturnType<typeof setTimeout> | null = null;
  /** `deliver` calls made and the messages in them (tests and the bench count them). */
  readonly delivered = { calls: 0, messages: 0 };
  /** Each relay's last delivery in flight: the next one waits for it, so that messages keep their order. */
  readonly #tails = new Map<number, Promise<unknown>>();

  constructor(ctx: DurableObjectState, env: () => Env, tableId: () => string) {
    this.#ctx = ctx;
    this.#env = env;
    this.#tableId = tableId;
  }

  /** Relays the table has used (known once `seats` has run). */
  count(): number {
    return this.#count ?? 0;
  }

  #stub(index: number) {
    return this.#env().SHARED_TABLE_RELAYS.getByName(relayName(this.#tableId(), index));
  }

  /** Every relay's seats, by relay index. */
  async seats(): Promise<RelaySeat[][]> {
    this.#count ??= (await this.#ctx.storage.get<number>(COUNT_KEY)) ?? 0;
    return Promise.all(Array.from({ length: this.#count }, (_, i) => this.#stub(i).seats()));
  }

  /** The relay for a newcomer: the first whose sockets are fewer than `perRelay`, a new one if none. */
  async choose(sockets: number[], perRelay: number): Promise<number> {
    const count = this.count();
    for (let i = 0; i < count; i++) if ((sockets[i] ?? 0) < perRelay) return i;
    this.#count = count + 1;
    await this.#ctx.storage.put(COUNT_KEY, this.#count);
    return count;
  }

  async closeSession(relay: number, session: string, code: number, reason: string): Promise<void> {
    await this.#stub(relay).closeSession(session, code, reason);
  }

  /** To every player at the table. */
  fanOut(m: ServerMessage): void {
    const text = serverMessageText(m);
    for (let i = 0; i < this.count(); i++) this.#queue(i, { to: null, text });
  }

  /** To every socket of one session (at its relay; nowhere when it has no seat). */
  toPlayer(relay: number | undefined, session: string, m: ServerMessage): void {
    if (relay !== undefined) this.#queue(relay, { to: session, text: serverMessageText(m) });
  }

  #queue(relay: number, d: RelayDelivery): void {
    const q = this.#queues.get(relay);
    if (q) q.push(d);
    else this.#queues.set(relay, [d]);
    this.#tick ??= setTimeout(() => this.#flush(), RELAY_TICK_MS);
  }

  #flush(): void {
    const queues = this.#queues;
    this.#queues = new Map();
    this.#tick = null;
    for (const [relay, batch] of queues) {
      this.delivered.calls++;
      this.delivered.messages += batch.length;
      const send = () => this.#stub(relay).deliver(batch);
      const run = (this.#tails.get(relay) ?? Promise.resolve()).then(send, send).catch(logFault);
      this.#tails.set(relay, run);
    }
  }
}
