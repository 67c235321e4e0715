/**
 * The messages between the /embed frame (frame.ts, on the Worker's origin) and the helper on the
 * host page (host.ts, served as `/embed.js`). Both sides check the other's origin and window;
 * neither ever posts to `*`.
 *
 *   frame → host  `{ source: FRAME, type: 'ready' }`            the frame runs (posted when it knows its parent's origin)
 *   host → frame  `{ source: HOST, type: 'hello', fit: true }`   the helper is here; `fit`: the frame's height will follow the table
 *   frame → host  `{ source: FRAME, type: 'height', height }`    the table's height in CSS pixels, whenever it changes
 *   frame → host  `{ source: FRAME, type: 'event', name, detail }` a `pb-…` event of the table, its detail as it was
 */
export const FRAME = 'punto-banco-embed';
export const HOST = 'punto-banco-host';

export type FrameMessage =
  | { source: typeof FRAME; type: 'ready' }
  | { source: typeof FRAME; type: 'height'; height: number }
  | { source: typeof FRAME; type: 'event'; name: string; detail: unknown };

export interface HostMessage {
  source: typeof HOST;
  type: 'hello';
  fit: boolean;
}

/** A message from the frame (any other data, or a foreign one, is not). */
export function isFrameMessage(data: unknown): data is FrameMessage {
  return typeof data === 'object' && data !== null && (data as { source?: unknown }).source === FRAME;
}

/** A message from the helper. */
export function isHostMessage(data: unknown): data is HostMessage {
  return typeof data === 'object' && data !== null && (data as { source?: unknown }).source === HOST && (data as { type?: unknown }).type === 'hello';
}
