/**
 * Pixi's default batch shader (`rendering/batcher/shared/DefaultShader.mjs`, the one its default
 * batcher draws sprites and text with) for the table's WebGL-only renderer (pixi.ts): the same GLSL
 * program with the same resources, without the WGSL program Pixi's own class also compiles for
 * WebGPU on the same call. The table's renderer never runs WGSL, and that second program pulls
 * Pixi's WGSL templates and shader bits and its WebGPU program parser into the scene.
 *
 * The widget's bundle, and the widget tests' bundles, put this module in the place of Pixi's
 * (scripts/pixi-webgl.ts). A Shader with only a GL program binds its resources as one with both
 * does: the WGSL program names none of the batch's GL uniforms (test/widget/scene-batch-shader.test.ts
 * compares the two). Pixi is pinned (package.json): re-check against its DefaultShader when upgrading it.
 */
import type * as Pixi from 'pixi.js';
// @ts-expect-error untyped deep module (see pixi.ts)
import { compileHighShaderGlProgram as compileGlImpl } from '../../node_modules/pixi.js/lib/rendering/high-shader/compileHighShaderToProgram.mjs';
// @ts-expect-error untyped deep module
import { colorBitGl as colorBitGlImpl } from '../../node_modules/pixi.js/lib/rendering/high-shader/shader-bits/colorBit.mjs';
// @ts-expect-error untyped deep module
import { generateTextureBatchBitGl as textureBatchBitGlImpl } from '../../node_modules/pixi.js/lib/rendering/high-shader/shader-bits/generateTextureBatchBit.mjs';
// @ts-expect-error untyped deep module
import { roundPixelsBitGl as roundPixelsBitGlImpl } from '../../node_modules/pixi.js/lib/rendering/high-shader/shader-bits/roundPixelsBit.mjs';
// @ts-expect-error untyped deep module
import { getBatchSamplersUniformGroup as batchSamplersImpl } from '../../node_modules/pixi.js/lib/rendering/renderers/gl/shader/getBatchSamplersUniformGroup.mjs';
// @ts-expect-error untyped deep module
import { Shader as ShaderImpl } from '../../node_modules/pixi.js/lib/rendering/renderers/shared/shader/Shader.mjs';

const compileHighShaderGlProgram: typeof Pixi.compileHighShaderGlProgram = compileGlImpl;
const colorBitGl: typeof Pixi.colorBitGl = colorBitGlImpl;
const generateTextureBatchBitGl: typeof Pixi.generateTextureBatchBitGl = textureBatchBitGlImpl;
const roundPixelsBitGl: typeof Pixi.roundPixelsBitGl = roundPixelsBitGlImpl;
const getBatchSamplersUniformGroup: typeof Pixi.getBatchSamplersUniformGroup = batchSamplersImpl;
const Shader: typeof Pixi.Shader = ShaderImpl;

/** Pixi's DefaultShader, GL program only (same name, same export: it stands in for that module). */
export class DefaultShader extends Shader {
  readonly maxTextures: number;

  constructor(maxTextures: number) {
    const glProgram = compileHighShaderGlProgram({
      name: 'batch',
      bits: [colorBitGl, generateTextureBatchBitGl(maxTextures), roundPixelsBitGl],
    });
    super({ glProgram, resources: { batchSamplers: getBatchSamplersUniformGroup(maxTextures) } });
    this.maxTextures = maxTextures;
  }
}
