/**
 * The CDN's versioned loader (`npm run build`): besides the "latest" loader at
 * `/punto-banco-table.js` (short-cached, so a deploy reaches every page within minutes), each
 * version of the package is served for good at `/v/<version>/punto-banco-table.js` with its own
 * copy of the chunks (`/v/<version>/chunks/…`), cached as immutable (cdn-headers.ts). A page may
 * pin a version and check it with Subresource Integrity:
 *
 *   <script type="module" src="https://tables.example.com/v/0.1.0/punto-banco-table.js"
 *           integrity="sha384-…" crossorigin="anonymous"></script>
 *
 * A published version never changes: once `dist/v/<version>/` exists, a later build of the same
 * version leaves it as it is (and says so when its own loader differs: bump the version in
 * package.json to publish the change at a new path). `dist/v/` is kept between builds; to keep old
 * versions alive across deploys, keep it between deploys (DEPLOY.md "Versioned loaders").
 */
import { createHash } from 'node:crypto';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';

/** The folder of versioned copies under dist/ (and the URL path prefix). */
export const VERSIONS_DIR = 'v';

/** The URL path of a version's loader. */
export function versionedLoaderPath(version: string, loader: string): string {
  return `/${VERSIONS_DIR}/${version}/${loader}`;
}

/** The Subresource Integrity value of a file's bytes (SHA-384, as browsers and the SRI spec prefer). */
export function integrityOf(bytes: Uint8Array): string {
  return `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
}

/** What dist/v/<version>/integrity.json says. */
export interface PublishedVersion {
  version: string;
  /** The loader's URL path, e.g. `/v/0.1.0/punto-banco-table.js`. */
  loader: string;
  integrity: string;
}

/** The `<script>` tag for a pinned version on the Worker at `origin` (e.g. `https://tables.example.com`). */
export function pinnedSnippet(published: PublishedVersion, origin: string): string {
  return `<script type="module" src="${origin}${published.loader}" integrity="${published.integrity}" crossorigin="anonymous"></script>`;
}

/**
 * Publishes the loader and chunks just built in `dist` as `version`, unless that version is
 * published already. `published`: what the version's path serves (now or from before);
 * `unchanged`: false when this build's loader differs from the published one (kept).
 */
export async function publishVersion(
  dist: string,
  version: string,
  loader: string,
): Promise<{ published: PublishedVersion; unchanged: boolean; created: boolean }> {
  if (!/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/.test(version)) throw new Error(`"${version}" is not a semantic version (package.json "version")`);
  const dir = path.join(dist, VERSIONS_DIR, version);
  const built = await readFile(path.join(dist, loader));
  const record = path.join(dir, 'integrity.json');
  if (existsSync(record)) {
    const published = JSON.parse(await readFile(record, 'utf8')) as PublishedVersion;
    return { published, unchanged: published.integrity === integrityOf(built), created: false };
  }
  await mkdir(dir, { recursive: true });
  await cp(path.join(dist, 'chunks'), path.join(dir, 'chunks'), { recursive: true });
  await writeFile(path.join(dir, loader), built);
  const published: PublishedVersion = { version, loader: versionedLoaderPath(version, loader), integrity: integrityOf(built) };
  await writeFile(record, `${JSON.stringify(published, null, 2)}\n`);
  return { published, unchanged: true, created: true };
}
