/**
 * Pixi's WebGPU program class (`rendering/renderers/gpu/shader/GpuProgram.mjs`, which parses WGSL)
 * as Pixi's `Shader` finds it in the widget's bundle (scripts/pixi-webgl.ts). The table's renderer is
 * WebGL only (pixi.ts) and its batch shader has no WGSL program (pixi-batch-shader.ts), so the one
 * way left to this class is `Shader.from({ gpu })`, which nothing of the table calls. Should
 * anything call it, it fails here, by name, instead of building a program no renderer of the
 * table could run.
 */
export class GpuProgram {
  static from(): never {
    throw new Error("WebGPU programs are not part of the table's Pixi build (WebGL only): give the shader a `gl` program");
  }
}
