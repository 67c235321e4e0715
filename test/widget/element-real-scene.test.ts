/** The element with the real Pixi scene: a round end to end, then teardown (no WebGL context left). */
import { expect } from 'chai';
import { FakeWorker, mountTable, shadow, unmountAll, until } from './helpers.ts';

function glOf(canvas: HTMLCanvasElement): WebGL2RenderingContext | WebGLRenderingContext {
  // getContext returns the context the canvas already has (Pixi made it); it never makes a second one.
  const gl = canvas.getContext('webgl2') ?? canvas.getContext('webgl');
  if (!gl) throw new Error('the scene canvas has no WebGL context');
  return gl;
}

describe('<punto-banco-table> with the real scene', function () {
  // Pixi on a software GPU (SwiftShader) on a shared two-core machine: generous, never asserted on.
  this.timeout(60_000);
  afterEach(unmountAll);

  it('mounts the Pixi scene lazily, plays a round from the receipt, and destroys it on removal', async () => {
    const worker = new FakeWorker();
    worker.script = [['4S', '7H', 'AD', 'KC', '9H']];
    const { el, events } = await mountTable({ worker, scene: 'real', attrs: { 'reduced-motion': '' } });
    await until(() => el.scene, 'the scene', 20_000);
    const canvas = shadow(el).querySelector('canvas')!;
    expect(canvas).to.equal(el.scene!.canvas);
    expect(canvas.getAttribute('aria-hidden')).to.equal('true');
    const gl = glOf(canvas);
    expect(gl.isContextLost()).to.equal(false);
    const stage = shadow(el).querySelector('.stage')!.getBoundingClientRect();
    expect(Math.round(canvas.getBoundingClientRect().width)).to.equal(Math.round(stage.width));
    el.placeBet(0, 'player');
    await el.deal();
    await until(() => el.state === 'settled', 'settled', 20_000);
    expect(events.some((e) => e.type === 'pb-error')).to.equal(false);
    el.remove();
    expect(el.scene).to.equal(null);
    expect(canvas.isConnected).to.equal(false);
    expect(gl.isContextLost()).to.equal(true);
  });

  it('mounting and removing tables repeatedly leaves no WebGL context behind', async () => {
    const contexts: (WebGL2RenderingContext | WebGLRenderingContext)[] = [];
    for (let i = 0; i < 3; i++) {
      const { el } = await mountTable({ scene: 'real', attrs: { 'reduced-motion': '' } });
      await until(() => el.scene, 'the scene', 20_000);
      contexts.push(glOf(el.scene!.canvas));
      unmountAll();
    }
    expect(contexts.map((gl) => gl.isContextLost())).to.deep.equal([true, true, true]);
  });

  it('a table removed while its scene is still loading destroys the scene when it arrives', async () => {
    const { el } = await mountTable({ scene: 'real', ready: false });
    el.remove();
    // Give the lazy scene time to arrive; it must not be kept nor attached.
    await new Promise((r) => setTimeout(r, 1500));
    expect(el.scene).to.equal(null);
    expect(shadow(el).querySelector('canvas')).to.equal(null);
  });
});

describe('<punto-banco-table> teardown (fake scene)', () => {
  afterEach(unmountAll);

  it('destroys the scene, stops observing and aborts requests when removed', async () => {
    const worker = new FakeWorker();
    const { el, scene } = await mountTable({ worker });
    el.placeBet(0, 'player');
    let release!: () => void;
    worker.gate = new Promise((r) => (release = r));
    const dealing = el.deal();
    await until(() => worker.requests('rounds').length + worker.requests('start').length > 0, 'a request in flight');
    el.remove();
    expect(scene!.destroyed).to.equal(true);
    release();
    await dealing;
    // The aborted request does not turn into an error or a settled round after teardown.
    expect(el.state).to.not.equal('settled');
  });
});
