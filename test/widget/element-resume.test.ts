/**
 * A table resumes its session after a page reload: the session id and token kept in the tab's
 * sessionStorage (per endpoint, room and affiliate), the state and the current shoe's receipts
 * asked of the Worker. A remount in the same page stands in for the reload.
 */
import { expect } from 'chai';
import { FakeWorker, mountTable, playRounds, shadow, unmountAll, until, type Mounted } from './helpers.ts';
import type { PuntoBancoTable } from '../../widget/element/punto-banco-table.ts';
import type { PbHistory, PbScoreboard } from '../../widget/panels/index.ts';
import { SessionStore, storageKey } from '../../widget/session/session-store.ts';

/** The key the tables of these tests use (endpoint `/` resolved against the test page). */
function keyOf(room = 'hall-1', affiliate: string | null = null): string {
  return storageKey(new URL('/', document.baseURI).href, room, affiliate);
}

function stored(room = 'hall-1'): { sessionId: string; token: string } | null {
  const raw = sessionStorage.getItem(keyOf(room));
  return raw ? JSON.parse(raw) : null;
}

async function openPanel<T extends Element>(el: PuntoBancoTable, name: string, tag: string): Promise<T> {
  const launcher = shadow(el).querySelector<HTMLButtonElement>(`.drawer-bar .launcher[data-panel="${name}"]`)!;
  if (launcher.getAttribute('aria-pressed') !== 'true') launcher.click();
  await until(() => shadow(el).querySelector(`${tag}:not([hidden])`), `<${tag}> in the pane`, 10_000);
  const found = shadow(el).querySelector(`${tag}:not([hidden])`) as T & { updateComplete?: Promise<unknown> };
  await found.updateComplete;
  return found;
}

/** The shoe the fake scene was last told about. */
function lastShoe(m: Mounted): unknown {
  return m.scene!.called('setShoe').at(-1)?.[0];
}

