/**
 * Sets the default `endpoint` from the URL of the script this module is bundled into (the CDN
 * loader, see widget/cdn.ts). Imported for its effect, before the element is defined.
 */
import { PuntoBancoTable } from './punto-banco-table.ts';

/**
 * The default `endpoint` of a table loaded from `scriptUrl`: the folder the script was served from
 * (the Worker serves `/punto-banco-table.js`, so that is the Worker's root). Anything that is not an
 * http(s) URL (a bundler's `file:` URL, nothing at all) gives `/`, the page's own origin.
 */
export function endpointOf(scriptUrl: string | undefined | null): string {
  try {
    const url = new URL(scriptUrl ?? '');
    if (url.protocol === 'http:' || url.protocol === 'https:') return new URL('./', url).href;
  } catch {
    // not a URL: fall through to the same-origin default
  }
  return '/';
}

PuntoBancoTable.defaultEndpoint = endpointOf(import.meta.url);
