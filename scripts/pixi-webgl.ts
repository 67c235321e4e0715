/**
 * An esbuild plugin for the widget bundle: Pixi's default batch shader module is replaced by the
 * table's GLSL-only one (widget/scene/pixi-batch-shader.ts says why: Pixi's compiles a WGSL program
 * too, which the table's WebGL renderer never runs). Everything else of Pixi is bundled as published.
 *
 * The build fails when Pixi's default batcher no longer imports the module at the path this plugin
 * knows (a Pixi upgrade): the swap must not silently stop happening.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The table's batch shader, in place of Pixi's. */
export const TABLE_BATCH_SHADER = path.join(root, 'widget/scene/pixi-batch-shader.ts');
/** Pixi's default batcher, the only module that imports its DefaultShader. */
const PIXI_BATCHER = /pixi\.js[\\/]lib[\\/]rendering[\\/]batcher[\\/]shared[\\/]DefaultBatcher\.mjs$/;

export const pixiWebGl: Plugin = {
  name: 'pixi-webgl',
  setup(build) {
    let batcherSeen = false;
    let swapped = false;
    build.onStart(() => {
      batcherSeen = false;
      swapped = false;
    });
    build.onResolve({ filter: /^\.\/DefaultShader\.mjs$/ }, (args) => {
      if (!PIXI_BATCHER.test(args.importer)) return undefined;
      swapped = true;
      return { path: TABLE_BATCH_SHADER };
    });
    build.onLoad({ filter: PIXI_BATCHER }, () => {
      batcherSeen = true;
      return undefined;
    });
    build.onEnd((result) => {
      // Thrown, not pushed onto result.errors: esbuild fails a build only on errors it finds itself or a callback throws.
      if (result.errors.length === 0 && batcherSeen && !swapped) {
        throw new Error(
          "Pixi's DefaultBatcher no longer imports ./DefaultShader.mjs: re-check scripts/pixi-webgl.ts and widget/scene/pixi-batch-shader.ts against this Pixi",
        );
      }
    });
  },
};
