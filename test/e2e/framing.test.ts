/**
 * Who may frame what, against the real Worker and its static assets (`wrangler dev`): every page
 * but /embed says nobody (`frame-ancestors 'none'`, `X-Frame-Options: DENY`), whether the Worker
 * or dist/_headers answers it; /embed says the origins of EMBED_ORIGINS; the widget's loader and
 * chunks stay loadable from other origins.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';

const ENDPOINT = process.env.PB_ENDPOINT ?? 'http://127.0.0.1:8787';

async function head(path: string, headers: Record<string, string> = {}): Promise<Response> {
  const res = await fetch(`${ENDPOINT}${path}`, { headers, redirect: 'manual' });
  await res.arrayBuffer();
  return res;
}

function assertUnframeable(res: Response, path: string): void {
  assert.equal(res.headers.get('X-Frame-Options'), 'DENY', `${path}: X-Frame-Options`);
  assert.match(res.headers.get('Content-Security-Policy') ?? '', /frame-ancestors 'none'/, `${path}: Content-Security-Policy`);
}

test('the demo page, the verify page and their other names may not be framed', async () => {
  for (const path of ['/', '/index.html', '/verify', '/verify.html']) {
    const res = await head(path);
    // wrangler's assets may answer /index.html and /verify.html with a redirect to the clean URL: that answer says it too.
    assert.ok(res.status === 200 || (res.status >= 300 && res.status < 400), `${path}: ${res.status}`);
    assertUnframeable(res, path);
  }
});

test('unknown paths, the API and a refused /embed query may not be framed', async () => {
  for (const path of ['/no/such/page', '/no-such-page.html', '/.well-known/jwks.json', '/api/sessions/nope', '/embed?room=nowhere']) {
    assertUnframeable(await head(path), path);
  }
});

test('/embed is framable by its allowed origins only, never with X-Frame-Options', async () => {
  const res = await head('/embed?room=hall-1');
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('X-Frame-Options'), null);
  const csp = res.headers.get('Content-Security-Policy') ?? '';
  const ancestors = /frame-ancestors ([^;]*)/.exec(csp)?.[1];
  assert.ok(ancestors !== undefined, csp);
  // Named origins only (wrangler dev runs with DEV = "true": loopback on any port), never everybody.
  assert.ok(!ancestors.split(/\s+/).includes('*'), `frame-ancestors: ${ancestors}`);
  assert.ok(!ancestors.includes("'none'"), `frame-ancestors: ${ancestors}`);
  assert.equal(csp.match(/frame-ancestors/g)?.length, 1, 'one frame-ancestors directive');
});

test('a host page on another origin can still load the loader and its chunks', async () => {
  const loader = await head('/punto-banco-table.js', { Origin: 'https://host.example' });
  assert.equal(loader.status, 200);
  assert.equal(loader.headers.get('Access-Control-Allow-Origin'), '*');
  const source = await (await fetch(`${ENDPOINT}/punto-banco-table.js`)).text();
  const chunk = /\.\/chunks\/[\w.-]+\.js/.exec(source)?.[0];
  assert.ok(chunk, 'the loader names a chunk');
  const res = await head(`/${chunk.slice(2)}`, { Origin: 'https://host.example' });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('Access-Control-Allow-Origin'), '*');
  assert.match(res.headers.get('Cache-Control') ?? '', /immutable/);
});
