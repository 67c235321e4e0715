/**
 * The scene's teardown in real Chromium: Pixi must not warn while the scene is rebuilt or destroyed
 * (its "[BindGroup] a 'textureSource' was destroyed while still bound to a shader" warning means a
 * texture was freed under a live GPU batch), and each scene must lose its WebGL context.
 */
import { expect } from 'chai';
import { createScene, type SceneOptions, type TableScene } from '../../widget/scene/index.ts';
import type { PixiTable } from '../../widget/scene/table-scene.ts';
import { HALL_1_CHIPS, NATURAL, receiptFrom, SAMPLE_BETS, THIRD_CARDS, SCENE_OPTIONS } from './harness/receipts.ts';

const options: SceneOptions = SCENE_OPTIONS;

const nextFrame = (): Promise<void> => new Promise((r) => requestAnimationFrame(() => r()));

/** Runs `work` with console.warn and console.error recorded (and still printed). */
async function recordWarnings(work: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const { warn, error } = console;
  console.warn = (...args: unknown[]): void => {
    seen.push(args.map(String).join(' '));
    warn.apply(console, args);
  };
  console.error = (...args: unknown[]): void => {
    seen.push(args.map(String).join(' '));
    error.apply(console, args);
  };
  try {
    await work();
  } finally {
    console.warn = warn;
    console.error = error;
  }
  return seen;
}

async function mount(opts: Partial<SceneOptions> = {}, size = { width: 960, height: 600 }): Promise<TableScene> {
  const scene = await createScene({ ...options, ...opts }, size);
  document.body.append(scene.canvas);
  return scene;
}

describe('scene teardown', () => {
  it('a played, resized, relabelled and destroyed scene logs no Pixi warning', async () => {
    const warnings = await recordWarnings(async () => {
      const scene = await mount();
      const gl = (scene.canvas.getContext('webgl2') ?? scene.canvas.getContext('webgl'))!;
      scene.setBets(SAMPLE_BETS, HALL_1_CHIPS);
      await scene.playRound(receiptFrom(THIRD_CARDS, SAMPLE_BETS));
      (scene as unknown as PixiTable).renderNow();
      // A resize re-bakes every card and chip texture and redraws the felt.
      scene.resize(390, 700);
      (scene as unknown as PixiTable).renderNow();
      scene.setOptions({ labels: { ...options.labels, player: 'Punto', banker: 'Banco', tie: 'Pareggio' }, limitsText: '1 – 100' });
      await scene.clearRound();
      scene.setBets(SAMPLE_BETS, HALL_1_CHIPS);
      await scene.playRound(receiptFrom(NATURAL, SAMPLE_BETS));
      (scene as unknown as PixiTable).renderNow();
      await nextFrame();
      scene.destroy();
      expect(gl.isContextLost()).to.equal(true);
    });
    expect(warnings).to.deep.equal([]);
  });

  it('scenes made one after another (the element re-mounted) log no warning on destroy', async () => {
    const warnings = await recordWarnings(async () => {
      for (let i = 0; i < 3; i++) {
        const scene = await mount({ reducedMotion: i !== 1 });
        scene.setBets(SAMPLE_BETS, HALL_1_CHIPS);
        const round = scene.playRound(receiptFrom(THIRD_CARDS, SAMPLE_BETS));
        await nextFrame();
        await nextFrame();
        // The second scene is destroyed mid-deal.
        scene.destroy();
        await round;
      }
    });
    expect(warnings).to.deep.equal([]);
  });
});
