/**
 * Styles of the table's controls (loaded lazily with view.ts; loader.ts has the frame), in
 * cascade order: the felt's controls, the dialogs over the felt, the console, then the narrow
 * layouts that override them.
 */
import { css } from 'lit';
import { consoleStyles } from './console.ts';
import { feltDialogStyles } from './dialog.ts';
import { feltControlStyles } from './felt-controls.ts';
import { narrowStyles } from './narrow.ts';
import { squeezeStyles } from './squeeze.ts';

export const tableStyles = css`
  ${feltControlStyles}
  ${feltDialogStyles}
  ${consoleStyles}
  ${narrowStyles}
  ${squeezeStyles}
`;
