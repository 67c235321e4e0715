/** Styles of the table's controls (loaded lazily with view.ts; loader-styles.ts has the frame). */
import { css, unsafeCSS } from 'lit';
import { CHIP_TONES, css as hex } from '../scene/palette.ts';

/**
 * The tray's chip colours are the felt's (palette.ts): one palette, read by both. The `--pb-chip-N`
 * defaults live here, not in the loader (the loading overlay shows no chips); a page's own value
 * on the element still wins over `:host`.
 */
const chipDefaults = unsafeCSS(`:host { ${CHIP_TONES.map((tone, i) => `--pb-chip-${i + 1}: ${hex(tone.base)};`).join(' ')} }`);

/** Each tray chip's ink, the felt's (palette.ts); `data-tone` is the chip's rank, 1-based. */
const chipInks = unsafeCSS(
  CHIP_TONES.map((tone, i) => `.chip[data-tone='${i + 1}'] { --chip: var(--pb-chip-${i + 1}); --chip-ink: ${hex(tone.text)}; }`).join('\n'),
);

export const tableStyles = css`
  ${chipDefaults}
  .boxes,
  .tray {
    position: absolute;
    inset: 0;
    pointer-events: none;
  }
  button {
    font: inherit;
    color: inherit;
    cursor: pointer;
  }
  button:focus-visible {
    outline: 3px solid var(--pb-focus-ring);
    outline-offset: 2px;
  }
  button[aria-disabled='true'] {
    cursor: not-allowed;
    opacity: 0.45;
  }
  .box {
    position: absolute;
    pointer-events: auto;
    margin: 0;
    padding: 0;
    border: 0;
    border-radius: 12px;
    background: transparent;
    touch-action: none;
    transition: background-color 120ms ease, box-shadow 120ms ease;
  }
  /* The scene glows the printed box on hover and drag-over; without a scene the button shows it. */
  :host(:not([data-scene])) .box:hover,
  :host(:not([data-scene])) .box.drop {
    background: rgb(255 240 190 / 10%);
    box-shadow: inset 0 0 0 2px rgb(255 230 150 / 45%);
  }
  /* The plain felt (no WebGL, or waiting for a WebGL slot): the buttons draw the boxes and bets. */
  .plain {
    display: none;
  }
  :host([data-plain]) .box {
    background: rgb(255 255 255 / 4%);
    box-shadow: inset 0 0 0 1px rgb(216 180 90 / 55%);
  }
  :host([data-plain]) .plain {
    display: flex;
    flex-direction: column;
    align-items: center;
    justify-content: center;
    gap: 3px;
    height: 100%;
    pointer-events: none;
  }
  .plain-name {
    font-family: Georgia, 'Times New Roman', serif;
    font-weight: 700;
    font-size: clamp(9px, 1.5cqi, 15px);
    letter-spacing: 0.08em;
    text-transform: uppercase;
  }
  .box[data-box='player'] .plain-name {
    color: #8fc3ff;
  }
  .box[data-box='banker'] .plain-name {
    color: #ff9c8f;
  }
  .box[data-box='tie'] .plain-name {
    color: #f3d77a;
  }
  /* With a bet, the name moves up and the amount sits under it (.plain-stack, the same rotated box). */
  :host([data-plain]) .box.bet .plain-name {
    transform: translateY(-0.7em);
  }
  .plain-stack {
    display: none;
  }
  :host([data-plain]) .plain-stack {
    position: absolute;
    display: flex;
    align-items: center;
    justify-content: center;
    padding-top: 1.6em;
    box-sizing: border-box;
    pointer-events: none;
  }
  .plain-bet {
    padding: 1px 7px;
    border-radius: 999px;
    background: var(--pb-gold);
    color: #1b1408;
    font-weight: 800;
    font-size: clamp(9px, 1.3cqi, 13px);
  }
  .plain-round {
    display: none;
  }
  :host([data-plain]) .plain-round {
    display: block;
    position: absolute;
    inset: 0;
    pointer-events: none;
  }
  .plain-hand,
  .plain-result {
    position: absolute;
    box-sizing: border-box;
    display: flex;
    flex-direction: column;
    align-items: center;
    justify-content: center;
    gap: 6px;
  }
  .plain-hand {
    border: 1px solid rgb(216 180 90 / 45%);
    border-radius: 10px;
  }
  .plain-hand-name {
    font-family: Georgia, 'Times New Roman', serif;
    font-weight: 700;
    letter-spacing: 0.1em;
    text-transform: uppercase;
    font-size: clamp(10px, 1.6cqi, 16px);
  }
  .plain-hand.player .plain-hand-name {
    color: #8fc3ff;
  }
  .plain-hand.banker .plain-hand-name {
    color: #ff9c8f;
  }
  .plain-cards {
    display: flex;
    gap: 4px;
  }
  .plain-card {
    min-width: 1.9em;
    padding: 0.35em 0.3em;
    border-radius: 5px;
    background: #fbf8f0;
    color: #1c1c1c;
    font-weight: 800;
    font-size: clamp(11px, 1.9cqi, 20px);
    text-align: center;
    box-shadow: 0 2px 4px rgb(0 0 0 / 40%);
  }
  .plain-card.red {
    color: #c0262d;
  }
  .plain-result {
    border-radius: 999px;
    background: rgb(0 0 0 / 55%);
    border: 1px solid var(--pb-gold);
    color: var(--pb-text);
    font-weight: 700;
    font-size: clamp(11px, 1.6cqi, 16px);
  }
  .box:focus-visible {
    outline-offset: -3px;
    box-shadow: 0 0 0 6px rgb(255 226 138 / 35%);
  }
  .box[aria-disabled='true'] {
    opacity: 1;
  }
  .tray .chips {
    position: absolute;
    display: flex;
    align-items: center;
    justify-content: center;
    gap: clamp(6px, 1.4cqi, 14px);
    pointer-events: auto;
  }
  .chip {
    --chip: var(--pb-chip-1);
    --chip-ink: #1b1b1b;
    position: relative;
    flex: none;
    width: var(--chip-size, 52px);
    height: var(--chip-size, 52px);
    border-radius: 50%;
    border: 0;
    padding: 0;
    color: var(--chip-ink);
    font-weight: 800;
    font-size: calc(var(--chip-size, 52px) * 0.27);
    letter-spacing: -0.02em;
    background:
      radial-gradient(circle, var(--chip) 0 52%, transparent 53%),
      repeating-conic-gradient(from 8deg, #fff 0 12deg, var(--chip) 12deg 45deg);
    box-shadow:
      inset 0 0 0 calc(var(--chip-size, 52px) * 0.08) var(--chip),
      inset 0 0 0 calc(var(--chip-size, 52px) * 0.1) rgb(0 0 0 / 25%),
      0 3px 0 rgb(0 0 0 / 35%),
      0 6px 12px rgb(0 0 0 / 35%);
    touch-action: none;
    transition: transform 120ms ease, box-shadow 120ms ease;
  }
  .chip::after {
    content: '';
    position: absolute;
    inset: 22%;
    border-radius: 50%;
    border: 1.5px dashed color-mix(in srgb, var(--chip-ink) 45%, transparent);
  }
  .chip:hover {
    transform: translateY(-3px);
  }
  .chip[aria-pressed='true'] {
    transform: translateY(-6px);
    box-shadow:
      inset 0 0 0 calc(var(--chip-size, 52px) * 0.08) var(--chip),
      inset 0 0 0 calc(var(--chip-size, 52px) * 0.1) rgb(0 0 0 / 25%),
      0 0 0 3px var(--pb-gold),
      0 0 18px 4px rgb(255 215 120 / 55%);
  }
  ${chipInks}
  .ghost {
    display: grid;
    place-content: center;
    position: absolute;
    left: 0;
    top: 0;
    pointer-events: none;
    z-index: 5;
    opacity: 0.9;
    --chip-size: 46px;
  }
  .bar {
    /* The buttons' arrangement follows the bar's own width (a pane may stand beside the felt). */
    container: bar / inline-size;
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 10px 14px;
    padding: 12px 16px;
    background: linear-gradient(180deg, #1e1b18, var(--pb-console));
    border-top: 1px solid rgb(216 180 90 / 35%);
  }
  .meters {
    display: flex;
    gap: 18px;
    min-width: 0;
  }
  .meter {
    display: grid;
    line-height: 1.15;
  }
  .meter .label {
    font-size: 11px;
    text-transform: uppercase;
    letter-spacing: 0.12em;
    color: var(--pb-muted);
  }
  .meter output {
    font-size: 19px;
    font-weight: 700;
    font-variant-numeric: tabular-nums;
    color: var(--pb-gold);
  }
  .status {
    flex: 1 1 160px;
    min-width: 0;
    font-size: 14px;
    color: var(--pb-muted);
    text-align: center;
  }
  .status.problem {
    color: #ffd3c9;
  }
  /*
   * The buttons stay one row: a long label (Italian, Greek) takes two lines inside its button
   * rather than pushing the last button, Deal, alone onto a second row.
   */
  .actions {
    display: flex;
    flex-wrap: nowrap;
    gap: 8px;
    margin-left: auto;
  }
  .action {
    min-width: 0;
    line-height: 1.15;
    min-height: 40px;
    padding: 8px 14px;
    border-radius: 999px;
    border: 1px solid rgb(216 180 90 / 45%);
    background: var(--pb-button);
    color: var(--pb-button-text);
    font-size: 14px;
    font-weight: 600;
    letter-spacing: 0.02em;
  }
  .action:not([aria-disabled='true']):hover {
    background: color-mix(in srgb, var(--pb-button) 80%, white);
  }
  .action.deal {
    flex: none;
    padding-inline: 26px;
    border: 0;
    background: linear-gradient(180deg, color-mix(in srgb, var(--pb-deal) 80%, white), var(--pb-deal));
    color: var(--pb-deal-text);
    font-weight: 800;
    text-transform: uppercase;
    letter-spacing: 0.08em;
    box-shadow: 0 3px 0 rgb(0 0 0 / 40%);
  }
  .action.deal:not([aria-disabled='true']):hover {
    background: linear-gradient(180deg, color-mix(in srgb, var(--pb-deal) 65%, white), var(--pb-deal));
  }
  .notice {
    position: absolute;
    left: 50%;
    top: 50%;
    transform: translate(-50%, -50%);
    z-index: 6;
    max-width: min(92%, 460px);
    padding: 16px 18px;
    border-radius: 14px;
    background: rgb(20 14 10 / 92%);
    border: 1px solid var(--pb-danger);
    box-shadow: 0 12px 40px rgb(0 0 0 / 55%);
    text-align: center;
    font-size: 15px;
    line-height: 1.4;
  }
  .notice .buttons {
    display: flex;
    justify-content: center;
    gap: 8px;
    margin-top: 12px;
  }
  .notice .retry {
    border-color: var(--pb-gold);
    background: var(--pb-gold);
    color: #1b1406;
  }
  .switch-question {
    position: absolute;
    left: 50%;
    top: 50%;
    transform: translate(-50%, -50%);
    z-index: 6;
    width: min(92%, 440px);
    padding: 14px 18px;
    border-radius: 12px;
    background: rgb(10 20 15 / 96%);
    border: 1px solid var(--pb-gold);
    box-shadow: 0 10px 30px rgb(0 0 0 / 55%);
    color: var(--pb-text);
  }
  .switch-question h2 {
    margin: 0 0 6px;
    font-size: 16px;
  }
  .switch-question p {
    margin: 0 0 12px;
    font-size: 13.5px;
    line-height: 1.4;
  }
  .switch-question .buttons {
    display: flex;
    flex-wrap: wrap;
    justify-content: flex-end;
    gap: 8px;
  }
  .session-summary {
    position: relative;
    align-self: center;
    font-size: 12px;
  }
  .session-summary > summary {
    cursor: pointer;
    color: var(--pb-muted);
    text-decoration: underline dotted;
  }
  .summary-card {
    position: absolute;
    bottom: calc(100% + 6px);
    left: 0;
    z-index: 5;
    min-width: 190px;
    padding: 8px 12px;
    border-radius: 8px;
    background: var(--pb-console);
    border: 1px solid rgb(216 180 90 / 45%);
    box-shadow: 0 8px 20px rgb(0 0 0 / 45%);
  }
  .summary-card dl {
    display: grid;
    grid-template-columns: auto auto;
    gap: 3px 12px;
    margin: 0;
  }
  .summary-card dd {
    margin: 0;
    text-align: end;
    font-variant-numeric: tabular-nums;
    color: var(--pb-text);
  }
  .toast {
    position: absolute;
    left: 50%;
    top: var(--toast-top, 40%);
    transform: translateX(-50%);
    z-index: 4;
    width: max-content;
    max-width: min(92%, 560px);
    padding: 10px 16px;
    border-radius: 10px;
    background: rgb(30 12 8 / 92%);
    border: 1px solid var(--pb-danger);
    box-shadow: 0 8px 24px rgb(0 0 0 / 45%);
    line-height: 1.35;
    font-size: 14px;
    text-align: center;
    pointer-events: none;
  }
  /*
   * The whole table fits the viewport: the felt is 16:10 (phone: 3:4) of its width, but never
   * taller than the viewport leaves for it over the bar and the panels' strip (--pb-chrome,
   * measured by the element); the width stays. The layout (layout.ts) fits any proportion.
   * --pb-fit-offset: the height of the page's own things that should stay on screen with the table
   * (a header above it); --pb-stage-max-height: none lifts the cap, for a page whose height follows
   * the table (the /embed frame sized by its helper).
   */
  .stage {
    max-height: var(--pb-stage-max-height, max(200px, calc(100dvh - var(--pb-chrome, 0px) - var(--pb-fit-offset, 0px))));
  }
  :host(:fullscreen) {
    background: var(--pb-console);
    overflow: auto;
  }
  :host(:fullscreen) .table {
    border-radius: 0;
  }
  .action.repeatDeal {
    border-color: var(--pb-deal);
  }
  .tools {
    display: flex;
    gap: 6px;
    align-items: center;
  }
  .tool {
    display: inline-grid;
    place-items: center;
    min-width: 36px;
    min-height: 36px;
    padding: 4px 8px;
    border-radius: 999px;
    border: 1px solid rgb(216 180 90 / 30%);
    background: transparent;
    color: var(--pb-muted);
    font-size: 12px;
    font-weight: 600;
  }
  .tool[aria-pressed='true'] {
    color: var(--pb-gold);
    background: rgb(216 180 90 / 14%);
  }
  .tool.mode {
    color: var(--pb-text);
    letter-spacing: 0.04em;
  }
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
     * the height its phone layout needs (layout.ts), and the page scrolls to the bar below it.
     */
    .stage {
      max-height: var(--pb-stage-max-height, max(118cqi, calc(100dvh - var(--pb-chrome, 0px) - var(--pb-fit-offset, 0px))));
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
      display: grid;
      grid-template-columns: minmax(0, 1fr) clamp(176px, 25vw, 214px);
      grid-template-rows: 1fr auto;
    }
    .table > .stage {
      grid-column: 1;
      grid-row: 1 / span 2;
      aspect-ratio: auto;
      height: max(240px, 100dvh);
      max-height: 100dvh;
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
      position: absolute;
      width: 1px;
      height: 1px;
      overflow: hidden;
      clip-path: inset(50%);
      white-space: nowrap;
    }
    .bar .status {
      order: 2;
      flex: none;
      font-size: 11.5px;
      line-height: 1.25;
      text-align: left;
      overflow-wrap: anywhere;
    }
    .bar .meters {
      display: grid;
      grid-template-columns: minmax(0, 1fr) minmax(0, 1fr);
      gap: 2px 8px;
    }
    .meter:first-child {
      grid-column: 1 / -1;
    }
    .meter .label {
      font-size: 9.5px;
      overflow: hidden;
      text-overflow: ellipsis;
      white-space: nowrap;
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
      gap: 4px;
    }
    .tool.mode {
      flex: 1 1 auto;
      min-width: 0;
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
    .bar .action.deal,
    .bar .action.repeatDeal {
      grid-column: span 2;
      min-height: 32px;
      padding-inline: 4px;
      font-size: 12.5px;
    }
    .tool {
      flex: none;
      min-width: 30px;
      min-height: 30px;
      padding: 2px 5px;
    }
  }
`;
