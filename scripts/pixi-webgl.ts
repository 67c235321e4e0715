/**
 * An esbuild plugin for the widget bundle: three of Pixi's modules are replaced where Pixi imports
 * them, for the table's WebGL-only renderer (widget/scene/pixi.ts); everything else of Pixi is
 * bundled as published.
 * - Its default batcher's shader (`DefaultShader.mjs`) by widget/scene/pixi-batch-shader.ts: the
 *   same GLSL program without the WGSL program Pixi compiles beside it.
 * - Its WebGPU program class (`GpuProgram.mjs`, the WGSL parser) as `Shader.mjs` imports it, by
 *   widget/scene/pixi-no-webgpu.ts: with the batch shader above, only `Shader.from({ gpu })` still
 *   reaches it, and nothing of the table calls that.
 * - Graphics' registration (`scene/graphics/init.mjs`, imported by `Graphics.mjs`) by
 *   widget/scene/pixi-graphics-init.ts, which registers nothing: pixi.ts registers the WebGL
 *   graphics pipe and system itself, and Pixi's module also brings the Canvas renderer's pair.
 *
 * The build fails when one of those Pixi modules no longer imports the module at the path this
 * plugin knows (a Pixi upgrade): a swap must not silently stop happening.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Swap {
  /** The Pixi module that imports the replaced one, under pixi.js/lib/. */
  importer: string;
  /** Its import specifier, exactly. */
  specifier: string;
  /** The table's module in its place. */
  replacement: string;
}

const SWAPS: Swap[] = [
  {
    importer: 'rendering/batcher/shared/DefaultBatcher.mjs',
    specifier: './DefaultShader.mjs',
    replacement: path.join(root, 'widget/scene/pixi-batch-shader.ts'),
  },
  {
    importer: 'rendering/renderers/shared/shader/Shader.mjs',
    specifier: '../../gpu/shader/GpuProgram.mjs',
    replacement: path.join(root, 'widget/scene/pixi-no-webgpu.ts'),
  },
  {
    importer: 'scene/graphics/shared/Graphics.mjs',
    specifier: '../init.mjs',
    replacement: path.join(root, 'widget/scene/pixi-graphics-init.ts'),
  },
];

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** A path under pixi.js/lib/ as a filter on absolute paths, either separator. */
const pixiModule = (file: string): RegExp => new RegExp(`${['pixi.js', 'lib', ...file.split('/')].map(escape).join('[\\\\/]')}$`);

export const pixiWebGl: Plugin = {
  name: 'pixi-webgl',
  setup(build) {
    /** Per swap: whether its importer was bundled, and whether the swap happened. */
    let seen = SWAPS.map(() => ({ importer: false, swapped: false }));
    build.onStart(() => {
      seen = SWAPS.map(() => ({ importer: false, swapped: false }));
    });
    SWAPS.forEach((swap, i) => {
      const importer = pixiModule(swap.importer);
      build.onResolve({ filter: new RegExp(`^${escape(swap.specifier)}$`) }, (args) => {
        if (!importer.test(args.importer)) return undefined;
        seen[i]!.swapped = true;
        return { path: swap.replacement };
      });
      build.onLoad({ filter: importer }, () => {
        seen[i]!.importer = true;
        return undefined;
      });
    });
    build.onEnd((result) => {
      if (result.errors.length > 0) return;
      // Thrown, not pushed onto result.errors: esbuild fails a build only on errors it finds itself or a callback throws.
      SWAPS.forEach((swap, i) => {
        if (seen[i]!.importer && !seen[i]!.swapped) {
          throw new Error(
            `Pixi's ${swap.importer} no longer imports ${swap.specifier}: re-check scripts/pixi-webgl.ts and ${path.relative(root, swap.replacement)} against this Pixi`,
          );
        }
      });
    });
  },
};
