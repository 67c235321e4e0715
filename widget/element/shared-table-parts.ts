/**
 * The shared-table client in its own lazy chunk, loaded only by a `<punto-banco-table table="…">`:
 * the controller that plays the table's WebSocket (../session/shared-table-session.ts) and what it draws
 * (shared-table-view.ts). A private table never loads it.
 */
export { SharedTableSession } from '../session/shared-table-session.ts';
export { renderSharedHud, renderSharedSide, type SharedTexts } from './shared-table-view.ts';
export { sharedStyles } from '../styles/shared-table.ts';
import { PANEL_STRINGS, type PanelStrings } from '../panels/strings.ts';

/** The scoreboard's texts from the element's catalogs (`panels.*`). */
export function panelStringsIn(t: (key: string) => string): PanelStrings {
  return Object.fromEntries(Object.keys(PANEL_STRINGS).map((k) => [k, t(`panels.${k}`)])) as PanelStrings;
}
