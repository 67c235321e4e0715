/**
 * The /embed page's own script (built to dist/embed-frame.js; the Worker's frame page loads it
 * beside the loader): the framed table talks to the page that frames it.
 *
 * - Every `pb-…` event of the table is posted to the parent, with its detail.
 * - The table's height is posted whenever it changes, so the helper (`/embed.js`, host.ts) can size
 *   the iframe; once the helper says hello with `fit`, the frame lets the table take its natural
 *   height (no cap by the frame's viewport, which would otherwise follow the iframe it sizes).
 * - Messages go to the parent's origin only, never `*`: the origin of the helper's hello from the
 *   parent window, which must be the one the browser reports for the parent where it does
 *   (`location.ancestorOrigins`, Chromium and Safari). The frame's `frame-ancestors` has already
 *   limited the parent to the sites allowed for the affiliate. Until the hello, messages wait in a
 *   short queue (the table may be ready before the host page's helper has run); the frame's
 *   `ready` goes out at once where the parent's origin is known, so a helper that came late hears it.
 */
import { PUNTO_BANCO_EVENTS } from '../element/emit.ts';
import { SHORT_SCREEN, SHORT_SCREEN_ABOVE } from '../element/short-screen.ts';
import { FRAME, type FrameMessage, isHostMessage } from './protocol.ts';

/** Messages kept while the parent's origin is unknown (the oldest dropped beyond it). */
const QUEUE_MAX = 32;

const framed = window.parent !== window;
const reported = location.ancestorOrigins?.[0];
/** The parent's origin as the browser reports it, if it does; an opaque one ("null", a sandboxed parent) cannot be addressed. */
const reportedOrigin: string | null = reported && reported !== 'null' ? reported : null;
/** The parent's origin, once its helper has said hello. */
let parentOrigin: string | null = null;
const queue: FrameMessage[] = [];
let lastHeight = 0;
/** Set by the helper's hello: the iframe's height follows the table's. */
let fit = false;

function post(message: FrameMessage): void {
  if (!framed) return;
  if (parentOrigin === null) {
    queue.push(message);
    if (queue.length > QUEUE_MAX) queue.shift();
    return;
  }
  window.parent.postMessage(message, parentOrigin);
}

const table = (): HTMLElement | null => document.querySelector('punto-banco-table');

function postHeight(force = false): void {
  const element = table();
  if (!element) return;
  let height = Math.ceil(element.getBoundingClientRect().height);
  // A short, wide frame shows the table as on a phone held sideways, fitted to the frame's height:
  // the frame's height would then follow a table that follows it. Grow out of it first.
  if (fit && matchMedia(SHORT_SCREEN).matches) height = Math.max(height, SHORT_SCREEN_ABOVE);
  if (height === 0 || (height === lastHeight && !force)) return;
  lastHeight = height;
  post({ source: FRAME, type: 'height', height });
}

window.addEventListener('message', (e: MessageEvent) => {
  if (e.source !== window.parent || !isHostMessage(e.data)) return;
  // The browser's own word on the parent wins over a message's.
  if ((reportedOrigin !== null && e.origin !== reportedOrigin) || e.origin === 'null') return;
  parentOrigin = e.origin;
  fit = e.data.fit;
  if (fit) document.documentElement.dataset.pbFit = 'content';
  for (const message of queue.splice(0)) window.parent.postMessage(message, parentOrigin);
  postHeight(true);
});

for (const name of PUNTO_BANCO_EVENTS) {
  document.addEventListener(name, (e) => post({ source: FRAME, type: 'event', name, detail: (e as CustomEvent).detail }));
}

const observer = new ResizeObserver(() => postHeight());
const watch = (): void => {
  const element = table();
  if (element) observer.observe(element);
};
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', watch, { once: true });
else watch();

// A helper that ran before this frame did hears it is here (and answers hello); one that runs later says hello on its own.
if (framed && reportedOrigin !== null) window.parent.postMessage({ source: FRAME, type: 'ready' } satisfies FrameMessage, reportedOrigin);
