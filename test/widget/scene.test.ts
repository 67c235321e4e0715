/** The Pixi scene on its own, in real Chromium (WebGL through SwiftShader). */
import { expect } from 'chai';
import { createScene, type SceneOptions, type TableScene } from '../../widget/scene/index.ts';
import type { PixiTable } from '../../widget/scene/table-scene.ts';
import { HALL_1_CHIPS, NATURAL, receiptFrom, SAMPLE_BETS, THIRD_CARDS, TIE, SCENE_OPTIONS } from './harness/receipts.ts';

const options: SceneOptions = SCENE_OPTIONS;

const live: TableScene[] = [];

async function mount(
  opts: Partial<SceneOptions> = {},
  size = { width: 960, height: 600 },
): Promise<{ scene: TableScene; peek: () => ReturnType<PixiTable['inspect']> }> {
  const scene = await createScene({ ...options, ...opts }, size);
  live.push(scene);
  document.body.append(scene.canvas);
  return { scene, peek: () => (scene as unknown as PixiTable).inspect() };
}

function glOf(canvas: HTMLCanvasElement): WebGL2RenderingContext | WebGLRenderingContext {
  const gl = canvas.getContext('webgl2') ?? canvas.getContext('webgl');
  if (!gl) throw new Error('no WebGL context');
  return gl;
}

