/**
 * The versioned loader (scripts/cdn-versions.ts): a build publishes its version once, with the
 * loader's integrity; a later build of the same version never changes what that path serves.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { integrityOf, pinnedSnippet, publishVersion } from '../../scripts/cdn-versions.ts';

/** A dist/ as the build leaves it: the loader and its chunks. */
function dist(loader: string, chunks: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'pb-cdn-'));
  mkdirSync(path.join(dir, 'chunks'));
  writeFileSync(path.join(dir, 'punto-banco-table.js'), loader);
  for (const [name, text] of Object.entries(chunks)) writeFileSync(path.join(dir, 'chunks', name), text);
  return dir;
}

test('integrity is SHA-384 in base64, as <script integrity> wants it', () => {
  const bytes = new TextEncoder().encode('alert(1)');
  expect(integrityOf(bytes)).toBe(`sha384-${createHash('sha384').update(bytes).digest('base64')}`);
  expect(integrityOf(bytes)).toMatch(/^sha384-[A-Za-z0-9+/]{64}$/);
});

test('a version is published once; a later build with a change leaves it as it was; the next version gets its own path', async () => {
  const dir = dist('import "./chunks/a-1.js"; /* A */', { 'a-1.js': 'export const a = 1;' });
  const first = await publishVersion(dir, '0.1.0', 'punto-banco-table.js');
  expect(first.created).toBe(true);
  expect(first.published).toEqual({
    version: '0.1.0',
    loader: '/v/0.1.0/punto-banco-table.js',
    integrity: integrityOf(new TextEncoder().encode('import "./chunks/a-1.js"; /* A */')),
  });
  const pinnedA = readFileSync(path.join(dir, 'v/0.1.0/punto-banco-table.js'));
  expect(readFileSync(path.join(dir, 'v/0.1.0/chunks/a-1.js'), 'utf8')).toBe('export const a = 1;');

  // The same version built again, unchanged: nothing to say.
  expect(await publishVersion(dir, '0.1.0', 'punto-banco-table.js')).toMatchObject({ created: false, unchanged: true });

  // The build changes (new loader, new chunk names): version 0.1.0 still serves A, whole.
  writeFileSync(path.join(dir, 'punto-banco-table.js'), 'import "./chunks/b-2.js"; /* B */');
  writeFileSync(path.join(dir, 'chunks/b-2.js'), 'export const b = 2;');
  const again = await publishVersion(dir, '0.1.0', 'punto-banco-table.js');
  expect(again).toMatchObject({ created: false, unchanged: false });
  expect(again.published).toEqual(first.published);
  expect(readFileSync(path.join(dir, 'v/0.1.0/punto-banco-table.js'))).toEqual(pinnedA);
  expect(integrityOf(readFileSync(path.join(dir, 'v/0.1.0/punto-banco-table.js')))).toBe(first.published.integrity);

  // Bumped: the change is published at its own path, and A is still there.
  const next = await publishVersion(dir, '0.2.0', 'punto-banco-table.js');
  expect(next.created).toBe(true);
  expect(readFileSync(path.join(dir, 'v/0.2.0/chunks/b-2.js'), 'utf8')).toBe('export const b = 2;');
  expect(readFileSync(path.join(dir, 'v/0.1.0/punto-banco-table.js'))).toEqual(pinnedA);
  expect(pinnedSnippet(next.published, 'https://tables.example.com')).toBe(
    `<script type="module" src="https://tables.example.com/v/0.2.0/punto-banco-table.js" integrity="${next.published.integrity}" crossorigin="anonymous"></script>`,
  );
});

test('a version that is not a semantic version is refused', async () => {
  const dir = dist('/* x */', {});
  await expect(publishVersion(dir, '../../etc', 'punto-banco-table.js')).rejects.toThrow('is not a semantic version');
  await expect(publishVersion(dir, 'latest', 'punto-banco-table.js')).rejects.toThrow('is not a semantic version');
});
