/**
 * Many tables on one page:
 * - four tables (different rooms and languages, one Worker) play at once, each with its own
 *   session, balance and WebGL context, and each context is lost when its table goes;
 * - an off-screen table, or any table in a hidden tab, stops its scene's ticker and resumes it.
 * The real Pixi scene runs here (SwiftShader); reduced motion keeps rounds instant. The twenty
 * mount/remove cycles are in embed-teardown.test.ts; the page's WebGL budget (a bounded number of
 * scenes, out-of-view tables giving theirs back) in gl-budget.test.ts.
 */
import { expect } from 'chai';
import { glBudget } from '../../widget/element/gl-budget.ts';
import type { PuntoBancoTable } from '../../widget/element/punto-banco-table.ts';
import { action, FakeWorker, mountTable, unmountAll, until } from './helpers.ts';

type GL = WebGLRenderingContext | WebGL2RenderingContext;

function glOf(table: PuntoBancoTable): GL {
  const canvas = table.scene!.canvas;
  const gl = canvas.getContext('webgl2') ?? canvas.getContext('webgl');
  if (!gl) throw new Error('no WebGL context on the scene canvas');
  return gl;
}

describe('many tables on one page', function () {
  this.timeout(120_000);
  // Four stacked tables do not all fit the viewport: here none gives its scene back while out of
  // view (on a software GPU, making four scenes can outlast the default grace).
  const grace = glBudget.graceMs;
  before(() => (glBudget.graceMs = 600_000));
  after(() => (glBudget.graceMs = grace));
  afterEach(unmountAll);

  it('four tables (rooms, languages) play independently: own sessions, balances and WebGL contexts', async () => {
    const worker = new FakeWorker(); // one Worker, as on a real page
    const setups = [
      { room: 'hall-1', lang: 'en', deal: 'Deal', box: 'player' },
      { room: 'hall-2', lang: 'ru', deal: 'Сдать', box: 'banker' },
      { room: 'vip', lang: 'it', deal: 'Distribuisci', box: 'tie' },
      { room: 'hall-1', lang: 'el', deal: 'Μοίρασμα', box: 'banker' },
    ] as const;
    const tables = await Promise.all(
      setups.map((s) => mountTable({ worker, scene: 'real', width: 480, attrs: { room: s.room, lang: s.lang, 'reduced-motion': '' } })),
    );
    await until(() => tables.every((t) => t.el.scene), 'four scenes', 60_000);
    const els = tables.map((t) => t.el);
    expect(new Set(els.map((el) => el.sessionId)).size).to.equal(4);
    const gls = els.map(glOf);
    expect(new Set(gls).size).to.equal(4);
    expect(gls.map((gl) => gl.isContextLost())).to.deep.equal([false, false, false, false]);
    // Each speaks its own language.
    expect(els.map((el) => action(el, 'deal').textContent.trim())).to.deep.equal(setups.map((s) => s.deal));

    // All four deal at once; each bets its own room's minimum on its own box, twice on table 4.
    els.forEach((el, i) => {
      el.placeBet(0, setups[i]!.box);
      if (i === 3) el.placeBet(1, 'player');
    });
    await Promise.all(els.map((el) => el.deal()));
    await until(() => els.every((el) => el.state === 'settled'), 'four settled rounds', 30_000);

    const receipts = tables.map((t) => t.events.filter((e) => e.type === 'pb-round-settled').map((e) => e.detail.body));
    expect(receipts.map((r) => r.length)).to.deep.equal([1, 1, 1, 1]);
    const minimum = { 'hall-1': 100, 'hall-2': 1000, vip: 25000 };
    receipts.forEach(([body], i) => {
      const s = setups[i]!;
      const expected = [{ sector: 0, box: s.box, amount: minimum[s.room] }];
      if (i === 3) expected.push({ sector: 1, box: 'player', amount: 100 });
      // A pb-fair-2 receipt pays each bet of its acceptance, in order: its payouts name them.
      expect(
        body.payouts.map(({ sector, box, amount }: { sector: number; box: string; amount: number }) => ({ sector, box, amount })),
        `table ${i + 1}'s bets`,
      ).to.deep.equal(expected);
      expect(body.balanceBefore).to.equal(worker.startBalance);
      expect(els[i]!.balance, `table ${i + 1}'s balance`).to.equal(body.balanceAfter);
    });
    // Four sessions, four requests to create them, one round each.
    expect(worker.requests('sessions')).to.have.length(4);
    expect(
      worker
        .requests('rounds')
        .map((r) => r.path)
        .sort(),
    ).to.deep.equal(els.map((el) => `/api/sessions/${el.sessionId}/rounds`).sort());

    unmountAll();
    expect(gls.map((gl) => gl.isContextLost())).to.deep.equal([true, true, true, true]);
  });

  it('an off-screen table stops its ticker and resumes when scrolled back; so does a hidden tab', async () => {
    const { el, scene } = await mountTable();
    const running = (): unknown[] => scene!.called('setRunning').map((a) => a[0]);
    const holder = el.parentElement!;
    holder.style.transform = 'translateY(-5000px)';
    await until(() => running().at(-1) === false, 'setRunning(false) off-screen');
    holder.style.transform = '';
    await until(() => running().at(-1) === true, 'setRunning(true) back on screen');

    // The tab goes to the background and comes back.
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
    expect(running().at(-1)).to.equal(false);
    delete (document as { visibilityState?: unknown }).visibilityState;
    document.dispatchEvent(new Event('visibilitychange'));
    expect(running().at(-1)).to.equal(true);
    // No repeated calls: one per change.
    expect(running()).to.deep.equal([false, true, false, true]);

    // Removed: a visibility change reaches nobody.
    el.remove();
    document.dispatchEvent(new Event('visibilitychange'));
    expect(running()).to.have.length(4);
  });

  it('a table mounted off-screen gets a stopped scene (real Pixi: no frames while out of view)', async () => {
    const { el } = await mountTable({ scene: 'real', attrs: { 'reduced-motion': '' }, setup: (t) => (t.style.cssText = 'position: relative; top: 6000px') });
    await until(() => el.scene, 'the scene', 30_000);
    const scene = el.scene as unknown as { inspect(): { ticking: boolean } };
    await until(() => !scene.inspect().ticking, 'the ticker to stop off-screen', 10_000);
    // Still plays (instantly while unseen) and settles.
    el.placeBet(0, 'player');
    await el.deal();
    await until(() => el.state === 'settled', 'settled off-screen', 20_000);
    expect(scene.inspect().ticking).to.equal(false);
    el.style.cssText = '';
    await until(() => scene.inspect().ticking || el.state === 'settled', 'back on screen');
  });
});
