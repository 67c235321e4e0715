/**
 * Everything the element needs once the table is up, in one lazy chunk loaded beside the catalogs:
 * the templates and control styles, the table geometry, the controllers — the session, shoe and
 * round (table-session.ts, with the API client, the session kept for a reload and the shoe start),
 * the bets, dragging, the panels — and the scene's life (the page's WebGL budget and the visibility
 * that drives it, scene-slot.ts). The loader (the element's definition) only draws the loading
 * state, so none of this weighs on it.
 */
export * from './view.ts';
export { tableLayout } from '../layout.ts';
export { BetState } from './bet-state.ts';
export { totalStake } from '../../shared/table.ts';
export { ApiClient } from '../session/api-client.ts';
export { TableSession } from '../session/table-session.ts';
export { DragController } from './drag-controller.ts';
export { PanelsController } from './panels-controller.ts';
export { panelsStyles } from './panels-view.ts';
export { SceneSlot } from './scene-slot.ts';
export { TableAudio } from './table-audio.ts';
export { fullscreenState, measureChrome, runTool, tableShortcut, toggleFullscreen } from './table-input.ts';
