/**
 * Sets the default `endpoint` from the URL of the script this module is bundled into (the CDN
 * loader, see widget/cdn.ts). Imported for its effect, before the element is defined.
 */
import { PuntoBancoTable } from './punto-banco-table.ts';

/** A versioned copy of the loader lives at `/v/<version>/` (the CDN's pinned versions), the Worker two folders up. */
const VERSIONED_FOLDER = /\/v\/[^/]+\/$/;

/**
 * The default `endpoint` of a table loaded from `scriptUrl`: the folder the script was served from
 * (the Worker serves `/punto-banco-table.js`, so that is the Worker's root), or the Worker's root
 * for a pinned version (`/v/0.1.0/punto-banco-table.js`). Anything that is not an http(s) URL (a
 * bundler's `file:` URL, nothing at all) gives `/`, the page's own origin.
 */
export function endpointOf(scriptUrl: string | undefined | null): string {
  try {
    const url = new URL(scriptUrl ?? '');
    if (url.protocol === 'http:' || url.protocol === 'https:') {
      const folder = new URL('./', url);
      folder.pathname = folder.pathname.replace(VERSIONED_FOLDER, '/');
      return folder.href;
    }
  } catch {
    // not a URL: fall through to the same-origin default
  }
  return '/';
}

PuntoBancoTable.defaultEndpoint = endpointOf(import.meta.url);
