/**
 * dist/_headers (scripts/cdn-headers.ts), read the way Cloudflare's static assets read it: a path
 * pattern, then its indented headers; every matching rule applies. The framing headers reach every
 * static asset; the loader and its chunks keep their CORS allowance.
 */
import { expect, test } from 'vitest';
import { cdnHeaders, NO_FRAMING } from '../../scripts/cdn-headers.ts';

/** The rules of a `_headers` text: pattern → headers, in order. */
function parseRules(text: string): Array<{ pattern: string; headers: Record<string, string> }> {
  const rules: Array<{ pattern: string; headers: Record<string, string> }> = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      rules.push({ pattern: line.trim(), headers: {} });
      continue;
    }
    const at = line.indexOf(':');
    expect(at, line).toBeGreaterThan(0);
    rules.at(-1)!.headers[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return rules;
}

/** The headers a path gets: every rule whose pattern matches (`*` matches anything, `/` included). */
function headersFor(text: string, path: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { pattern, headers } of parseRules(text)) {
    const re = new RegExp(
      `^${pattern
        .split('*')
        .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    );
    if (re.test(path)) Object.assign(out, headers);
  }
  return out;
}

const text = cdnHeaders('punto-banco-table.js');

test('every static page and asset: frame-ancestors none and X-Frame-Options DENY', () => {
  expect(NO_FRAMING).toEqual({ 'Content-Security-Policy': "frame-ancestors 'none'", 'X-Frame-Options': 'DENY' });
  for (const path of ['/', '/index.html', '/verify', '/verify.html', '/demo/whatever.html', '/punto-banco-table.js', '/chunks/scene-abc123.js']) {
    expect(headersFor(text, path), path).toMatchObject(NO_FRAMING);
  }
});

test('the loader and its chunks stay loadable cross-origin; chunks and versioned loaders are immutable, the latest loader short-cached', () => {
  expect(headersFor(text, '/punto-banco-table.js')['Access-Control-Allow-Origin']).toBe('*');
  // The latest loader: a deploy reaches every page that does not pin a version within five minutes.
  expect(headersFor(text, '/punto-banco-table.js')['Cache-Control']).toBe('public, max-age=300');
  for (const path of ['/v/0.1.0/punto-banco-table.js', '/v/0.1.0/chunks/scene-abc123.js', '/v/1.2.3-rc.1/integrity.json']) {
    expect(headersFor(text, path), path).toMatchObject({
      'Access-Control-Allow-Origin': '*',
      'Cache-Control': 'public, max-age=31536000, immutable',
      ...NO_FRAMING,
    });
  }
  expect(headersFor(text, '/embed.js')['Cache-Control']).toBe('public, max-age=300');
  expect(headersFor(text, '/chunks/scene-abc123.js')).toMatchObject({
    'Access-Control-Allow-Origin': '*',
    'Cache-Control': 'public, max-age=31536000, immutable',
  });
  expect(headersFor(text, '/custom-elements.json')['Access-Control-Allow-Origin']).toBe('*');
  expect(headersFor(text, '/')['Access-Control-Allow-Origin']).toBeUndefined();
});
