/**
 * A shared table's sockets, held by its relays (relay.ts, the Hibernation API): whose each one is
 * (its attachment, which survives hibernation) and sending a message to one. Every message is a `ServerMessage`
 * (shared/wire/shared-table-socket.ts), serialised by `serverMessageText`.
 */
import { type ServerMessage, serverMessageText } from '../../shared/wire/shared-table-socket.ts';

export interface Attachment {
  session: string;
  /** The client address it came from (CF-Connecting-IP), and when its session last bet (or arrived), Unix ms. */
  address: string;
  active: number;
}

/** A socket's attachment (sockets accepted before addresses were kept count as one unknown address, active since 0). */
export function attachment(ws: WebSocket): Attachment {
  const a = ws.deserializeAttachment() as Partial<Attachment> | null;
  return { session: a?.session ?? '', address: a?.address ?? '', active: a?.active ?? 0 };
}

/** Where an answer goes: a player's socket, or the list of answers a relay passes back to one (relay.ts). */
export interface Replier {
  send(text: string): void;
}

export function send(ws: Replier, m: ServerMessage): void {
  trySend(ws, serverMessageText(m));
}

/** Sends a serialised message; a socket closing meanwhile is let be (the player resynchronises on reconnect). */
export function trySend(ws: Replier, text: string): void {
  try {
    ws.send(text);
  } catch {
    // A socket closing meanwhile: the player resynchronises on reconnect.
  }
}

export function logFault(err: unknown): void {
  console.error('punto-banco: shared table fault:', (err as Error)?.stack ?? err);
}
