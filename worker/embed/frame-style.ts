/**
 * The /embed frame's one inline style and the CSP hash that allows it (frame.ts). A module of
 * its own, free of the Worker's runtime, so that the screenshot tooling can frame a table the same way.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * The page's one style: the frame is the table's (no margins, the console's colour behind it),
 * centred by auto margins so that a frame shorter than the table scrolls instead of cutting off
 * its top. In a wide, short frame the width is capped so that the 16:10 felt and the control bar
 * fit the height, but never below 660px, where the table would switch to its tall phone layout.
 * A phone held sideways (the table's own rule: landscape, at most 520px high) is not capped: the
 * table puts its controls in a column beside the felt and fills the whole frame.
 */
export const FRAME_STYLE =
  'html,body{height:100%;margin:0}' +
  'body{display:flex;background:#151312;color-scheme:dark}' +
  'punto-banco-table{margin:auto;width:100%;max-width:max(660px,calc((100vh - 140px) * 1.6))}' +
  // Sized by the helper (/embed.js): the frame's height follows the table, so the table may not follow the frame's.
  'html[data-pb-fit=content],html[data-pb-fit=content] body{height:auto}' +
  'html[data-pb-fit=content] punto-banco-table{max-width:none;--pb-stage-max-height:none}' +
  '@media (orientation:landscape) and (max-height:520px){punto-banco-table{max-width:none}}';

/** `'sha256-…'`: the CSP source that allows FRAME_STYLE and nothing else inline. */
export const FRAME_STYLE_HASH = `'sha256-${btoa(String.fromCharCode(...sha256(utf8ToBytes(FRAME_STYLE))))}'`;
