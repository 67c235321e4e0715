/**
 * The entry of the widget bundle: `<script type="module" src="…/punto-banco-table.js">` defines
 * <punto-banco-table> and nothing else global. Pixi is not imported here: the scene module (and
 * with it Pixi) is fetched by a dynamic import only when a table is connected to the page, so this
 * loader stays small; the translator and the catalogs load lazily the same way.
 */
import { PuntoBancoTable, type SceneFactory } from './element/punto-banco-table.ts';

/** The lazy scene: the first table on the page pulls the Pixi chunk; later ones reuse it. */
const lazyScene: SceneFactory = async (options, size) => (await import('./scene/index.ts')).createScene(options, size);

PuntoBancoTable.defaultSceneFactory ??= lazyScene;
// Only where there is a DOM: imported while a page is rendered on a server (Node, no
// `customElements`), the module loads and defines nothing; the element upgrades on the client.
if (globalThis.customElements && !customElements.get('punto-banco-table')) customElements.define('punto-banco-table', PuntoBancoTable);

export { PuntoBancoTable };
export type { TableState, SceneFactory } from './element/punto-banco-table.ts';
export type { BetChangeDetail, ErrorDetail, ReadyDetail, RoundSettledDetail, PuntoBancoEventMap } from './element/emit.ts';
