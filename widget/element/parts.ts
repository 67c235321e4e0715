/**
 * Everything the element needs once the table is up, in one lazy chunk loaded beside the catalogs:
 * the templates and control styles, the table geometry, bet building (with the shared engine's
 * limit checks), the API client, the session kept for a reload, the default shoe start, and the scene's life (the page's WebGL
 * budget and the visibility that drives it, scene-slot.ts). The loader (the element's definition)
 * only draws the loading state, so none of this weighs on it.
 */
export * from './view.ts';
export { tableLayout } from '../layout.ts';
export { BetState } from './bet-state.ts';
export { checkBets, sameBets } from './bets.ts';
export { totalStake } from '../../shared/table.ts';
export { ApiClient, newIdempotencyKey } from './api-client.ts';
export { embedRefusal } from './embed.ts';
export { PanelsController } from './panels-controller.ts';
export { panelsStyles } from './panels-view.ts';
export { SceneSlot } from './scene-slot.ts';
export { SessionStore, storageKey, resumeSession } from './session-store.ts';
export { TableSession } from './table-session.ts';
export { DragController } from './drag-controller.ts';
