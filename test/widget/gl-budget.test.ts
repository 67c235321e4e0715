/**
 * The page's WebGL budget (widget/element/gl-budget.ts): tables share a bounded number of scenes,
 * so a lobby never reaches Chromium's ~16 contexts (past which it kills the oldest).
 * - five tables on a budget of three, stacked in a tall page: never more than three live contexts;
 *   scrolling a far table into view takes the scene of a table out of view, whose context is lost;
 *   scrolled back, that table rebuilds with its bets; a table out of view past the grace gives its
 *   scene back and, seen again, shows its last round at once; every table still plays;
 * - when every slot is on screen a newcomer waits (its controls work) and gets the first that frees;
 * - a hidden tab only stops the tickers: its scenes stay (no rebuild on return);
 * - a context the browser takes anyway (WEBGL_lose_context) is rebuilt.
 * The real Pixi scene runs (SwiftShader) where contexts are counted; fake scenes elsewhere.
 */
import { expect } from 'chai';
import { setViewport } from '@web/test-runner-commands';
import { glBudget } from '../../widget/element/gl-budget.ts';
import type { PuntoBancoTable } from '../../widget/element/punto-banco-table.ts';
import type { PixiTable } from '../../widget/scene/table-scene.ts';
import { boxButton, FakeWorker, type Mounted, mountTable, unmountAll, until } from './helpers.ts';

type GL = WebGLRenderingContext | WebGL2RenderingContext;
type Peek = ReturnType<PixiTable['inspect']>;

function glOf(el: PuntoBancoTable): GL {
  // getContext returns the context the canvas already has (Pixi made it); it never makes a second one.
  const canvas = el.scene!.canvas;
  const gl = canvas.getContext('webgl2') ?? canvas.getContext('webgl');
  if (!gl) throw new Error('no WebGL context on the scene canvas');
  return gl;
}

const peek = (el: PuntoBancoTable): Peek => (el.scene as unknown as PixiTable).inspect();

/**
 * Records every WebGL context the page makes from now on and, at each creation (the only moment
 * the count can grow), how many are live: the peak is exact, not sampled.
 */
function trackContexts(): { contexts: GL[]; live(): number; readonly peak: number; restore(): void } {
  const contexts: GL[] = [];
  const live = (): number => contexts.filter((gl) => !gl.isContextLost()).length;
  let peak = 0;
  const proto = HTMLCanvasElement.prototype;
  const original = proto.getContext;
  proto.getContext = function (this: HTMLCanvasElement, type: string, ...rest: unknown[]) {
    const ctx = (original as (...a: unknown[]) => unknown).call(this, type, ...rest);
    if (ctx && /webgl/.test(type) && !contexts.includes(ctx as GL)) {
      contexts.push(ctx as GL);
      peak = Math.max(peak, live());
    }
    return ctx;
  } as typeof proto.getContext;
  return {
    contexts,
    live,
    get peak() {
      return peak;
    },
    restore: () => void (proto.getContext = original),
  };
}

/**
 * Resolves once the tables' own visibility observers have reported: on a page busy making scenes
 * their first report can come late, and a new observer's first report comes after theirs.
 */
function observed(els: PuntoBancoTable[]): Promise<void> {
  return new Promise((resolve) => {
    const io = new IntersectionObserver(() => {
      io.disconnect();
      resolve();
    });
    for (const el of els) io.observe(el.shadowRoot!.querySelector('.stage')!);
  });
}

const settled = (t: Mounted): CustomEvent[] => t.events.filter((e) => e.type === 'pb-round-settled');