/** Counts animation frames while `work` runs. */
async function framesDuring(work: () => Promise<void>): Promise<number> {
  let frames = 0;
  let on = true;
  const tick = (): void => {
    frames++;
    if (on) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  await work();
  on = false;
  return frames;
}

const nextFrame = (): Promise<void> => new Promise((r) => requestAnimationFrame(() => r()));

describe('scene', () => {
  afterEach(() => {
    for (const s of live.splice(0)) {
      s.canvas.remove();
      s.destroy();
    }
  });

  it('makes an aria-hidden WebGL canvas of the asked CSS size', async () => {
    const { scene } = await mount({}, { width: 800, height: 500 });
    expect(scene.canvas.getAttribute('aria-hidden')).to.equal('true');
    const box = scene.canvas.getBoundingClientRect();
    expect([Math.round(box.width), Math.round(box.height)]).to.deep.equal([800, 500]);
    expect(glOf(scene.canvas).isContextLost()).to.equal(false);
    scene.resize(390, 700);
    const phone = scene.canvas.getBoundingClientRect();
    expect([Math.round(phone.width), Math.round(phone.height)]).to.deep.equal([390, 700]);
  });

  it('under reduced motion a whole round resolves without waiting for a frame', async () => {
    const { scene, peek } = await mount();
    scene.setBets(SAMPLE_BETS, HALL_1_CHIPS);
    const receipt = receiptFrom(THIRD_CARDS, SAMPLE_BETS);
    const frames = await framesDuring(() => scene.playRound(receipt));
    expect(frames).to.be.at.most(1);
    const state = peek();
    // Dealt P, B, P, B, then the third cards, all turned.
    expect(state.cards).to.deep.equal(receipt.cards.map((c) => ({ code: c.code, hand: c.hand, faceUp: true })));
    expect(state.cards.map((c) => c.hand)).to.deep.equal(['player', 'banker', 'player', 'banker', 'player', 'banker']);
    expect(state.totals).to.deep.equal({ player: 2, banker: 8 });
    expect(state.banner).to.equal(true);
    // Banker won: the player and tie stacks were collected, the banker bet was paid.
    expect(state.stacks).to.equal(1);
    expect(state.payouts).to.equal(1);
  });

  it('a natural deals four cards; a tie pays only the tie box and leaves player and banker bets up', async () => {
    const { scene, peek } = await mount();
    scene.setBets(SAMPLE_BETS, HALL_1_CHIPS);
    await scene.playRound(receiptFrom(NATURAL, SAMPLE_BETS));
    expect(peek().cards).to.have.length(4);
    expect(peek().totals).to.deep.equal({ player: 9, banker: 7 });
    await scene.clearRound();
    scene.setBets(SAMPLE_BETS, HALL_1_CHIPS);
    await scene.playRound(receiptFrom(TIE, SAMPLE_BETS));
    const state = peek();
    expect(state.totals).to.deep.equal({ player: 7, banker: 7 });
    expect(state.payouts).to.equal(1); // the tie box
    expect(state.stacks).to.equal(4); // pushes stay; nothing lost
  });

  it('clearRound sweeps the cards and clears the result', async () => {
    const { scene, peek } = await mount();
    scene.setBets(SAMPLE_BETS, HALL_1_CHIPS);
    await scene.playRound(receiptFrom(THIRD_CARDS, SAMPLE_BETS));
    await scene.clearRound();
    const state = peek();
    expect(state.cards).to.deep.equal([]);
    expect(state.banner).to.equal(false);
    expect(state.payouts).to.equal(0);
    expect(state.totals).to.deep.equal({ player: null, banker: null });
  });

  it('with motion the round animates, and turning reduced motion on finishes it at once', async () => {
    const { scene, peek } = await mount({ reducedMotion: false });
    scene.setBets(SAMPLE_BETS, HALL_1_CHIPS);
    let done = false;
    const round = scene.playRound(receiptFrom(THIRD_CARDS, SAMPLE_BETS)).then(() => (done = true));
    await nextFrame();
    await nextFrame();
    expect(done).to.equal(false);
    expect(peek().ticking).to.equal(true);
    expect(peek().cards.every((c) => c.faceUp)).to.equal(false);
    scene.setOptions({ reducedMotion: true });
    await round;
    expect(peek().cards.filter((c) => c.faceUp)).to.have.length(6);
    expect(peek().banner).to.equal(true);
  });

  it('renders on demand: the ticker stops when nothing moves, and setRunning(false) keeps it stopped', async () => {
    const { scene, peek } = await mount({ reducedMotion: false });
    scene.setBets(SAMPLE_BETS, HALL_1_CHIPS);
    for (let i = 0; i < 40 && peek().ticking; i++) await nextFrame();
    expect(peek().ticking).to.equal(false);
    scene.setRunning(false);
    scene.setHighlight({ sector: 2, box: 'tie' });
    // Off-screen, a round completes at once (nobody is watching) and nothing ticks.
    await scene.playRound(receiptFrom(NATURAL, SAMPLE_BETS));
    expect(peek().ticking).to.equal(false);
    expect(peek().banner).to.equal(true);
    scene.setRunning(true);
    expect(peek().ticking).to.equal(true);
  });

  it('a settled round survives a resize to the phone layout and a language change', async () => {
    const { scene, peek } = await mount();
    scene.setBets(SAMPLE_BETS, HALL_1_CHIPS);
    await scene.playRound(receiptFrom(THIRD_CARDS, SAMPLE_BETS));
    const before = peek();
    scene.resize(390, 700);
    scene.setOptions({ labels: { ...options.labels, player: 'Punto', banker: 'Banco', tie: 'Pareggio' }, limitsText: '1 – 100' });
    // Renders with the textures baked for the new size (a stale texture would throw here).
    (scene as unknown as PixiTable).renderNow();
    const after = peek();
    expect(after.cards).to.deep.equal(before.cards);
    expect(after.stacks).to.equal(before.stacks);
    expect(after.payouts).to.equal(before.payouts);
    expect(after.banner).to.equal(true);
  });

  it('bakes card faces once and reuses them round after round', async () => {
    const { scene, peek } = await mount();
    const receipt = receiptFrom(THIRD_CARDS, SAMPLE_BETS);
    await scene.playRound(receipt);
    const baked = peek().baked;
    expect(baked).to.equal(6 + 2); // six faces, the back, the shadow
    for (let i = 0; i < 3; i++) {
      await scene.clearRound();
      await scene.playRound(receipt);
    }
    expect(peek().baked).to.equal(baked);
  });

  it('setBets shows one stack per bet, replaces them, and clears them', async () => {
    const { scene, peek } = await mount();
    scene.setBets(SAMPLE_BETS, HALL_1_CHIPS);
    expect(peek().stacks).to.equal(4);
    scene.setBets([{ sector: 4, box: 'tie', amount: 1_000 }], HALL_1_CHIPS);
    expect(peek().stacks).to.equal(1);
    scene.setBets([], HALL_1_CHIPS);
    expect(peek().stacks).to.equal(0);
  });

  it('destroy removes the canvas, loses the WebGL context, and later calls do nothing', async () => {
    const { scene } = await mount();
    const gl = glOf(scene.canvas);
    scene.setBets(SAMPLE_BETS, HALL_1_CHIPS);
    await scene.playRound(receiptFrom(THIRD_CARDS, SAMPLE_BETS));
    live.splice(live.indexOf(scene), 1);
    scene.destroy();
    expect(gl.isContextLost()).to.equal(true);
    expect(scene.canvas.isConnected).to.equal(false);
    scene.destroy();
    scene.setBets(SAMPLE_BETS, HALL_1_CHIPS);
    scene.resize(300, 300);
    await scene.playRound(receiptFrom(NATURAL, SAMPLE_BETS));
    await scene.clearRound();
  });

  it('a round in flight resolves when the scene is destroyed', async () => {
    const { scene } = await mount({ reducedMotion: false });
    const round = scene.playRound(receiptFrom(THIRD_CARDS, SAMPLE_BETS));
    await nextFrame();
    live.splice(live.indexOf(scene), 1);
    scene.destroy();
    await round;
  });

  it('works where eval is forbidden (strict CSP): no new Function', async () => {
    const original = globalThis.Function;
    const forbidden = new Proxy(original, {
      construct() {
        throw new EvalError('Refused to evaluate a string as JavaScript (test CSP)');
      },
      apply() {
        throw new EvalError('Refused to evaluate a string as JavaScript (test CSP)');
      },
    });
    globalThis.Function = forbidden;
    try {
      const { scene, peek } = await mount();
      scene.setBets(SAMPLE_BETS, HALL_1_CHIPS);
      await scene.playRound(receiptFrom(THIRD_CARDS, SAMPLE_BETS));
      (scene as unknown as PixiTable).renderNow();
      expect(peek().banner).to.equal(true);
    } finally {
      globalThis.Function = original;
    }
  });
});
