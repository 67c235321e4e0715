/**
 * dist/_headers for Cloudflare's static assets (and `wrangler dev`): the widget loaded from the
 * Worker by a page on ANOTHER origin. Module scripts and dynamic `import()` are fetched in CORS
 * mode, so without `Access-Control-Allow-Origin` a host page could not load the loader nor its lazy
 * chunks. The code is public; only the API is origin-checked (worker/cors.ts). Chunk names carry a
 * content hash, so they may be cached for good; the loader keeps the default revalidation so a
 * deploy reaches every page.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';

/** The `_headers` rules for the loader and its chunks. */
export function cdnHeaders(loader: string): string {
  return [
    `/${loader}`,
    '  Access-Control-Allow-Origin: *',
    '/chunks/*',
    '  Access-Control-Allow-Origin: *',
    '  Cache-Control: public, max-age=31536000, immutable',
    '/custom-elements.json',
    '  Access-Control-Allow-Origin: *',
    '',
  ].join('\n');
}

/** Writes `dist/_headers`. */
export async function writeCdnHeaders(dist: string, loader: string): Promise<void> {
  await writeFile(path.join(dist, '_headers'), cdnHeaders(loader));
}
