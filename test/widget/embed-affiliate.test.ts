/**
 * Affiliates: the `affiliate` attribute travels with the new session; a page whose origin the
 * Worker refuses (its 403 carries no CORS headers, so the browser reports a network failure) gets
 * the Worker's own message from the embed check, not a generic "unreachable".
 */
import { expect } from 'chai';
import type { PuntoBancoTable } from '../../widget/element/punto-banco-table.ts';
import { FakeWorker, mountTable, shadow, unmountAll, until } from './helpers.ts';

const REFUSAL = 'This table may not be embedded on http://127.0.0.2:8080: ask the operator to allow it for affiliate "acme".';

interface Seen {
  url: string;
  init: RequestInit;
}

/**
 * A transport that behaves like a browser on a refused origin: every API call fails as a network
 * error, and only the embed check (public to every origin) answers, with `check`.
 */
function refusingFetch(seen: Seen[], check: () => Promise<Response>): (input: string, init: RequestInit) => Promise<Response> {
  return async (input, init) => {
    seen.push({ url: input, init });
    if (new URL(input).pathname.endsWith('/api/embed-check')) return check();
    throw new TypeError('Failed to fetch');
  };
}

const refusal = (): Promise<Response> =>
  Promise.resolve(
    new Response(JSON.stringify({ error: { code: 'origin_not_allowed', message: REFUSAL, origin: 'http://127.0.0.2:8080', affiliate: 'acme' } }), {
      status: 403,
      headers: { 'content-type': 'application/json' },
    }),
  );

function notice(el: Element): string {
  return shadow(el).querySelector('[part="notice"]')?.firstElementChild?.textContent?.trim() ?? '';
}

async function failedMount(
  attrs: Record<string, string>,
  fetcher: (input: string, init: RequestInit) => Promise<Response>,
): Promise<{ el: PuntoBancoTable; events: CustomEvent[] }> {
  const { el, events } = await mountTable({ attrs, ready: false, setup: (t) => (t.fetcher = fetcher) });
  await until(() => el.state === 'error' && notice(el) !== '', 'the error notice', 10_000);
  return { el, events };
}

describe('<punto-banco-table> affiliates and refused origins', () => {
  afterEach(unmountAll);

  it('sends the affiliate attribute with the new session, and a new session when it changes', async () => {
    const worker = new FakeWorker();
    const { el } = await mountTable({ worker, attrs: { affiliate: 'acme' } });
    expect(el.affiliate).to.equal('acme');
    expect(worker.requests('sessions').map(({ body }) => ({ ...(body as object), playerKey: undefined }))).to.deep.equal([
      { room: 'hall-1', affiliate: 'acme', playerKey: undefined },
    ]);
    const reopened = new Promise((resolve) => el.addEventListener('pb-ready', resolve, { once: true }));
    el.setAttribute('affiliate', 'partner-7');
    await reopened;
    expect(worker.requests('sessions').map(({ body }) => ({ ...(body as object), playerKey: undefined }))).to.deep.equal([
      { room: 'hall-1', affiliate: 'acme', playerKey: undefined },
      { room: 'hall-1', affiliate: 'partner-7', playerKey: undefined },
    ]);
  });

  it('without the attribute no affiliate is sent', async () => {
    const worker = new FakeWorker();
    await mountTable({ worker });
    expect(worker.requests('sessions').map(({ body }) => ({ ...(body as object), playerKey: undefined }))).to.deep.equal([
      { room: 'hall-1', playerKey: undefined },
    ]);
  });

  it('a refused origin: the embed check is asked, and its message is shown and emitted as origin_not_allowed', async () => {
    const seen: Seen[] = [];
    const { el, events } = await failedMount({ affiliate: 'acme', endpoint: 'https://tables.example/' }, refusingFetch(seen, refusal));
    expect(notice(el)).to.equal(REFUSAL);
    // Pressing Retry could not change the operator's list: none is offered.
    expect(shadow(el).querySelector('[part="notice"] .retry')).to.equal(null);
    const errors = events.filter((e) => e.type === 'pb-error');
    expect(errors.map((e) => e.detail)).to.deep.equal([{ code: 'origin_not_allowed', message: REFUSAL }]);
    // The check is a CORS simple request: a plain GET with no headers of ours, so no preflight.
    const check = seen.filter((s) => s.url.includes('embed-check'));
    expect(check.map((s) => s.url)).to.deep.equal(['https://tables.example/api/embed-check?affiliate=acme']);
    expect(check[0]!.init.method).to.equal('GET');
    expect(check[0]!.init.headers).to.equal(undefined);
    expect(check[0]!.init.body).to.equal(undefined);
    // It came after the failed session creation, which went to the same Worker.
    expect(seen[0]!.url).to.equal('https://tables.example/api/sessions');
  });

  it('a session without an affiliate asks the check without one', async () => {
    const seen: Seen[] = [];
    await failedMount({ endpoint: 'https://tables.example/base' }, refusingFetch(seen, refusal));
    expect(seen.filter((s) => s.url.includes('embed-check')).map((s) => s.url)).to.deep.equal(['https://tables.example/base/api/embed-check']);
  });

  it('a Worker that is really down (the check fails too) stays "cannot be reached"', async () => {
    const seen: Seen[] = [];
    const { el, events } = await failedMount(
      { affiliate: 'acme' },
      refusingFetch(seen, () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    expect(notice(el)).to.equal('The table server cannot be reached. Your bets are kept: try again.');
    expect(shadow(el).querySelector('[part="notice"] .retry')).to.not.equal(null);
    expect(events.filter((e) => e.type === 'pb-error').map((e) => e.detail.code)).to.deep.equal(['unreachable']);
  });

  it('an allowed origin (the check says allowed) keeps the network error', async () => {
    const seen: Seen[] = [];
    const allowed = (): Promise<Response> => Promise.resolve(new Response(JSON.stringify({ allowed: true, origin: null, affiliate: 'acme' }), { status: 200 }));
    const { events } = await failedMount({ affiliate: 'acme' }, refusingFetch(seen, allowed));
    expect(events.filter((e) => e.type === 'pb-error').map((e) => e.detail.code)).to.deep.equal(['unreachable']);
  });

  it('a server error (5xx) is not a refusal: no embed check', async () => {
    const worker = new FakeWorker();
    worker.faults.push({ route: 'sessions', times: 1, kind: 503, code: 'unavailable' });
    const { el } = await mountTable({ worker, ready: false, attrs: { affiliate: 'acme' } });
    await until(() => el.state === 'error', 'the error');
    expect(worker.log.some((r) => r.path.includes('embed-check'))).to.equal(false);
  });
});
