/**
 * Everything the element needs once the table is up, in one lazy chunk loaded beside the catalogs:
 * the templates (view.ts) and the control styles (widget/styles), the table geometry, the
 * controllers — the session, shoe and round (table-session.ts, with the API client, the session
 * kept for a reload and the shoe start), the bet boxes' input with the bets and dragging
 * (bet-input.ts), the status line and announcer (round-status.ts), the room or mode switch
 * (switch-question.ts), the panels' drawer (panels/drawer-controller.ts) — and the scene's life
 * (the page's WebGL budget and the visibility that drives it, scene-slot.ts). The loader (the
 * element's definition) only draws the loading state, so none of this weighs on it.
 */
export * from './view.ts';
export { tableLayout } from '../layout.ts';
export { BetInput } from './bet-input.ts';
export { RoundStatus } from './round-status.ts';
export { SwitchQuestion } from './switch-question.ts';
export { totalStake } from '../../shared/table.ts';
export { ApiClient } from '../session/api-client.ts';
export { TableSession } from '../session/table-session.ts';
export { PanelsController } from '../panels/drawer-controller.ts';
export { panelsStyles } from '../styles/drawer.ts';
export { SceneSlot } from './scene-slot.ts';
export { TableControllers } from './table-controllers.ts';
export { TableAudio } from './table-audio.ts';
export { fullscreenState, measureChrome, runTool, tableShortcut, toggleFullscreen } from './table-input.ts';
