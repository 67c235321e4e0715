/**
 * The types of the element's public properties that a host page sets or reads, in a module of
 * their own with no Lit in it: the package's declarations of <punto-banco-table> import these,
 * never the controllers they come from (which are Lit reactive controllers).
 */

/** Where the table is in its life. */
export type TableState = 'loading' | 'ready' | 'dealing' | 'settled' | 'error';

/** The subset of `fetch` the client needs; injectable for tests and hosts with their own transport. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** A WebSocket as the shared-table controller uses it (tests pass a fake). */
export interface SocketLike {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open' | 'close' | 'error' | 'message', listener: (e: { data?: unknown }) => void): void;
  readonly readyState: number;
}
export type SocketFactory = (url: string) => SocketLike;
