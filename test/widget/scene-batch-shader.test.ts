/**
 * The table's batch shader (widget/scene/pixi-batch-shader.ts), which the widget's bundle and these
 * tests' bundles put in the place of Pixi's own (scripts/pixi-webgl.ts): the very GLSL program and
 * resources of Pixi's DefaultShader, without its WGSL program. Every scene test draws through it.
 * And Pixi's WebGPU program class, which those bundles leave out (widget/scene/pixi-no-webgpu.ts).
 */
import { expect } from 'chai';
import type * as Pixi from 'pixi.js';
// @ts-expect-error untyped deep module: Pixi's own, imported here directly (the swap is for its batcher's import only)
import { DefaultShader as PixiDefaultShaderImpl } from '../../node_modules/pixi.js/lib/rendering/batcher/shared/DefaultShader.mjs';
// @ts-expect-error untyped deep module
import { Shader as ShaderImpl } from '../../node_modules/pixi.js/lib/rendering/renderers/shared/shader/Shader.mjs';
// @ts-expect-error untyped deep module
import { DefaultBatcher as DefaultBatcherImpl } from '../../node_modules/pixi.js/lib/rendering/batcher/shared/DefaultBatcher.mjs';
import { DefaultShader } from '../../widget/scene/pixi-batch-shader.ts';

const PixiDefaultShader: typeof Pixi.DefaultShader = PixiDefaultShaderImpl;
const DefaultBatcher: typeof Pixi.DefaultBatcher = DefaultBatcherImpl;
const Shader: typeof Pixi.Shader = ShaderImpl;

/** A GLSL source without the running number Pixi appends to every program's SHADER_NAME. */
const unnumbered = (source: string | undefined): string => String(source).replace(/(#define SHADER_NAME \S+)-\d+/g, '$1');

describe("the table's batch shader", () => {
  for (const maxTextures of [1, 4, 16]) {
    it(`compiles Pixi's GLSL program and binds its resources, with no WGSL program (${maxTextures} textures)`, () => {
      const pixi = new PixiDefaultShader(maxTextures);
      const table = new DefaultShader(maxTextures);
      expect(unnumbered(table.glProgram.vertex)).to.equal(unnumbered(pixi.glProgram.vertex));
      expect(unnumbered(table.glProgram.fragment)).to.equal(unnumbered(pixi.glProgram.fragment));
      expect(table.glProgram.vertex).to.contain('#define SHADER_NAME batch-vertex');
      expect(table.maxTextures).to.equal(maxTextures);
      expect(Object.keys(table.groups)).to.deep.equal(Object.keys(pixi.groups));
      expect(table.resources.batchSamplers).to.equal(pixi.resources.batchSamplers);
      expect(pixi.gpuProgram, "Pixi's own carries a WGSL program").to.exist;
      expect(table.gpuProgram).to.equal(undefined);
    });
  }

  it("is the shader Pixi's default batcher draws with in these bundles, as in the widget's", () => {
    const batcher = new DefaultBatcher({ maxTextures: 4 });
    expect(batcher.shader).to.be.instanceOf(DefaultShader);
    expect(batcher.shader.gpuProgram).to.equal(undefined);
  });

  it('Shader.from makes GL programs as ever, and refuses a WGSL one by name (no WebGPU in these bundles)', () => {
    const gl = {
      vertex: 'in vec2 aPosition; void main() { gl_Position = vec4(aPosition, 0.0, 1.0); }',
      fragment: 'out vec4 c; void main() { c = vec4(1.0); }',
    };
    const shader = Shader.from({ gl, resources: {} });
    expect(shader.glProgram.vertex).to.contain('aPosition');
    expect(shader.gpuProgram).to.equal(undefined);
    const gpu = { vertex: { source: '@vertex fn main() {}', entryPoint: 'main' }, fragment: { source: '@fragment fn main() {}', entryPoint: 'main' } };
    expect(() => Shader.from({ gl, gpu, resources: {} })).to.throw(/WebGPU programs are not part of the table's Pixi build/);
  });
});