describe('the page-wide WebGL budget', function () {
  // Scenes made and destroyed on a software GPU on a shared two-core machine: generous, never timed.
  this.timeout(180_000);
  const saved = { limit: glBudget.limit, graceMs: glBudget.graceMs };

  before(async () => {
    // Warm-up: the first scene loads the Pixi chunk, and Pixi keeps one small probe context per
    // page for its capability checks (a singleton, not a table's): neither is counted below.
    const first = await mountTable({ scene: 'real', width: 320, attrs: { 'reduced-motion': '' } });
    await until(() => first.el.scene, 'the first scene', 30_000);
    unmountAll();
  });

  afterEach(async () => {
    unmountAll();
    window.scrollTo(0, 0);
    // A scene still being made keeps its slot until it arrives and is destroyed.
    await until(() => glBudget.inUse === 0, 'every slot back after teardown', 30_000);
    expect(glBudget.waiting, 'tables still waiting after teardown').to.equal(0);
    glBudget.limit = saved.limit;
    glBudget.graceMs = saved.graceMs;
  });

  it('five tables on a budget of three: at most three contexts; scrolling hands scenes over and rebuilds them with their state', async () => {
    glBudget.limit = 3;
    glBudget.graceMs = 600_000; // first, out-of-view tables keep their scenes until someone needs them
    window.scrollTo(0, 0);
    const track = trackContexts();
    try {
      const worker = new FakeWorker();
      // Each table a viewport and more apart: only the first is on screen at the top of the page.
      const tables = await Promise.all(
        [0, 1, 2, 3, 4].map(() =>
          mountTable({
            worker,
            scene: 'real',
            width: 320,
            attrs: { 'reduced-motion': '' },
            setup: (el) => (el.style.cssText = 'display: block; margin-bottom: 1600px'),
          }),
        ),
      );
      const els = tables.map((t) => t.el);
      // Three scenes, one of them the table in view's; the two others out of view get none.
      await until(() => els[0]!.scene && els.filter((el) => el.scene).length === 3, 'three scenes, one for the table in view', 60_000);
      await observed(els);
      await until(() => els[0]!.scene && els.filter((el) => el.scene).length === 3, 'still three scenes once every table knows where it is');
      expect(glBudget.inUse).to.equal(3);
      expect(track.live()).to.equal(3);

      // Bets everywhere, with or without a scene: table i on sector i's Banker box.
      els.forEach((el, i) => expect(el.placeBet(i, 'banker')).to.equal(true));
      await until(() => els.every((el) => !el.scene || peek(el).stacks === 1), 'the bets drawn');
      const holders = tables.filter((t) => t.el.scene);
      const parked = tables.filter((t) => !t.el.scene);
      const glBefore = new Map(holders.map((t) => [t.el, glOf(t.el)]));

      // A far table without a scene scrolls into view: it gets one, taken from a table out of view.
      const far = parked.at(-1)!;
      far.el.scrollIntoView({ block: 'start' });
      expect(Math.round(far.el.getBoundingClientRect().top), 'the far table at the top').to.equal(0);
      await until(() => far.el.scene && peek(far.el).stacks === 1, 'the far table drawn with its bet', 60_000);
      // One scrollIntoView is enough: no table above changed height meanwhile (table-fit.test.ts).
      expect(Math.round(far.el.getBoundingClientRect().top), 'the far table still at the top').to.equal(0);
      const evicted = holders.filter((t) => !t.el.scene);
      expect(evicted, 'tables that gave their scene').to.have.length(1);
      const victim = evicted[0]!;
      expect(victim.el, 'the one out of view the longest, not the one just scrolled away').to.not.equal(els[0]);
      expect(glBefore.get(victim.el)!.isContextLost(), "the victim's context is lost").to.equal(true);
      expect(glBudget.inUse).to.equal(3);
      expect(track.live()).to.equal(3);

      // The victim, scrolled back, rebuilds its scene with its bet on the felt.
      victim.el.scrollIntoView({ block: 'start' });
      await until(() => victim.el.scene && peek(victim.el).stacks === 1, 'the victim rebuilt with its bet', 60_000);
      const rebuilt = glOf(victim.el);
      expect(rebuilt).to.not.equal(glBefore.get(victim.el));
      expect(rebuilt.isContextLost()).to.equal(false);
      expect(victim.el.bets).to.deep.equal([{ sector: els.indexOf(victim.el), box: 'banker', amount: 100 }]);

      // It plays a round in view, with motion this time.
      victim.el.reducedMotion = false;
      await victim.el.deal();
      expect(victim.el.state).to.equal('settled');
      const body = settled(victim).at(-1)!.detail.body as { cards: { code: string }[]; playerTotal: number; bankerTotal: number };
      expect(peek(victim.el).cards.map((c) => c.code)).to.deep.equal(body.cards.map((c) => c.code));
      const balance = victim.el.balance;

      // Out of view past the grace, it gives its scene back and keeps everything it knows.
      glBudget.graceMs = 300;
      const lost = glOf(victim.el);
      els[0]!.scrollIntoView({ block: 'start' });
      await until(() => !victim.el.scene, 'the victim giving its scene back after the grace', 10_000);
      expect(lost.isContextLost()).to.equal(true);
      expect([victim.el.state, victim.el.balance]).to.deep.equal(['settled', balance]);

      // Seen again: the round is on the felt at once (no replay: the very first frame with cards has
      // them face up, with the totals and the result).
      victim.el.scrollIntoView({ block: 'start' });
      let first: Peek | null = null;
      await until(() => (first ??= victim.el.scene && peek(victim.el).cards.length ? peek(victim.el) : null), 'the round redrawn', 60_000);
      const shown = first as unknown as Peek;
      expect(shown.cards.map((c) => c.code)).to.deep.equal(body.cards.map((c) => c.code));
      expect(
        shown.cards.every((c) => c.faceUp),
        'all cards face up',
      ).to.equal(true);
      expect(shown.totals).to.deep.equal({ player: body.playerTotal, banker: body.bankerTotal });
      expect(shown.banner).to.equal(true);

      // Every table still plays a round, scene or not.
      els.forEach((el, i) => expect(el.placeBet((i + 1) % 5, 'player')).to.equal(true));
      await Promise.all(els.map((el) => el.deal()));
      await until(() => els.every((el) => el.state === 'settled'), 'five settled rounds', 60_000);
      expect(tables.map((t) => settled(t).length)).to.deep.equal(els.map((el) => (el === victim.el ? 2 : 1)));

      expect(track.peak, 'live WebGL contexts at most').to.be.at.most(3);
      expect(glBudget.inUse).to.be.at.most(3);
      unmountAll();
      expect(track.contexts.length, 'scenes were made and remade').to.be.greaterThan(3);
      expect(track.live(), 'live contexts after teardown').to.equal(0);
    } finally {
      track.restore();
    }
  });

  it('when every slot is on screen a newcomer waits, its controls working, and gets the first slot that frees', async () => {
    await setViewport({ width: 800, height: 2400 }); // three stacked tables, all in view
    try {
      glBudget.limit = 2;
      const a = await mountTable({ width: 240 });
      const b = await mountTable({ width: 240 });
      const c = await mountTable({ width: 240 });
      await observed([a.el, b.el, c.el]);
      await until(() => glBudget.waiting === 1, 'the newcomer waiting');
      expect([!!a.el.scene, !!b.el.scene, !!c.el.scene]).to.deep.equal([true, true, false]);

      // Without a scene the DOM controls still work: a bet by click, and a whole round.
      boxButton(c.el, 2, 'tie').click();
      expect(c.el.bets).to.deep.equal([{ sector: 2, box: 'tie', amount: 100 }]);
      await c.el.deal();
      expect(c.el.state).to.equal('settled');
      c.el.placeBet(1, 'player');

      // A holder leaves the view: the waiting table gets its slot at once, not after the grace.
      const holder = a.el.parentElement!;
      holder.style.transform = 'translateY(5000px)';
      await until(() => c.el.scene, 'the newcomer getting the slot');
      expect(a.el.scene).to.equal(null);
      // Its new scene shows what the table knows: its bet and its shoe.
      const calls = c.scene!.calls.map((x) => x.name);
      expect(c.scene!.called('setBets').at(-1)![0]).to.deep.equal(c.el.bets);
      expect(calls).to.include('setShoe');

      // Back in view, with both slots on screen: it waits; a table removed frees a slot for it.
      holder.style.transform = '';
      await until(() => glBudget.waiting === 1, 'the returning table waiting');
      expect(a.el.scene).to.equal(null);
      b.el.remove();
      await until(() => a.el.scene, 'the freed slot');
      expect(glBudget.inUse).to.equal(2);
    } finally {
      await setViewport({ width: 800, height: 600 });
    }
  });

  it('a hidden tab stops the tickers but keeps the scenes: the player comes back to the felt as left', async () => {
    await setViewport({ width: 800, height: 2400 }); // both tables in view
    try {
      glBudget.graceMs = 200;
      const tables = [await mountTable({ width: 320 }), await mountTable({ width: 320 })];
      await until(() => tables.every((t) => t.el.scene), 'two scenes');
      const before = tables.map((t) => t.scene!);
      const running = (i: number): unknown =>
        before[i]!.called('setRunning')
          .map((a) => a[0])
          .at(-1);
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      try {
        document.dispatchEvent(new Event('visibilitychange'));
        await until(() => running(0) === false && running(1) === false, 'both tickers stopped');
        await new Promise((r) => setTimeout(r, 600)); // well past the grace
        expect(tables.map((t, i) => t.el.scene === before[i])).to.deep.equal([true, true]);
        expect(before.map((s) => s.destroyed)).to.deep.equal([false, false]);
        expect(glBudget.inUse).to.equal(2);
      } finally {
        delete (document as { visibilityState?: unknown }).visibilityState;
        document.dispatchEvent(new Event('visibilitychange'));
      }
      await until(() => running(0) === true && running(1) === true, 'both tickers running again');
      expect(tables.map((t, i) => t.el.scene === before[i])).to.deep.equal([true, true]);
    } finally {
      await setViewport({ width: 800, height: 600 });
    }
  });

  it('a table scrolled away while its tab was hidden gives its scene back after the grace once the tab shows', async () => {
    glBudget.graceMs = 200;
    const { el } = await mountTable({ width: 320 });
    await until(() => el.scene, 'the scene');
    const scene = el.scene!;
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    const spacer = document.createElement('div');
    spacer.style.height = '6000px';
    try {
      document.dispatchEvent(new Event('visibilitychange'));
      document.body.prepend(spacer); // out of view now, but the tab is hidden: nothing parks
      await new Promise((r) => setTimeout(r, 600));
      expect(el.scene).to.equal(scene);
    } finally {
      delete (document as { visibilityState?: unknown }).visibilityState;
      document.dispatchEvent(new Event('visibilitychange'));
    }
    try {
      await until(() => el.scene === null, 'the scene given back after the grace', 5000);
      expect((scene as unknown as { destroyed: boolean }).destroyed).to.equal(true);
      expect(el.hasAttribute('data-plain')).to.equal(true);
    } finally {
      spacer.remove();
    }
    await until(() => el.scene !== null, 'a new scene back in view');
  });

  it('a context the browser takes anyway is rebuilt through the budget, with the bets on the felt', async () => {
    glBudget.limit = 3;
    const { el } = await mountTable({ scene: 'real', width: 320, attrs: { 'reduced-motion': '' } });
    await until(() => el.scene, 'the scene', 30_000);
    el.placeBet(0, 'banker');
    el.placeBet(2, 'tie');
    const old = el.scene!;
    const gl = glOf(el);
    gl.getExtension('WEBGL_lose_context')!.loseContext();
    await until(() => el.scene && el.scene !== old && peek(el).stacks === 2, 'a rebuilt scene with both bets', 30_000);
    expect(gl.isContextLost()).to.equal(true);
    expect(old.canvas.isConnected).to.equal(false);
    expect(glOf(el).isContextLost()).to.equal(false);
    expect(glBudget.inUse).to.equal(1);
    // And it plays.
    await el.deal();
    expect(el.state).to.equal('settled');
  });
});
