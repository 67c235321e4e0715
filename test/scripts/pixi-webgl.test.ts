import { build } from 'esbuild';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { pixiWebGl } from '../../scripts/pixi-webgl.ts';

/** The scene as the widget bundles it, minified, with or without the plugin: its text and its modules. */
async function sceneBundle(withPlugin: boolean): Promise<{ text: string; modules: string[] }> {
  const result = await build({
    metafile: true,
    entryPoints: ['widget/scene/index.ts'],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: withPlugin ? [pixiWebGl] : [],
    logLevel: 'silent',
  });
  return { text: result.outputFiles[0]!.text, modules: Object.keys(result.metafile.inputs) };
}

test("the scene's bundle carries no WGSL program nor WGSL parser: Pixi's batch shader brings both, the table's has only GLSL", async () => {
  const { text: pixi } = await sceneBundle(false);
  const { text: table } = await sceneBundle(true);
  // A WGSL program's entry points and its batch's texture sampling; GLSL has none of these.
  // …and the WebGPU program class's WGSL parser (its struct pattern).
  for (const wgsl of ['@vertex', '@fragment', 'fn main', 'textureSampleGrad(', 'struct\\s+(\\w+)']) {
    expect(pixi).toContain(wgsl);
    expect(table).not.toContain(wgsl);
  }
  expect(table).toContain('SHADER_NAME');
  expect(table.length).toBeLessThan(pixi.length);
});

test("the scene's bundle holds none of Pixi's Canvas graphics: the table registers its WebGL pipe and system itself", async () => {
  const canvasGraphics = (modules: string[]) => modules.filter((m) => /pixi\.js\/lib\/scene\/graphics\/canvas\//.test(m));
  expect(canvasGraphics((await sceneBundle(false)).modules)).not.toHaveLength(0);
  expect(canvasGraphics((await sceneBundle(true)).modules)).toEqual([]);
});

test("the build fails when Pixi's batcher stops importing the shader the plugin replaces", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'pixi-webgl-'));
  try {
    const shared = path.join(dir, 'node_modules/pixi.js/lib/rendering/batcher/shared');
    await mkdir(shared, { recursive: true });
    await writeFile(path.join(shared, 'DefaultBatcher.mjs'), "import { Shader } from './RenamedShader.mjs';\nexport const batcher = new Shader();\n");
    await writeFile(path.join(shared, 'RenamedShader.mjs'), 'export class Shader {}\n');
    const bundle = build({ entryPoints: [path.join(shared, 'DefaultBatcher.mjs')], bundle: true, write: false, plugins: [pixiWebGl], logLevel: 'silent' });
    await expect(bundle).rejects.toThrow("Pixi's rendering/batcher/shared/DefaultBatcher.mjs no longer imports ./DefaultShader.mjs");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
