/**
 * `/embed.js`, the helper a host page adds beside its /embed iframes (about 1 KB):
 *
 *   <script src="https://tables.example.com/embed.js" async></script>
 *   <iframe src="https://tables.example.com/embed?affiliate=acme" title="Punto Banco"></iframe>
 *
 * For every iframe whose `src` is the /embed page of the Worker that served this script, it sizes
 * the iframe to the table's height and re-dispatches the table's events (`pb-ready`,
 * `pb-bet-change`, `pb-round-settled`, `pb-error`) on the iframe element, bubbling, with the same
 * `detail`: `document.addEventListener('pb-round-settled', …)` hears a framed table as it hears a
 * tag. It accepts messages only from those iframes' windows and the Worker's origin, and posts only
 * to that origin. An iframe with `data-pb-height="fixed"` keeps its own height.
 */
import { type FrameMessage, HOST, type HostMessage, isFrameMessage } from './protocol.ts';

(() => {
  const script = document.currentScript as HTMLScriptElement | null;
  if (!script?.src) return;
  const worker = new URL(script.src).origin;
  const embedPath = new URL('embed', script.src).pathname;

  const isTableFrame = (node: Element): node is HTMLIFrameElement => {
    if (!(node instanceof HTMLIFrameElement) || !node.src) return false;
    const url = new URL(node.src, document.baseURI);
    return url.origin === worker && url.pathname === embedPath;
  };
  const frameOf = (source: MessageEventSource | null): HTMLIFrameElement | undefined =>
    [...document.querySelectorAll('iframe')].find((f) => f.contentWindow === source && isTableFrame(f));

  const hello = (frame: HTMLIFrameElement): void => {
    const message: HostMessage = { source: HOST, type: 'hello', fit: frame.dataset.pbHeight !== 'fixed' };
    frame.contentWindow?.postMessage(message, worker);
  };

  window.addEventListener('message', (e: MessageEvent) => {
    if (e.origin !== worker || !isFrameMessage(e.data)) return;
    const frame = frameOf(e.source);
    if (!frame) return;
    const message: FrameMessage = e.data;
    if (message.type === 'ready') hello(frame);
    else if (message.type === 'height' && frame.dataset.pbHeight !== 'fixed' && message.height > 0) frame.style.height = `${Math.ceil(message.height)}px`;
    else if (message.type === 'event' && /^pb-[a-z-]+$/.test(message.name))
      frame.dispatchEvent(new CustomEvent(message.name, { detail: message.detail, bubbles: true, composed: true }));
  });

  /** Its page is the Worker's already (a cross-origin window cannot be read), not the first about:blank. */
  const loaded = (frame: HTMLIFrameElement): boolean => {
    try {
      void frame.contentWindow?.location.href;
      return false;
    } catch {
      return true;
    }
  };
  // Frames loaded before this script ran, and every frame that loads later (load does not bubble: caught on the way down).
  for (const frame of document.querySelectorAll('iframe')) if (isTableFrame(frame) && loaded(frame)) hello(frame);
  document.addEventListener('load', (e) => e.target instanceof Element && isTableFrame(e.target) && hello(e.target), true);
})();
