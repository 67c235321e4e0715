/**
 * The PixiJS table, loaded lazily by the element (`import('./scene/index.ts')`). It renders what the
 * Worker returned and never decides an outcome.
 *
 * Pixi comes in through ./pixi.ts only: a trimmed WebGL build that needs no 'unsafe-eval' (it
 * imports `pixi.js/unsafe-eval`, whose static polyfills replace Pixi's `new Function`, before any
 * renderer exists).
 */
import './pixi.ts';
import { PixiTable } from './table-scene.ts';

export type { SceneLabels, SceneCue, SceneOptions, RoundReceipt, TableScene } from './types.ts';
import type { SceneOptions, TableScene } from './types.ts';

/** Creates the table on a new canvas sized `width` × `height` CSS pixels (default 960 × 600). */
export async function createScene(opts: SceneOptions, size?: { width: number; height: number }): Promise<TableScene> {
  return PixiTable.create(opts, size?.width ?? 960, size?.height ?? 600);
}

export { tableLayout } from '../layout.ts';
