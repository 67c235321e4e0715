/**
 * `GET /embed`, the table as a page for an iframe (worker/embed/frame.ts), inside workerd, with the
 * test EMBED_ORIGINS of test/worker/vitest.config.ts:
 *   "*": https://casino.example · acme: https://acme.example, https://*.acme-partners.example ·
 *   beta: https://beta.example:8443 · and DEV = "true".
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, test } from 'vitest';
import { escapeHtml, FRAME_STYLE, FRAME_STYLE_HASH, framePage } from '../../worker/embed/frame.ts';
import type { Env } from '../../worker/config/env.ts';
import worker from '../../worker/index.ts';
import { BASE, CLIENT_IP } from './helpers.ts';

const LOOPBACK = 'http://localhost:* http://127.0.0.1:*';
const CASINO = 'https://casino.example';
const ACME = 'https://acme.example https://*.acme-partners.example';

interface Frame {
  status: number;
  text: string;
  headers: Headers;
  /** The CSP's directives by name. */
  csp: Map<string, string>;
}

/** GET /embed?<query> from the Worker, with `vars` over the test env. */
async function frame(query: string, vars: Partial<Env> = {}, method = 'GET'): Promise<Frame> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`${BASE}/embed${query === '' ? '' : `?${query}`}`, { method, headers: { 'CF-Connecting-IP': CLIENT_IP } }),
    { ...env, ...vars },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  const text = await res.text();
  const csp = new Map<string, string>();
  for (const part of (res.headers.get('Content-Security-Policy') ?? '').split(';')) {
    const [name, ...value] = part.trim().split(/\s+/);
    if (name) csp.set(name, value.join(' '));
  }
  return { status: res.status, text, headers: res.headers, csp };
}

/** The one `<punto-banco-table …>` start tag of the page. */
function tableTag(html: string): string {
  const tags = html.match(/<punto-banco-table[^>]*>/g) ?? [];
  expect(tags).toHaveLength(1);
  return tags[0]!;
}

async function sha256Base64(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return btoa(String.fromCharCode(...digest));
}

