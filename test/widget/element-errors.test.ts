/** The error state: the Worker unreachable, a limit refused by the Worker, an expired session — bets kept, Retry with the same key. */
import { expect } from 'chai';
import { FakeWorker, mountTable, shadow, unmountAll, until } from './helpers.ts';

function retryButton(el: Element): HTMLButtonElement {
  const b = shadow(el).querySelector<HTMLButtonElement>('[part~="retry"]');
  if (!b) throw new Error('no Retry button');
  return b;
}

function notice(el: Element): string {
  return shadow(el).querySelector('[part="notice"]')?.firstElementChild?.textContent?.trim() ?? '';
}

describe('<punto-banco-table> errors and retry', () => {
  afterEach(unmountAll);

  it('Worker unreachable during a deal: error state, bets kept, Retry resends the same Idempotency-Key', async () => {
    const worker = new FakeWorker();
    const { el, events } = await mountTable({ worker });
    el.placeBet(1, 'player');
    el.placeBet(1, 'banker');
    worker.faults.push({ route: 'rounds', times: 2, kind: 'network' });
    await el.deal();
    expect(el.state).to.equal('error');
    expect(el.bets).to.have.length(2);
    expect(notice(el)).to.equal('The table server cannot be reached. Your bets are kept: try again.');
    expect(shadow(el).querySelector('[part="notice"]')!.getAttribute('role')).to.equal('alert');
    expect(events.at(-1)!.type).to.equal('pb-error');
    expect(events.at(-1)!.detail.code).to.equal('unreachable');
    retryButton(el).click(); // fails again (second fault)
    await until(() => el.state === 'error' && worker.requests('rounds').length === 2, 'the second failure');
    retryButton(el).click();
    await until(() => el.state === 'settled', 'settled after retry');
    const keys = worker.requests('rounds').map((r) => r.headers['idempotency-key']);
    expect(keys).to.have.length(3);
    expect(new Set(keys).size).to.equal(1);
    // The same signed bet request (its lock too) each time.
    const bodies = worker.requests('rounds').map((r) => JSON.stringify(r.body));
    expect(new Set(bodies).size).to.equal(1);
    expect((worker.requests('rounds')[0]!.body as { request: { body: { bets: unknown } } }).request.body.bets).to.deep.equal([
      { sector: 1, box: 'player', amount: 100 },
      { sector: 1, box: 'banker', amount: 100 },
    ]);
    // A new round gets a new key.
    el.repeat();
    await el.deal();
    await until(() => el.state === 'settled', 'settled');
    expect(worker.requests('rounds').at(-1)!.headers['idempotency-key']).to.not.equal(keys[0]);
  });

  /** A table whose every request is answered by a web server that is not the Worker; its first `pb-error`. */
  async function atWrongEndpoint(page: Response, attrs: Record<string, string>): Promise<{ el: HTMLElement; error: CustomEvent }> {
    const { el, events } = await mountTable({ ready: false, attrs, setup: (table) => (table.fetcher = async () => page.clone()) });
    await until(() => el.state === 'error', 'the error state');
    const error = events.find((e) => e.type === 'pb-error')!;
    expect(error.detail.code).to.equal('wrong_endpoint');
    expect(notice(el)).to.not.contain('http_');
    return { el, error };
  }

  it('a page with no table server at its endpoint says so in words, naming the endpoint (not http_404)', async () => {
    // What a page gets when `endpoint` is missing (the page's own origin) or wrong: its web server's 404 page.
    const notFound = new Response('<!doctype html><title>Not found</title>', { status: 404, headers: { 'content-type': 'text/html' } });
    const { el, error } = await atWrongEndpoint(notFound, { endpoint: 'https://shop.example/casino' });
    expect(error.detail.message).to.equal(
      'No table server answers at https://shop.example/casino/: the endpoint this page gives the table is missing or wrong.',
    );
    expect(notice(el)).to.equal(error.detail.message);
  });

  it('a wrong endpoint whose server answers 200 with a page (a single-page app fallback) is a wrong endpoint too, in the page language', async () => {
    const app = new Response('<!doctype html><div id="app"></div>', { status: 200, headers: { 'content-type': 'text/html' } });
    const { el } = await atWrongEndpoint(app, { lang: 'ru' });
    expect(notice(el)).to.contain(`По адресу ${new URL('/', document.baseURI).href} нет сервера стола`);
  });

  it('a lost answer is recovered by the retry: the Worker answers the first result, no second round', async () => {
    const worker = new FakeWorker();
    const { el, events } = await mountTable({ worker });
    el.placeBet(0, 'banker');
    // The Worker deals, but the answer never arrives.
    const real = worker.fetch;
    let drop = true;
    el.fetcher = async (input, init) => {
      const answer = await real(input, init);
      if (drop && input.endsWith('/rounds')) {
        drop = false;
        throw new TypeError('connection reset');
      }
      return answer;
    };
    await el.deal();
    expect(el.state).to.equal('error');
    retryButton(el).click();
    await until(() => el.state === 'settled', 'settled');
    const settled = events.filter((e) => e.type === 'pb-round-settled');
    expect(settled).to.have.length(1);
    expect(settled[0]!.detail.body.round).to.equal(1);
    expect(el.balance).to.equal(settled[0]!.detail.body.balanceAfter);
  });

  it('retries transient failures automatically with the same key before showing an error', async () => {
    const worker = new FakeWorker();
    const { el } = await mountTable({ worker });
    el.autoRetries = 2;
    el.placeBet(0, 'player');
    worker.faults.push({ route: 'rounds', times: 2, kind: 503 });
    await el.deal();
    expect(el.state).to.equal('settled');
    const keys = worker.requests('rounds').map((r) => r.headers['idempotency-key']);
    expect(keys).to.have.length(3);
    expect(new Set(keys).size).to.equal(1);
  });

  it('a limit the Worker refuses (422) shows its reason and keeps the bets', async () => {
    const worker = new FakeWorker();
    const { el, events } = await mountTable({ worker });
    el.placeBet(0, 'player');
    worker.faults.push({ route: 'rounds', times: 1, kind: 422, code: 'fourth_sector' });
    await el.deal();
    expect(el.state).to.equal('error');
    expect(events.at(-1)!.detail.code).to.equal('fourth_sector');
    expect(notice(el)).to.match(/at most 3 sectors/);
    expect(el.bets).to.deep.equal([{ sector: 0, box: 'player', amount: 100 }]);
    // Changing the bets dismisses the error: a new attempt gets a new key.
    el.placeBet(0, 'player');
    expect(el.state).to.equal('ready');
    await el.deal();
    expect(el.state).to.equal('settled');
    const keys = worker.requests('rounds').map((r) => r.headers['idempotency-key']);
    expect(keys[0]).to.not.equal(keys[1]);
  });

  it('session expired: Retry opens a new session, starts its shoe and plays the kept bets', async () => {
    const worker = new FakeWorker();
    const { el } = await mountTable({ worker });
    el.placeBet(2, 'tie');
    await el.deal();
    expect(el.state).to.equal('settled');
    el.repeat();
    worker.expireSessions();
    await el.deal();
    expect(el.state).to.equal('error');
    expect(notice(el)).to.equal('Your table session has expired. Retry to open a new one; your bets are kept.');
    expect(el.bets).to.deep.equal([{ sector: 2, box: 'tie', amount: 100 }]);
    const key = worker.requests('rounds').at(-1)!.headers['idempotency-key'];
    retryButton(el).click();
    await until(() => el.state === 'settled', 'settled in the new session');
    expect(el.sessionId).to.equal('s2');
    expect(worker.requests('sessions')).to.have.length(2);
    expect(worker.requests('start')).to.have.length(2);
    expect(worker.requests('rounds').at(-1)!.headers['idempotency-key']).to.equal(key);
    expect(worker.requests('rounds').at(-1)!.path).to.equal('/api/sessions/s2/rounds');
  });

  it('cannot open a session: error with Retry (same key), then ready', async () => {
    const worker = new FakeWorker();
    worker.faults.push({ route: 'sessions', times: 1, kind: 'network' });
    const { el } = await mountTable({ worker, ready: false });
    await until(() => el.state === 'error', 'the error');
    expect(shadow(el).querySelector('.loader')).to.equal(null);
    const ready = new Promise((r) => el.addEventListener('pb-ready', r, { once: true }));
    retryButton(el).click();
    await ready;
    expect(el.state).to.equal('ready');
    const keys = worker.requests('sessions').map((r) => r.headers['idempotency-key']);
    expect(keys).to.have.length(2);
    expect(keys[0]).to.equal(keys[1]);
  });

  it('a failed shoe start is retried with its own same key, then the round goes', async () => {
    const worker = new FakeWorker();
    const { el } = await mountTable({ worker });
    el.placeBet(0, 'player');
    worker.faults.push({ route: 'start', times: 1, kind: 'network' });
    await el.deal();
    expect(el.state).to.equal('error');
    expect(worker.requests('rounds')).to.have.length(0);
    retryButton(el).click();
    await until(() => el.state === 'settled', 'settled');
    const starts = worker.requests('start');
    expect(starts).to.have.length(2);
    expect(starts[0]!.headers['idempotency-key']).to.equal(starts[1]!.headers['idempotency-key']);
    expect(starts[0]!.body).to.deep.equal(starts[1]!.body);
  });
});
