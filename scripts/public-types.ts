/**
 * The package's declarations as a consumer type-checks them (`npm run build`, after tsc writes
 * dist/types/): they may import nothing the package does not install. Lit, Pixi and the rest are
 * bundled into dist/ and are devDependencies, so:
 *   - a `'lit'` import becomes the bundled surface, dist/types/lit-surface.d.ts (widget/lit-surface.d.ts);
 *   - every declaration file no export reaches is removed (the Pixi scene's among them: tsc writes a
 *     file for every module it compiled, lazy chunks included);
 *   - what is left is checked: no file may import a bare module name, or the build fails.
 * The framework files (react.d.ts, vue.d.ts, svelte.d.ts, scripts/host-types.ts) are written after
 * this step and import their own framework, which the consumer using them has.
 */
import { copyFile, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** The module specifiers of a declaration file: `from '…'`, `import('…')`, `import '…'` (comments aside). */
export function specifiers(declarations: string): string[] {
  // Comments first: JSDoc may quote an `import('…')` that is not one.
  const text = declarations.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/(?!\/).*$/gm, '');
  const found = [
    ...text.matchAll(/\bfrom\s+'([^']+)'/g),
    ...text.matchAll(/\bfrom\s+"([^"]+)"/g),
    ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
    ...text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm),
  ].map((m) => m[1]!);
  return [...new Set(found)];
}

/** The declaration file a relative specifier names (`./x.ts`, `./x.js`, `./x`), from the file `from`. */
export function declarationOf(from: string, specifier: string): string {
  const target = path.resolve(path.dirname(from), specifier);
  return target.replace(/\.(ts|js)$/, '') + '.d.ts';
}

/** Rewrites the Lit imports of one declaration file to the bundled surface at `surface` (a .d.ts path). */
export function pointLitAt(text: string, file: string, surface: string): string {
  let rel = path.relative(path.dirname(file), surface).replace(/\.d\.ts$/, '.js');
  if (!rel.startsWith('.')) rel = `./${rel}`;
  return text.replace(/(\bfrom\s+|\bimport\(\s*)(['"])lit\2/g, `$1'${rel}'`);
}

/** Rewrites, prunes and checks dist/types (see the header). `entries`: the declaration files the package's exports name. */
export async function publicDeclarations(root: string, entries: string[]): Promise<{ kept: number; removed: number }> {
  const types = path.join(root, 'dist/types');
  const surface = path.join(types, 'lit-surface.d.ts');
  await copyFile(path.join(root, 'widget/lit-surface.d.ts'), surface);
  const reached = new Set<string>();
  const problems: string[] = [];
  const queue = [...entries.map((e) => path.join(root, e)), surface];
  while (queue.length) {
    const file = queue.pop()!;
    if (reached.has(file)) continue;
    reached.add(file);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      problems.push(`${path.relative(root, file)} is imported but was not written`);
      continue;
    }
    const rewritten = pointLitAt(text, file, surface);
    if (rewritten !== text) await writeFile(file, rewritten);
    for (const spec of specifiers(rewritten)) {
      if (spec.startsWith('.')) queue.push(declarationOf(file, spec));
      else problems.push(`${path.relative(root, file)} imports "${spec}", which a consumer of the package does not have`);
    }
  }
  let removed = 0;
  for (const entry of await readdir(types, { recursive: true })) {
    const file = path.join(types, String(entry));
    if (file.endsWith('.d.ts') && !reached.has(file)) {
      await rm(file);
      removed++;
    }
  }
  // Empty folders left by the pruning.
  for (const entry of (await readdir(types, { recursive: true, withFileTypes: true })).filter((d) => d.isDirectory()).reverse()) {
    const dir = path.join(entry.parentPath, entry.name);
    if ((await readdir(dir)).length === 0) await rm(dir, { recursive: true });
  }
  if (problems.length) throw new Error(`the package's declarations are not self-contained:\n  ${problems.join('\n  ')}`);
  return { kept: reached.size, removed };
}
