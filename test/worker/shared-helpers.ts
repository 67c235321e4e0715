/**
 * Players at a shared table inside workerd: a WebSocket through the Worker's own fetch handler,
 * every message kept, and waits for the next message of a type.
 */
import { env, exports } from 'cloudflare:workers';
import { expect } from 'vitest';
import { type Bet, generateSigningKey, type SigningKey } from '../../shared/index.ts';
import { sharedBetRequest, sharedStartRequest, signSharedRequest } from '../../shared/fairness/pb-shared-1/index.ts';
import { playerKeyOf } from '../../shared/fairness/pb-fair-2/records.ts';
import type { SharedBetRequest, SharedCommitment, SharedStartRequest, SignedShared, SignedSharedRequest } from '../../shared/fairness/pb-shared-1/index.ts';
import { readServerMessage, type ServerMessage, type ServerMessageOf, type ServerMessageType } from '../../shared/wire/shared-table-socket.ts';
import type { SharedBooks } from '../../worker/shared-table/shared-table.ts';
import { BASE, CLIENT_IP, type Session, state } from './helpers.ts';

export interface Player {
  session: Session;
  ws: WebSocket;
  messages: ServerMessage[];
  /** The first message not yet taken of `type` that satisfies `test` (waits for it). */
  next<T extends ServerMessageType>(type: T, test?: (m: ServerMessageOf<T>) => boolean, timeoutMs?: number): Promise<ServerMessageOf<T>>;
  send(m: object): void;
  close(): void;
  /** The player's own key: its pseudonym at the table. */
  key: SigningKey;
  player: string;
  /** Signs and sends a start request for the table's committed shoe; returns the signed request. */
  start(commitment: SignedShared<SharedCommitment>, clientSeed: string, cut: number): Promise<SignedSharedRequest<SharedStartRequest>>;
  /** Signs and sends a bet request; returns the signed request (to send it again). */
  bet(table: string, shoe: number, round: number, bets: Bet[]): Promise<SignedSharedRequest<SharedBetRequest>>;
}

export async function upgrade(path: string, headers: Record<string, string> = {}): Promise<Response> {
  return exports.default.fetch(new Request(`${BASE}${path}`, { headers: { 'CF-Connecting-IP': CLIENT_IP, Upgrade: 'websocket', ...headers } }));
}

export async function join(session: Session, table: string, key?: SigningKey): Promise<Player> {
  const own = key ?? (await generateSigningKey()).key;
  const res = await upgrade(`/api/tables/${table}/ws`, { Authorization: `Bearer ${session.token}` });
  if (res.status !== 101 || !res.webSocket) throw new Error(`join failed: ${res.status} ${await res.text()}`);
  const ws = res.webSocket;
  const messages: ServerMessage[] = [];
  const waiters: Array<() => void> = [];
  ws.accept();
  ws.addEventListener('message', (e) => {
    const m = readServerMessage(String(e.data));
    if (!m) throw new Error(`not a message of the shared table's protocol: ${String(e.data)}`);
    messages.push(m);
    for (const w of waiters.splice(0)) w();
  });
  const taken = new Set<number>();
  const player: Player = {
    session,
    ws,
    messages,
    async next<T extends ServerMessageType>(type: T, test: (m: ServerMessageOf<T>) => boolean = () => true, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const i = messages.findIndex((m, j) => !taken.has(j) && m.type === type && test(m as ServerMessageOf<T>));
        if (i >= 0) {
          taken.add(i);
          return messages[i] as ServerMessageOf<T>;
        }
        if (Date.now() > deadline) throw new Error(`no "${type}" message within ${timeoutMs} ms; got ${messages.map((m) => m.type).join(', ')}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    send(m) {
      ws.send(JSON.stringify({ v: 1, ...m }));
    },
    close() {
      ws.close(1000, 'done');
    },
    key: own,
    player: playerKeyOf(own),
    async start(commitment, clientSeed, cut) {
      const request = await signSharedRequest(sharedStartRequest(commitment, playerKeyOf(own), clientSeed, cut), own);
      player.send({ type: 'start', request });
      return request;
    },
    async bet(tableId, shoe, round, bets) {
      const request = await signSharedRequest(sharedBetRequest(tableId, shoe, round, playerKeyOf(own), bets), own);
      player.send({ type: 'bet', request });
      return request;
    },
  };
  return player;
}

/** Waits until the table owes nothing (every transfer answered); its books. */
export async function settled(id: string): Promise<SharedBooks> {
  for (let i = 0; i < 300; i++) {
    const books = await env.SHARED_TABLES.getByName(id).books();
    if (books && books.pending === 0) return books;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('transfers still pending');
}

/**
 * Once the table owes nothing: its books and every session's agree. What the table recorded as
 * debited, credited and refunded is what the session applied for this table, and the session's
 * balance moved by exactly that from `before`.
 */
export async function reconciled(id: string, sessions: Session[], before: number[]): Promise<SharedBooks> {
  const books = await settled(id);
  for (const [i, s] of sessions.entries()) {
    const table = books.sessions[s.id] ?? { debited: 0, credited: 0, refunded: 0, pending: 0 };
    const applied = (await env.TABLES.getByName(s.id).sharedTransfers()).filter((t) => t.table === id && t.applied);
    const sum = (kind: string) => applied.filter((t) => t.kind === kind).reduce((n, t) => n + t.amount, 0);
    expect({ debited: sum('debit'), credited: sum('credit'), refunded: sum('refund') }, s.id).toEqual({
      debited: table.debited,
      credited: table.credited,
      refunded: table.refunded,
    });
    expect(new Set(applied.map((t) => t.id)).size).toBe(applied.length);
    expect((await state(s)).balance, s.id).toBe(before[i]! - table.debited + table.credited + table.refunded);
  }
  return books;
}
