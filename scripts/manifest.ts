/**
 * `npm run manifest` (the last step of `npm run build`): generates dist/custom-elements.json with
 * @custom-elements-manifest/analyzer (custom-elements-manifest.config.js), then checks it against
 * the element's JSDoc: every documented @attr, @event, @csspart and @cssproperty must be in the
 * manifest, with the tag name and the embedding essentials, every event with its detail type, and
 * the module it names must be a file the package ships, or the build fails. From the manifest it
 * then writes the framework and editor types (scripts/host-types.ts).
 */
import { spawnSync } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { reactTypes, svelteTypes, vscodeCustomData, vueTypes, webTypes, type Aliases, type ManifestElement } from './host-types.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = 'widget/element/punto-banco-table.ts';
const TAG = 'punto-banco-table';
/** What an embedder needs whatever else changes (EMBED.md documents each). */
const REQUIRED = {
  attributes: ['endpoint', 'room', 'affiliate', 'lang', 'currency', 'reduced-motion'],
  events: ['pb-ready', 'pb-bet-change', 'pb-round-settled', 'pb-error'],
  cssParts: ['table', 'stage', 'canvas', 'box', 'chip', 'controls', 'button', 'notice'],
  cssProperties: ['--pb-felt', '--pb-gold', '--pb-text', '--pb-font', '--pb-radius'],
  members: ['endpoint', 'room', 'affiliate', 'currency', 'reducedMotion', 'state', 'balance', 'bets', 'sessionId', 'deal', 'placeBet'],
} as const;

type Section = keyof typeof REQUIRED;
interface Named {
  name: string;
}

const cem = path.join(path.dirname(createRequire(import.meta.url).resolve('@custom-elements-manifest/analyzer/package.json')), 'cem.js');
const run = spawnSync(process.execPath, [cem, 'analyze', '--config', 'custom-elements-manifest.config.js', '--quiet'], { cwd: root, stdio: 'inherit' });
if (run.status !== 0) process.exit(run.status ?? 1);

const manifest = JSON.parse(await readFile(path.join(root, 'dist/custom-elements.json'), 'utf8')) as {
  modules: {
    path: string;
    declarations?: (Record<Section, Named[] | undefined> & { tagName?: string; name: string; events?: { name: string; type?: { text: string } }[] })[];
  }[];
};
const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { name: string; version: string; files: string[] };
const element = manifest.modules.flatMap((m) => m.declarations ?? []).find((d) => d.tagName === TAG);
const problems: string[] = [];
if (!element) {
  problems.push(`no declaration with tagName "${TAG}"`);
} else {
  // Everything the JSDoc documents, plus the required minimum.
  const source = await readFile(path.join(root, SOURCE), 'utf8');
  // `@event {CustomEvent<ReadyDetail>} pb-ready - …`: the name follows the optional {type};
  // `@cssproperty [--pb-tie=#1f9d4c] - …`: the name is before the default.
  const documented = (tag: string): string[] =>
    [...source.matchAll(new RegExp(`^\\s*\\*\\s*@${tag}\\s+(?:\\{[^}]*\\}\\s+)?\\[?([^\\s=\\]]+)`, 'gm'))].map((m) => m[1]!);
  const expected: Record<Section, string[]> = {
    attributes: [...REQUIRED.attributes, ...documented('attr')],
    events: [...REQUIRED.events, ...documented('event')],
    cssParts: [...REQUIRED.cssParts, ...documented('csspart')],
    cssProperties: [...REQUIRED.cssProperties, ...documented('cssproperty')],
    members: [...REQUIRED.members],
  };
  for (const [section, names] of Object.entries(expected) as [Section, string[]][]) {
    const have = new Set((element[section] ?? []).map((x) => x.name));
    for (const name of new Set(names)) if (!have.has(name)) problems.push(`${section}: "${name}" is documented but missing from the manifest`);
  }
  for (const event of element.events ?? []) {
    if (!/^CustomEvent<.+>$/.test(event.type?.text ?? ''))
      problems.push(`events: "${event.name}" has no detail type (write @event {CustomEvent<Detail>} ${event.name})`);
  }
  for (const mod of manifest.modules) {
    if (!pkg.files.includes(mod.path)) problems.push(`module "${mod.path}" is not a file the package ships (package.json "files")`);
  }
  const counts = (Object.keys(expected) as Section[]).map((s) => `${(element[s] ?? []).length} ${s}`).join(', ');
  if (problems.length === 0) console.log(`dist/custom-elements.json: <${TAG}> with ${counts}`);
}
if (problems.length) {
  console.error(`dist/custom-elements.json does not match ${SOURCE}:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}

// The framework and editor types, from the manifest just checked.
const aliases = await literalAliases(['shared', 'widget/element']);
const pbElement = element as unknown as ManifestElement;
const outputs: Record<string, string> = {
  'dist/types/react.d.ts': reactTypes(pbElement),
  'dist/types/vue.d.ts': vueTypes(pbElement),
  'dist/types/svelte.d.ts': svelteTypes(pbElement),
  'dist/vscode.html-custom-data.json': `${JSON.stringify(vscodeCustomData(pbElement, aliases), null, 2)}\n`,
  'dist/web-types.json': `${JSON.stringify(webTypes(pbElement, aliases, pkg), null, 2)}\n`,
};
for (const [file, text] of Object.entries(outputs)) await writeFile(path.join(root, file), text);
console.log(`${Object.keys(outputs).join(', ')}: from the manifest`);

/** Every `export type Name = 'a' | 'b' …;` in the .ts files of these folders: the values of attributes typed by name. */
async function literalAliases(dirs: string[]): Promise<Aliases> {
  const found: Record<string, string> = {};
  for (const dir of dirs) {
    for (const file of await readdir(path.join(root, dir))) {
      if (!file.endsWith('.ts')) continue;
      const text = await readFile(path.join(root, dir, file), 'utf8');
      for (const m of text.matchAll(/^export type (\w+) = ('[^']*'(?:\s*\|\s*'[^']*')*);/gm)) found[m[1]!] = m[2]!;
    }
  }
  return found;
}
