/**
 * pb-fair-2 in <punto-banco-table> (FAIRNESS.md part II): one Deal click plays a round in two
 * phases — the bet with the lock of a fresh secret, then the secret — the secret kept in the tab
 * before the bet leaves, so a reload between the phases finishes the round; a voided round shows
 * its stake returned; the player's own copy downloads as a pb-fair-2 file the operator's
 * transcript matches. A remount in the same page stands in for the reload.
 */
import { expect } from 'chai';
import { action, FakeWorker, mountTable, playRounds, settle, shadow, unmountAll, until } from './helpers.ts';
import type { FakeRequest } from './fake-worker.ts';
import type { PuntoBancoTable } from '../../widget/element/punto-banco-table.ts';
import type { PbFairness } from '../../widget/panels/index.ts';
import {
  type BetRequest,
  compareCopies,
  type FairnessFile,
  lockOf,
  type SecretRequest,
  type SignedRequest,
  verifyRequest,
} from '../../shared/fairness/index.ts';

const betOf = (r: FakeRequest) => (r.body as { request: SignedRequest<BetRequest> }).request;
const secretOf = (r: FakeRequest) => (r.body as { request: SignedRequest<SecretRequest> }).request;

/** A fetch that holds the round's secret (phase 2) until `release`, and counts what goes out. */
function holdSecret(worker: FakeWorker): { fetch: typeof worker.fetch; release: () => void; held: Promise<void> } {
  let release!: () => void;
  let heard!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const held = new Promise<void>((r) => (heard = r));
  return {
    fetch: async (input, init) => {
      if (String(input).endsWith('/secret')) {
        heard();
        await gate;
      }
      return worker.fetch(input, init);
    },
    release,
    held,
  };
}

function noticeText(el: PuntoBancoTable): string {
  return shadow(el).querySelector('.notice, [role="alert"]')?.textContent?.trim() ?? '';
}

