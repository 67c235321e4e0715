import { expect, test } from 'vitest';
import { bindImportsStatically } from '../../scripts/static-imports.ts';
import { verifyPageScript } from '../../scripts/verify-page.ts';

test('every import() call becomes a static import in front, on the same first line', () => {
  const source = [
    "import { a } from './a.ts';",
    'export async function load() {',
    "  const { b } = await import('./b.ts');",
    "  return Promise.all([import('@x/y'), import('./b.ts')]).then(([y]) => [b, y]);",
    '}',
  ].join('\n');
  const out = bindImportsStatically('/src/load.ts', source);
  expect(out).toBe(
    [
      'import * as __staticImport0 from "./b.ts"; import * as __staticImport1 from "@x/y"; import { a } from \'./a.ts\';',
      'export async function load() {',
      '  const { b } = await Promise.resolve(__staticImport0);',
      '  return Promise.all([Promise.resolve(__staticImport1), Promise.resolve(__staticImport0)]).then(([y]) => [b, y]);',
      '}',
    ].join('\n'),
  );
  expect(out.split('\n')).toHaveLength(source.split('\n').length);
});

test('types, strings, comments and computed specifiers are not calls to bind', () => {
  const source = [
    "let m: Promise<typeof import('./m.ts')> | null = null;",
    "const text = \"import('./n.ts')\"; // import('./o.ts')",
    'const load = (name: string) => import(name);',
  ].join('\n');
  expect(bindImportsStatically('/src/types.ts', source)).toBe(source);
  expect(bindImportsStatically('/src/none.ts', 'export const x = 1;')).toBe('export const x = 1;');
});

test('the verify page bundles its lazily imported verifiers without lazy module wrappers', async () => {
  // esbuild wraps a module reached by import() in a one-file bundle in __esm(…), with every module
  // it imports; bound statically, none is left.
  const script = await verifyPageScript({ minify: false });
  expect(script).toContain('function verifySharedText(');
  expect(script).not.toContain('__esm(');
});

test("the Ed25519 fallback brings SHA-512 of @noble/hashes' SHA-2 family, not every variant", async () => {
  // keys.ts loads @noble/ed25519 with its SHA-512 through one module (noble-ed25519.ts); a lazy
  // import of sha2.js itself would keep all its exports (SHA-224, SHA-384, SHA-512/224, SHA-512/256).
  const script = await verifyPageScript({ minify: false });
  expect(script).toContain('sha512');
  for (const unused of ['sha224', 'sha384', 'sha512_224', 'sha512_256']) expect(script).not.toContain(unused);
});