describe('the page', () => {
  test('one table with the query as its attributes, the loader from the Worker, nothing inline to run', async () => {
    const f = await frame('affiliate=ACME&room=vip&lang=IT&currency=usd');
    expect(f.status).toBe(200);
    expect(f.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
    // Lower-cased affiliate and lang, upper-cased currency: the forms the element and the API use.
    expect(tableTag(f.text)).toBe('<punto-banco-table room="vip" lang="it" affiliate="acme" currency="USD">');
    expect(f.text).toMatch(/^<!doctype html>\n<html lang="it">/);
    // The only scripts are the loader and the frame's messenger to its parent, same origin; no
    // endpoint: the table talks to the Worker that served it.
    expect(f.text.match(/<script\b[^>]*>/g)).toEqual(['<script type="module" src="/punto-banco-table.js">', '<script type="module" src="/embed-frame.js">']);
    expect(f.text).toContain('<script type="module" src="/punto-banco-table.js"></script>');
    expect(f.text).toContain('<script type="module" src="/embed-frame.js"></script>');
    expect(f.text).not.toMatch(/endpoint=|\son[a-z]+=|javascript:|\sstyle=/i);
    expect(f.text.match(/<style>/g)).toHaveLength(1);
  });

  test('every parameter optional: absent or empty ones are left to the element', async () => {
    for (const query of ['', 'room=&affiliate=&lang=&currency=']) {
      const f = await frame(query);
      expect(f.status, query).toBe(200);
      expect(tableTag(f.text)).toBe('<punto-banco-table>');
      expect(f.text).toContain('<html lang="en">');
    }
    expect(tableTag((await frame('room=hall-2')).text)).toBe('<punto-banco-table room="hall-2">');
    expect(tableTag((await frame('lang=el&currency=GBP')).text)).toBe('<punto-banco-table lang="el" currency="GBP">');
    expect(tableTag((await frame('mode=reshuffle&speed=fast')).text)).toBe('<punto-banco-table mode="reshuffle" speed="fast">');
    expect(tableTag((await frame('squeeze=on&room=vip')).text)).toBe('<punto-banco-table room="vip" squeeze="on">');
    expect(tableTag((await frame('table=vip/high.reshuffle.fast')).text)).toBe('<punto-banco-table table="vip/high.reshuffle.fast">');
  });

  test('headers: no caching, no sniffing, no referrer, and no CORS allowance', async () => {
    const f = await frame('affiliate=acme');
    expect(f.headers.get('Cache-Control')).toBe('no-store');
    expect(f.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(f.headers.get('Referrer-Policy')).toBe('no-referrer');
    expect(f.headers.get('Access-Control-Allow-Origin')).toBeNull();
  });

  test('values are escaped on the way into HTML (should validation ever let one through)', () => {
    expect(escapeHtml(`"><script>alert('x')</script>&`)).toBe('&#34;&#62;&#60;script&#62;alert(&#39;x&#39;)&#60;/script&#62;&#38;');
    const html = framePage({ affiliate: '"><script>alert(1)</script>', lang: 'en" onload="x' } as never);
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('" onload');
    expect(tableTag(html)).toBe('<punto-banco-table lang="en&#34; onload=&#34;x" affiliate="&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;">');
  });
});

describe('the Content-Security-Policy', () => {
  test('scripts, styles, images and calls only from the Worker; the inline style by its hash', async () => {
    const f = await frame('affiliate=acme');
    expect(f.csp.get('default-src')).toBe("'self'");
    expect(f.csp.get('script-src')).toBe("'self'");
    expect(f.csp.get('style-src')).toBe(`'self' ${FRAME_STYLE_HASH}`);
    expect(f.csp.get('img-src')).toBe("'self' data: blob:");
    expect(f.csp.get('connect-src')).toBe("'self'");
    expect(f.csp.get('base-uri')).toBe("'none'");
    expect(f.csp.get('form-action')).toBe("'none'");
    expect(f.text).not.toContain('unsafe-');
    expect(f.headers.get('Content-Security-Policy')).not.toMatch(/unsafe-/);
  });

  test('the hash is that of the <style> the page really carries', async () => {
    const f = await frame('room=hall-1');
    const style = /<style>([^<]*)<\/style>/.exec(f.text)![1]!;
    expect(style).toBe(FRAME_STYLE);
    expect(f.csp.get('style-src')).toBe(`'self' 'sha256-${await sha256Base64(style)}'`);
  });

  test('frame-ancestors: the affiliate\'s own origins plus the "*" ones, and loopback in DEV', async () => {
    expect((await frame('affiliate=acme')).csp.get('frame-ancestors')).toBe(`${LOOPBACK} ${CASINO} ${ACME}`);
    expect((await frame('affiliate=beta')).csp.get('frame-ancestors')).toBe(`${LOOPBACK} ${CASINO} https://beta.example:8443`);
    // An affiliate nobody configured, or none: only the operator's own sites.
    expect((await frame('affiliate=zeta')).csp.get('frame-ancestors')).toBe(`${LOOPBACK} ${CASINO}`);
    expect((await frame('')).csp.get('frame-ancestors')).toBe(`${LOOPBACK} ${CASINO}`);
  });

  test("not DEV: no loopback; nothing allowed is 'none'", async () => {
    const prod = { DEV: 'false', ALLOWED_ORIGINS: '' };
    expect((await frame('affiliate=acme', prod)).csp.get('frame-ancestors')).toBe(`${CASINO} ${ACME}`);
    expect((await frame('affiliate=acme', { ...prod, EMBED_ORIGINS: '{ "*": [], "acme": ["https://acme.example"] }' })).csp.get('frame-ancestors')).toBe(
      'https://acme.example',
    );
    const nothingAllowed: Array<[string, string]> = [
      ['', '{ "*": [] }'],
      ['affiliate=beta', '{ "*": [], "acme": ["https://acme.example"] }'],
      ['affiliate=acme', '{ "acme": ['], // malformed: fails closed
      ['affiliate=acme', ''],
    ];
    for (const [query, origins] of nothingAllowed) {
      const f = await frame(query, { ...prod, EMBED_ORIGINS: origins });
      expect(f.status).toBe(200);
      expect(f.csp.get('frame-ancestors'), `${query} ${origins}`).toBe("'none'");
    }
    // DEV alone still lets a local page frame the table.
    expect((await frame('', { DEV: 'true', EMBED_ORIGINS: '{ "*": [] }' })).csp.get('frame-ancestors')).toBe(LOOPBACK);
  });

  test('origins in the CSP\'s form: normalised, ports kept, ALLOWED_ORIGINS counted as "*", IPv6 literals left out', async () => {
    const f = await frame('affiliate=acme', {
      DEV: 'false',
      ALLOWED_ORIGINS: 'https://legacy.example/',
      EMBED_ORIGINS: JSON.stringify({ '*': ['HTTPS://Own.Example:443'], ACME: ['http://acme.test:8080', 'https://*.Acme.Example:8443', 'http://[::1]:3000'] }),
    });
    expect(f.csp.get('frame-ancestors')).toBe('https://legacy.example https://own.example http://acme.test:8080 https://*.acme.example:8443');
  });
});

describe('bad requests', () => {
  test('an unknown room, language or currency, a bad affiliate id, an unknown or repeated parameter: 400 bad_query as JSON', async () => {
    const cases: Array<[string, RegExp]> = [
      ['room=hall-3', /^room: room must be "hall-1", "hall-2" or "vip"$/],
      ['affiliate=-acme', /^affiliate: affiliate must be 1–40/],
      ['affiliate=ac%20me', /^affiliate: affiliate must be 1–40/],
      [`affiliate=${'a'.repeat(41)}`, /^affiliate: affiliate must be 1–40/],
      [`affiliate=${encodeURIComponent('"><script>alert(1)</script>')}`, /^affiliate: affiliate must be 1–40/],
      ['lang=de', /^lang: lang must be "en", "ru", "it", "el"$/],
      ['lang=en-GB', /^lang: /],
      ['currency=EURO', /^currency: currency must be a three-letter ISO 4217 code/],
      ['currency=%E2%82%AC%E2%82%AC%E2%82%AC', /^currency: /],
      ['mode=baccarat', /^mode: mode must be /],
      ['speed=slow', /^speed: speed must be "normal" or "fast"$/],
      ['squeeze=true', /^squeeze: squeeze must be "on" \(absent: off\)$/],
      ['table=hall-9/a', /^table: a table id is <room>\/<name>/],
      ['table=hall-1/A', /^table: a table id is /],
      ['table=hall-1/a.fast.reshuffle', /^table: a table id is /],
      ['table=hall-1', /^table: a table id is /],
      ['endpoint=https://evil.example', /^unknown parameter "endpoint"$/],
      ['__proto__=x', /^unknown parameter "__proto__"$/],
      ['room=vip&room=hall-1', /^"room" is given more than once$/],
      ['affiliate=acme&affiliate=', /^"affiliate" is given more than once$/],
    ];
    for (const [query, message] of cases) {
      const f = await frame(query);
      expect(f.status, query).toBe(400);
      expect(f.headers.get('Content-Type')).toMatch(/^application\/json/);
      expect(f.headers.get('Cache-Control')).toBe('no-store');
      // A refusal is no frame: nobody may frame it.
      expect(f.headers.get('Content-Security-Policy')).toBe("frame-ancestors 'none'");
      expect(f.headers.get('X-Frame-Options')).toBe('DENY');
      const body = JSON.parse(f.text);
      expect(Object.keys(body)).toEqual(['error']);
      expect(body.error.code, query).toBe('bad_query');
      expect(body.error.message, query).toMatch(message);
    }
  });

  test('other methods: 405 with Allow: GET', async () => {
    const f = await frame('', {}, 'POST');
    expect(f.status).toBe(405);
    expect(f.headers.get('Allow')).toBe('GET');
    expect(JSON.parse(f.text).error.code).toBe('method_not_allowed');
  });
});
