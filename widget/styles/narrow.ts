/**
 * The table in little room: a narrow bar or container (buttons in rows, smaller words), then a
 * phone held sideways (the bar beside the felt). Comes last in the table's styles, so it wins.
 */
import { css } from 'lit';
import { visuallyHidden } from './visually-hidden.ts';

export const narrowStyles = css`
  /* A bar too narrow for the six in one row: two rows of three (Deal never alone). */
  @container bar (max-width: 1000px) {
    .actions {
      display: grid;
      grid-template-columns: repeat(3, minmax(0, 1fr));
      flex: 1 1 100%;
    }
  }
  @container (max-width: 1040px) {
    /* Meters and buttons share the first row; the status line gets its own. */
    .status {
      order: 5;
      flex-basis: 100%;
      text-align: left;
    }
  }
  @container (max-width: 640px) {
    .status {
      order: 0;
      text-align: center;
    }
    .bar {
      display: grid;
      grid-template-columns: 1fr;
      padding: 10px;
      gap: 8px;
    }
    .meters {
      justify-content: space-between;
    }
    .meter output {
      font-size: 17px;
    }
    .actions {
      display: grid;
      grid-template-columns: repeat(4, 1fr);
      margin-left: 0;
      gap: 6px;
    }
    /* Four to a row: a long word (Greek, Russian) gets a smaller size, and breaks only if it must. */
    .action {
      padding: 6px 3px;
      font-size: clamp(10.5px, 3.1cqi, 13px);
      letter-spacing: 0;
      overflow-wrap: anywhere;
      hyphens: auto;
    }
    /* The one word too long for a quarter of a phone (Greek Double): a smaller size, never broken. */
    .table:lang(el) .action.double {
      padding-inline: 2px;
      font-size: clamp(9.5px, 2.75cqi, 12px);
      letter-spacing: -0.01em;
      overflow-wrap: normal;
    }
    .action.deal,
    .action.repeatDeal {
      grid-column: span 2;
      min-height: 46px;
      padding-inline: 8px;
      font-size: 15px;
      letter-spacing: 0.04em;
      overflow-wrap: normal;
    }
    /*
     * A short phone (360×640) leaves the felt too little height over the bar: it keeps at least
     * the height its phone layout needs (layout.ts), no more, so that Deal stays on screen under
     * the longest status line; the tools and the panels' strip follow below (the page scrolls).
     */
    .stage {
      max-height: var(--pb-stage-max-height, max(108cqi, calc(100dvh - var(--pb-chrome, 0px) - var(--pb-fit-offset, 0px))));
    }
    .tools {
      order: 1;
      justify-content: center;
    }
  }
  /*
   * A phone held sideways: the felt takes the whole height, the bar and the panels' strip a
   * column beside it, every control of the wide bar there too. Last, so that it wins over the
   * narrow container rules above (a 640 px wide phone is also a narrow container).
   */
  @media (orientation: landscape) and (max-height: 520px) {
    .table {
      /* The column beside the felt, and the room under the felt for the roads at a glance (none on a low screen). */
      --pb-side: clamp(176px, 25vw, 214px);
      --pb-glance-room: 0px;
      display: grid;
      grid-template-columns: minmax(0, 1fr) var(--pb-side);
      grid-template-rows: 1fr auto;
      min-height: max(240px, 100dvh);
    }
    .table > .stage {
      grid-column: 1;
      grid-row: 1 / span 2;
      align-self: start;
      aspect-ratio: auto;
      height: calc(max(240px, 100dvh) - var(--pb-glance-room));
      max-height: calc(100dvh - var(--pb-glance-room));
    }
    /* The roads at a glance: under the felt, in the room it leaves, clear of the column beside it. */
    .table > .drawer-bar .road-glance {
      position: absolute;
      left: 8px;
      bottom: 3px;
      width: calc(100% - var(--pb-side) - 16px);
      max-width: none;
      margin: 0;
    }
    .table > .bar {
      grid-column: 2;
      grid-row: 1;
      display: flex;
      flex-direction: column;
      align-items: stretch;
      justify-content: flex-start;
      flex-wrap: nowrap;
      min-width: 0;
      padding: 8px;
      gap: 6px;
      border-top: 0;
      border-left: 1px solid rgb(216 180 90 / 35%);
    }
    /* One row: the session summary's word, then the four launchers (a second row would leave the screen). */
    .table > .drawer-bar {
      grid-column: 2;
      grid-row: 2;
      flex-wrap: nowrap;
      gap: 6px;
      padding: 6px 8px 8px;
      border-left: 1px solid rgb(216 180 90 / 35%);
    }
    .table > .drawer-bar .session-summary {
      flex: none;
    }
    /* The summary as an icon, like the launchers: its word stays its accessible name. */
    .table > .drawer-bar .session-summary > summary {
      display: grid;
      place-items: center;
      box-sizing: border-box;
      min-width: 28px;
      min-height: 32px;
      font-size: 0;
      list-style: none;
      text-decoration: none;
      border: 1px solid rgb(216 180 90 / 35%);
      border-radius: 8px;
    }
    .table > .drawer-bar .session-summary > summary::before {
      content: 'Σ';
      font-size: 15px;
      color: var(--pb-text);
    }
    .table > .drawer-bar .launchers {
      display: grid;
      grid-template-columns: repeat(4, 1fr);
      flex: 1;
      width: auto;
      min-width: 0;
      margin: 0;
      gap: 4px;
    }
    /* Icons only: the names stay the buttons' accessible names. */
    .table > .drawer-bar .launcher {
      flex-direction: row;
      justify-content: center;
      min-height: 32px;
      padding: 3px;
    }
    .table > .drawer-bar .launcher .label {
      ${visuallyHidden}
    }
    .bar .status {
      order: 2;
      flex: none;
      font-size: 11.5px;
      line-height: 1.25;
      text-align: left;
      overflow-wrap: anywhere;
    }
    /* A column is never narrower than its longest word: a meter's name is never cut. */
    .bar .meters {
      display: grid;
      grid-template-columns: repeat(2, minmax(min-content, 1fr));
      gap: 2px 8px;
    }
    .meter:first-child {
      grid-column: 1 / -1;
    }
    /* A name too long for its half of the column takes a second line (at a space), never an ellipsis. */
    .meter .label {
      font-size: 9.5px;
      letter-spacing: 0.08em;
      overflow-wrap: normal;
    }
    .bar .meter output {
      font-size: 15px;
    }
    /* What came back and the net: two figures in a narrow cell, in a smaller size. */
    .bar .meter[part='win'] output {
      font-size: 12px;
    }
    .bar .tools {
      order: 4;
      flex-wrap: nowrap;
      justify-content: space-between;
      gap: 3px;
    }
    /* The mode's word takes what the three icons leave, in a smaller size: whole in every language. */
    .tool.mode {
      flex: 1 1 auto;
      min-width: 0;
      padding-inline: 3px;
      font-size: 10px;
      letter-spacing: 0;
      overflow: hidden;
      text-overflow: ellipsis;
      white-space: nowrap;
    }
    .bar .actions {
      order: 3;
      display: grid;
      grid-template-columns: minmax(0, 1fr) minmax(0, 1fr);
      margin: 0;
      gap: 4px;
    }
    .bar .action {
      min-width: 0;
      min-height: 30px;
      padding: 3px 2px;
      font-size: 11px;
      letter-spacing: -0.01em;
      line-height: 1.1;
      overflow-wrap: anywhere;
    }
    /* Greek words are the longest of the half-width buttons ("Καθαρισμός"): a smaller size, never broken. */
    .table:lang(el) .bar .action:not(.deal, .repeatDeal) {
      padding-inline: 1px;
      font-size: 9.5px;
      letter-spacing: -0.03em;
      overflow-wrap: normal;
    }
    .bar .action.deal,
    .bar .action.repeatDeal {
      grid-column: span 2;
      min-height: 32px;
      padding-inline: 4px;
      font-size: 12.5px;
    }
    .tool {
      flex: none;
      min-width: 26px;
      min-height: 30px;
      padding: 2px 3px;
    }
  }
  @media (orientation: landscape) and (max-height: 520px) and (min-height: 380px) {
    .table {
      --pb-glance-room: 44px;
    }
  }
  /* A lower phone held sideways (640×360) keeps the felt's whole height: the roads stay in the scoreboard. */
  @media (orientation: landscape) and (max-height: 379.98px) {
    .table > .drawer-bar .road-glance {
      display: none;
    }
  }
`;