describe('<punto-banco-table> resumes its session after a reload', () => {
  beforeEach(() => sessionStorage.clear());
  afterEach(() => {
    unmountAll();
    sessionStorage.clear();
  });

  it('comes back with the same session, balance, shoe, scoreboard and history, without creating a session', async () => {
    const worker = new FakeWorker();
    const first = await mountTable({ worker });
    const receipts = await playRounds(first.el, 3);
    const id = first.el.sessionId!;
    expect(stored()).to.deep.include({ sessionId: id, token: `t-${id}` });
    expect(Object.keys(stored()!)).to.deep.equal(['sessionId', 'token', 'player']); // the player's key goes with it
    const shoeBefore = lastShoe(first);
    unmountAll(); // the page goes away…

    const second = await mountTable({ worker }); // …and comes back
    const el = second.el;
    expect(el.sessionId).to.equal(id);
    expect(el.balance).to.equal(receipts.at(-1)!.body.balanceAfter);
    expect(el.limits).to.deep.equal(first.el.limits);
    expect(worker.requests('sessions').filter((r) => r.method === 'POST')).to.have.length(1);
    expect(worker.log.filter((r) => r.method === 'GET' && r.path === `/api/sessions/${id}`)).to.have.length(1);
    expect(worker.requests('transcript')).to.have.length(1);
    // The shoe and discard counts as before the reload.
    await until(() => JSON.stringify(lastShoe(second)) === JSON.stringify(shoeBefore), 'the shoe as before');
    expect((shoeBefore as { discarded: number }).discarded).to.be.greaterThan(0);
    // A clean felt, and the table takes bets again.
    expect(el.state).to.equal('ready');
    expect(second.scene!.called('playRound')).to.have.length(0);

    const board = await openPanel<PbScoreboard>(el, 'scoreboard', 'pb-scoreboard');
    expect(board.results.map((r) => r.outcome)).to.deep.equal(receipts.map((r) => r.body.outcome));
    const history = await openPanel<PbHistory>(el, 'history', 'pb-history');
    expect(history.rounds.map((r) => r.record.hash)).to.deep.equal(receipts.map((r) => r.hash));
    await until(() => history.shadowRoot!.querySelectorAll('li.round').length === 3, 'three rows in the history');

    // The next round continues the same shoe, chained to the last receipt.
    const [fourth] = await playRounds(el, 1);
    expect(fourth!.body.round).to.equal(4);
    // Round 4's acceptance follows the last receipt; its receipt follows the acceptance.
    const records = worker.transcript(id)!.records;
    const acceptance = records.find((r) => r.hash === fourth!.body.prev)!;
    expect(acceptance.body.type).to.equal('acceptance');
    expect(acceptance.body.prev).to.equal(receipts.at(-1)!.hash);
    // The same player key signs after the reload: the Worker checked it against the commitment.
    expect((acceptance.body as { request: { body: { round: number } } }).request.body.round).to.equal(4);
    expect(worker.requests('start')).to.have.length(1);
    await until(() => history.rounds.length === 4, 'the fourth round in the history');
  });

  it("opens a new session for another room, and keeps each room's session apart", async () => {
    const worker = new FakeWorker();
    const hall1 = await mountTable({ worker });
    await playRounds(hall1.el, 1);
    unmountAll();
    const hall2 = await mountTable({ worker, attrs: { room: 'hall-2' } });
    expect(hall2.el.sessionId).to.not.equal(hall1.el.sessionId);
    expect(worker.requests('sessions')).to.have.length(2);
    expect(stored('hall-2')?.sessionId).to.equal(hall2.el.sessionId);
    expect(stored('hall-1')?.sessionId).to.equal(hall1.el.sessionId);
    unmountAll();
    const again = await mountTable({ worker });
    expect(again.el.sessionId).to.equal(hall1.el.sessionId);
    expect(worker.requests('sessions')).to.have.length(2);
  });

  it('forgets a session the Worker no longer knows (404) and stores the new one', async () => {
    const worker = new FakeWorker();
    const first = await mountTable({ worker });
    await playRounds(first.el, 1);
    unmountAll();
    worker.expireSessions(); // the Worker lost it
    const log = worker.log.length;
    const { el, events } = await mountTable({ worker });
    expect(worker.log[log]).to.include({ method: 'GET', path: `/api/sessions/${first.el.sessionId}` });
    expect(worker.requests('sessions')).to.have.length(2);
    expect(el.sessionId).to.not.equal(first.el.sessionId);
    expect(el.balance).to.equal(worker.startBalance);
    expect(stored()).to.deep.include({ sessionId: el.sessionId, token: `t-${el.sessionId}` });
    expect(events.filter((e) => e.type === 'pb-error')).to.have.length(0);
  });

  it('forgets a token the Worker refuses (401) and stores the new session', async () => {
    const worker = new FakeWorker();
    const first = await mountTable({ worker });
    unmountAll();
    sessionStorage.setItem(keyOf(), JSON.stringify({ sessionId: first.el.sessionId, token: 'stolen-or-stale' }));
    const { el } = await mountTable({ worker });
    expect(el.sessionId).to.not.equal(first.el.sessionId);
    expect(worker.requests('sessions')).to.have.length(2);
    expect(stored()?.sessionId).to.equal(el.sessionId);
  });

  it('shows the error with Retry when the Worker cannot be reached, and resumes on Retry', async () => {
    const worker = new FakeWorker();
    const first = await mountTable({ worker });
    await playRounds(first.el, 1);
    unmountAll();
    worker.faults.push({ route: 'session', times: 1, kind: 'network' });
    const { el } = await mountTable({ worker, ready: false });
    await until(() => el.state === 'error', 'the error');
    expect(stored()?.sessionId).to.equal(first.el.sessionId); // kept: the network is not the session's fault
    await el.retry();
    await until(() => el.state === 'ready', 'the table after Retry');
    expect(el.sessionId).to.equal(first.el.sessionId);
    expect(el.balance).to.equal(first.el.balance);
    expect(worker.requests('sessions')).to.have.length(1);
  });

  it('two tables of one page with the same room do not share the stored session', async () => {
    const worker = new FakeWorker();
    const first = await mountTable({ worker });
    unmountAll();
    const [a, b] = await Promise.all([mountTable({ worker }), mountTable({ worker })]);
    const ids = [a.el.sessionId, b.el.sessionId];
    expect(ids).to.include(first.el.sessionId);
    expect(ids[0]).to.not.equal(ids[1]);
    expect(stored()?.sessionId).to.equal(first.el.sessionId);
  });

  it('resume="off" always opens a new session and never touches storage', async () => {
    const worker = new FakeWorker();
    const first = await mountTable({ worker, attrs: { resume: 'off' } });
    expect(sessionStorage.length).to.equal(0);
    unmountAll();
    const planted = JSON.stringify({ sessionId: first.el.sessionId, token: `t-${first.el.sessionId}` });
    sessionStorage.setItem(keyOf(), planted);
    const { el } = await mountTable({ worker, attrs: { resume: 'off' } });
    expect(el.sessionId).to.not.equal(first.el.sessionId);
    expect(worker.log.filter((r) => r.method === 'GET' && r.path.startsWith('/api/sessions/'))).to.have.length(0);
    expect(sessionStorage.getItem(keyOf())).to.equal(planted);
    expect(sessionStorage.length).to.equal(1);
  });

  it('works as before when storage throws', async () => {
    const proto = Storage.prototype;
    const saved = { getItem: proto.getItem, setItem: proto.setItem, removeItem: proto.removeItem };
    const boom = () => {
      throw new DOMException('denied', 'SecurityError');
    };
    proto.getItem = boom;
    proto.setItem = boom;
    proto.removeItem = boom;
    try {
      const worker = new FakeWorker();
      const first = await mountTable({ worker });
      await playRounds(first.el, 1);
      unmountAll();
      const { el, events } = await mountTable({ worker });
      expect(el.sessionId).to.not.equal(first.el.sessionId);
      expect(worker.requests('sessions')).to.have.length(2);
      expect(events.filter((e) => e.type === 'pb-error')).to.have.length(0);
      await playRounds(el, 1);
    } finally {
      Object.assign(proto, saved);
    }
    expect(sessionStorage.length).to.equal(0);
  });

  it('the store keeps only the id, the token and the player key, and ignores what it cannot read', () => {
    const memory = new Map<string, string>();
    const storage = {
      getItem: (k: string) => memory.get(k) ?? null,
      setItem: (k: string, v: string) => void memory.set(k, v),
      removeItem: (k: string) => void memory.delete(k),
    };
    const store = new SessionStore(keyOf(), storage);
    const player = { kty: 'OKP', crv: 'Ed25519', x: 'x', d: 'd' };
    store.save({ sessionId: 'a', token: 'a.b', player, balance: 5 } as never);
    expect(JSON.parse(memory.get(keyOf())!)).to.deep.equal({ sessionId: 'a', token: 'a.b', player });
    memory.set(`${keyOf()}:round`, '{}');
    memory.set(`${keyOf()}:copy`, '{}');
    store.forget('other');
    expect(store.read()).to.deep.equal({ sessionId: 'a', token: 'a.b', player });
    store.forget('a');
    expect(store.read()).to.equal(null);
    // The round in flight and the player's copy go with the session.
    expect([...memory.keys()]).to.deep.equal([]);
    // A session stored without a player key (pb-fair-1) is not resumed.
    memory.set(keyOf(), JSON.stringify({ sessionId: 'a', token: 'a.b' }));
    expect(store.read()).to.equal(null);
    memory.set(keyOf(), '{not json');
    expect(store.read()).to.equal(null);
    memory.set(keyOf(), JSON.stringify({ sessionId: 7, token: 'x' }));
    expect(store.read()).to.equal(null);
    expect(new SessionStore(keyOf(), null).read()).to.equal(null);
    expect(storageKey('https://a.example/', 'vip', 'acme')).to.not.equal(storageKey('https://a.example/', 'vip', null));
  });
});
