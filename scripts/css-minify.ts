/**
 * An esbuild plugin for the widget bundle: minifies the CSS inside Lit's css`…` templates, which
 * esbuild leaves as written (indentation, comments). Conservative: comments go, whitespace runs
 * become one space, and spaces around `{ } ; , :` and before `!` go — in the literal text only,
 * never inside a `${…}` interpolation. Our styles hold no strings where that would matter (the
 * only `content` is '').
 */
import { readFile } from 'node:fs/promises';
import type { Plugin } from 'esbuild';

/** The minified text of one literal part of a css`…` template. */
export function minifyCssText(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/ ?([{};,]) ?/g, '$1')
    .replace(/: /g, ':')
    .replace(/ !/g, '!')
    .replace(/;}/g, '}');
}

/** Every css`…` template in `source`, its literal parts minified, interpolations untouched. */
export function minifyCssTemplates(source: string): string {
  return source.replace(/\bcss`([^`]*)`/g, (_, body: string) => {
    const parts = body.split(/(\$\{[^}]*\})/);
    return `css\`${parts.map((p, i) => (i % 2 === 1 ? p : minifyCssText(p))).join('')}\``;
  });
}

export const cssMinify: Plugin = {
  name: 'css-minify',
  setup(build) {
    build.onLoad({ filter: /[\\/]widget[\\/].*\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      return { contents: source.includes('css`') ? minifyCssTemplates(source) : source, loader: 'ts' };
    });
  },
};
