/**
 * Server-render safety of the built bundle (scripts/build.ts injects this module with esbuild's
 * `inject`): every free reference to `HTMLElement` or `document` in dist/punto-banco-table.js and
 * its chunks reads these bindings instead of the global ones.
 *
 * In a browser they ARE the globals, so nothing changes. In Node (Next.js, Nuxt, SvelteKit, Astro
 * importing the package while rendering on the server) there is no DOM: Lit's browser build would
 * throw `ReferenceError: HTMLElement is not defined` at `class … extends HTMLElement`, and lit-html
 * reads `document` once at load. Here they fall back to inert stand-ins, so the modules load, the
 * element class exists, nothing is defined (widget/index.ts defines only where `customElements`
 * exists), and no global of the server is touched. The element upgrades on the client.
 */

/** A class to extend where there is no DOM; never instantiated on a server. */
class ServerHTMLElement {}

/** The one call lit-html makes on `document` while loading (a tree walker it reuses when rendering). */
const serverDocument = {
  createTreeWalker: () => ({}),
  createComment: () => ({}),
};

const hasDom = typeof globalThis.HTMLElement === 'function' && typeof globalThis.document === 'object';

const htmlElement = (hasDom ? globalThis.HTMLElement : ServerHTMLElement) as typeof globalThis.HTMLElement;
const doc = (hasDom ? globalThis.document : serverDocument) as unknown as Document;

export { htmlElement as HTMLElement, doc as document };
