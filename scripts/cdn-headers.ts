/**
 * dist/_headers for Cloudflare's static assets (and `wrangler dev`): the widget loaded from the
 * Worker by a page on ANOTHER origin. Module scripts and dynamic `import()` are fetched in CORS
 * mode, so without `Access-Control-Allow-Origin` a host page could not load the loader nor its lazy
 * chunks. The code is public; only the API is origin-checked (worker/http/cors.ts). Chunk names carry a
 * content hash, and a versioned loader (`/v/<version>/…`, cdn-versions.ts) never changes, so both
 * are cached for good; the latest loader (and the iframe helper) are cached for five minutes, so a
 * deploy reaches every page that does not pin a version within minutes.
 *
 * No static page may be framed (`/*`): a page of the Worker's own origin in a frame would play
 * through the API same-origin, round the affiliate origin rules of /embed, and could be
 * clickjacked. /embed, the one framable page, is answered by the Worker (wrangler.toml
 * `run_worker_first`), and `_headers` never applies to the Worker's answers. Rules add up, so the
 * loader and chunks keep their CORS headers; `frame-ancestors` on a script is harmless.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';

/** What every static asset says about framing: nobody may frame it (old browsers read X-Frame-Options). */
export const NO_FRAMING: Readonly<Record<string, string>> = {
  'Content-Security-Policy': "frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
};

/** Files whose name or path changes with their content. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** The latest loader and the iframe helper: a deploy reaches every page within five minutes. */
export const LATEST_CACHE = 'public, max-age=300';

/** The `_headers` rules: no framing anywhere, CORS for the loader and its chunks. */
export function cdnHeaders(loader: string): string {
  return [
    '/*',
    ...Object.entries(NO_FRAMING).map(([name, value]) => `  ${name}: ${value}`),
    `/${loader}`,
    '  Access-Control-Allow-Origin: *',
    `  Cache-Control: ${LATEST_CACHE}`,
    '/chunks/*',
    '  Access-Control-Allow-Origin: *',
    `  Cache-Control: ${IMMUTABLE_CACHE}`,
    '/v/*',
    '  Access-Control-Allow-Origin: *',
    `  Cache-Control: ${IMMUTABLE_CACHE}`,
    '/embed.js',
    `  Cache-Control: ${LATEST_CACHE}`,
    '/custom-elements.json',
    '  Access-Control-Allow-Origin: *',
    '',
  ].join('\n');
}

/** Writes `dist/_headers`. */
export async function writeCdnHeaders(dist: string, loader: string): Promise<void> {
  await writeFile(path.join(dist, '_headers'), cdnHeaders(loader));
}
