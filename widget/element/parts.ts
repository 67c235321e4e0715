/**
 * Everything the element needs once the table is up, in one lazy chunk loaded beside the catalogs:
 * the templates (view.ts) and the control styles (widget/styles), the table geometry, and the
 * controllers, made and held by table-controllers.ts — the session, shoe and round
 * (../session/table-session.ts, with the API client, the session kept for a reload and the shoe
 * start), the bet boxes' input with the bets and dragging (bet-input.ts), the status line and
 * announcer (round-status.ts), the room or mode switch (switch-question.ts), the panels' drawer
 * (panels/drawer-controller.ts) and the scene's life (the page's WebGL budget and the visibility
 * that drives it, scene-slot.ts). The loader (the element's definition) only draws the loading
 * state, so none of this weighs on it; it reads only what is exported here.
 */
export {
  explainApiError,
  renderBar,
  renderBoxes,
  renderChips,
  renderGhost,
  renderMessages,
  renderPlainRound,
  renderSwitchQuestion,
  tableStyles,
} from './view.ts';
export { renderWalletScreens } from './wallet-view.ts';
export { walletStyles } from '../styles/wallet.ts';
export { tableLayout } from '../layout.ts';
export { TableControllers } from './table-controllers.ts';
export { panelsStyles } from '../styles/drawer.ts';
export { measureChrome, tableShortcut, toggleFullscreen } from './table-input.ts';