describe('<punto-banco-table> locked bets (pb-fair-2)', () => {
  beforeEach(() => sessionStorage.clear());
  afterEach(() => {
    unmountAll();
    sessionStorage.clear();
  });

  it('one Deal click sends exactly two requests, the bet with its lock then the secret, and settles with a receipt', async () => {
    const worker = new FakeWorker();
    const { el, events } = await mountTable({ worker });
    const hold = holdSecret(worker);
    el.fetcher = hold.fetch;
    el.placeBet(1, 'banker');
    el.placeBet(1, 'player');
    await settle(el);
    const before = worker.log.length;
    action(el, 'deal').click();
    await hold.held;
    // Between the phases: the bet is accepted and the stake debited; no card is known yet.
    await until(() => el.balance === 1_000_000 - 200, 'the stake debited');
    expect(events.some((e) => e.type === 'pb-round-settled')).to.equal(false);
    hold.release();
    await until(() => el.state === 'settled', 'settled');
    const posts = worker.log.slice(before).filter((r) => r.method === 'POST');
    expect(posts.map((r) => r.path.split('/').slice(4).join('/'))).to.deep.equal(['shoe/start', 'rounds', 'rounds/1/secret']);
    const bet = betOf(posts[1]!);
    const secret = secretOf(posts[2]!);
    expect(bet.body.lock).to.match(/^[0-9a-f]{64}$/);
    expect(bet.body.bets).to.have.deep.members([
      { sector: 1, box: 'banker', amount: 100 },
      { sector: 1, box: 'player', amount: 100 },
    ]);
    expect(lockOf(secret.body.secret)).to.equal(bet.body.lock);
    // Both are signed by the player's key, the key the session was created with.
    const key = worker.playerKey(el.sessionId!)!;
    expect(await verifyRequest(key, bet)).to.equal(true);
    expect(await verifyRequest(key, secret)).to.equal(true);
    // Each phase has its own idempotency key.
    expect(posts[1]!.headers['idempotency-key']).to.not.equal(posts[2]!.headers['idempotency-key']);
    const receipt = events.find((e) => e.type === 'pb-round-settled')!.detail;
    expect(receipt.body.type).to.equal('receipt');
    expect(receipt.body.request).to.deep.equal(secret);
    expect(el.balance).to.equal(receipt.body.balanceAfter);
    // Nothing waits in the tab once the round is settled.
    expect(Object.keys(sessionStorage).filter((k) => k.endsWith(':round'))).to.deep.equal([]);
  });

  it('a reload between the phases finishes the round from the secret the tab stored', async () => {
    const worker = new FakeWorker();
    const first = await mountTable({ worker });
    worker.faults.push({ route: 'secret', times: 1, kind: 'network' });
    first.el.placeBet(0, 'banker');
    await first.el.deal();
    await until(() => first.el.state === 'error', 'the secret lost on the way');
    const bet = betOf(worker.requests('rounds')[0]!);
    expect(first.el.balance).to.equal(1_000_000 - 100);
    const id = first.el.sessionId;
    unmountAll(); // the page goes away between the phases…
    const second = await mountTable({ worker }); // …and comes back
    await until(() => second.el.state === 'settled', 'the round finished after the reload', 10_000);
    expect(second.el.sessionId).to.equal(id);
    expect(worker.requests('sessions').filter((r) => r.method === 'POST')).to.have.length(1);
    expect(worker.requests('rounds')).to.have.length(1); // the bet was not sent again
    const secrets = worker.requests('secret');
    expect(secrets).to.have.length(2); // the lost one, then the one after the reload
    expect(lockOf(secretOf(secrets[1]!).body.secret)).to.equal(bet.body.lock);
    const receipt = second.events.find((e) => e.type === 'pb-round-settled')!.detail;
    expect(receipt.body.round).to.equal(1);
    expect(second.el.balance).to.equal(receipt.body.balanceAfter);
    // The next round follows the receipt.
    const [next] = await playRounds(second.el, 1);
    expect(next!.body.round).to.equal(2);
  });

  it('a round voided before its secret arrived shows the stake returned', async () => {
    const worker = new FakeWorker();
    const { el, events } = await mountTable({ worker });
    worker.faults.push({ route: 'secret', times: 1, kind: 'network' });
    el.selectChip(1_000);
    el.placeBet(0, 'player');
    await el.deal();
    await until(() => el.state === 'error', 'the secret lost on the way');
    expect(el.balance).to.equal(1_000_000 - 1_000);
    // The secret never reached the table in time: the Worker voids the round.
    expect(await worker.voidPending(el.sessionId!)).to.equal(true);
    await el.retry();
    await until(() => el.state === 'error' && events.at(-1)?.detail?.code === 'round_voided', 'the void shown');
    expect(el.balance).to.equal(1_000_000);
    await settle(el);
    expect(noticeText(el)).to.contain('voided').and.to.contain('stake was returned');
    // The bets stay on the felt for another deal, which plays a new round 2.
    expect(el.bets).to.deep.equal([{ sector: 0, box: 'player', amount: 1_000 }]);
    const [receipt] = await playRounds(el, 1);
    expect(receipt!.body.round).to.equal(2);
  });

  it('after a reload without the stored secret, says when the round voids', async () => {
    const worker = new FakeWorker();
    const first = await mountTable({ worker });
    worker.faults.push({ route: 'secret', times: 1, kind: 'network' });
    first.el.placeBet(0, 'banker');
    await first.el.deal();
    await until(() => first.el.state === 'error', 'the secret lost on the way');
    for (const key of Object.keys(sessionStorage)) if (key.endsWith(':round')) sessionStorage.removeItem(key);
    unmountAll();
    const second = await mountTable({ worker });
    await until(() => second.el.state === 'error', 'the pending round shown');
    await settle(second.el);
    expect(second.events.at(-1)!.detail.code).to.equal('round_pending');
    expect(noticeText(second.el)).to.contain('voids at');
    expect(worker.requests('secret')).to.have.length(1);
    // Once the Worker voided it, Retry takes bets again.
    await worker.voidPending(second.el.sessionId!);
    await second.el.retry();
    await until(() => second.el.state === 'ready', 'ready again');
    expect(second.el.balance).to.equal(1_000_000);
  });

  it('a session of the retired protocol is replaced quietly by a new one', async () => {
    const worker = new FakeWorker();
    const { el, events } = await mountTable({ worker });
    worker.faults.push({ route: 'rounds', times: 1, kind: 409, code: 'protocol_retired' });
    const old = el.sessionId;
    el.placeBet(0, 'banker');
    await el.deal();
    await until(() => el.state === 'settled', 'settled in a new session');
    expect(el.sessionId).to.not.equal(old);
    expect(worker.requests('sessions').filter((r) => r.method === 'POST')).to.have.length(2);
    expect(events.some((e) => e.type === 'pb-error')).to.equal(false);
  });

  it('"Download my copy" gives a pb-fair-2 file the operator\'s transcript holds unchanged', async () => {
    const worker = new FakeWorker();
    const { el } = await mountTable({ worker });
    await playRounds(el, 3);
    shadow(el).querySelector<HTMLButtonElement>('.drawer-bar .launcher[data-panel="fairness"]')!.click();
    await until(() => shadow(el).querySelector('pb-fairness[data-current]'), 'the fairness panel', 10_000);
    const panel = shadow(el).querySelector<PbFairness>('pb-fairness[data-current]')!;
    await until(() => panel.shadowRoot!.querySelector('.download-copy-button'), 'the download button');
    const blobs: Blob[] = [];
    const real = URL.createObjectURL;
    URL.createObjectURL = (b: Blob | MediaSource) => (blobs.push(b as Blob), real.call(URL, b));
    try {
      panel.shadowRoot!.querySelector<HTMLButtonElement>('.download-copy-button')!.click();
    } finally {
      URL.createObjectURL = real;
    }
    expect(blobs).to.have.length(1);
    const mine = JSON.parse(await blobs[0]!.text()) as FairnessFile;
    expect(mine.version).to.equal('pb-fair-2');
    expect(mine.sent).to.deep.equal([]); // every request answered
    const theirs = worker.transcript(el.sessionId!)!;
    expect(mine.records.map((r) => r.body.type)).to.deep.equal([
      'commitment',
      'start',
      'acceptance',
      'receipt',
      'acceptance',
      'receipt',
      'acceptance',
      'receipt',
    ]);
    expect(compareCopies(mine, theirs)).to.deep.equal([]);
    // Without the last round, the operator's copy is caught.
    expect(compareCopies(mine, { records: theirs.records.slice(0, -1) }).map((f) => f.code)).to.deep.equal(['missing_in_operator_copy']);
  });
});
