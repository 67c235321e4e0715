/**
 * The console under the felt: the meters, the status line, the action buttons, the notices and
 * questions, the session summary, the toast, the tools; and the stage's fit to the viewport.
 */
import { css } from 'lit';

export const consoleStyles = css`
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
    /* Each name over its figure, at the top of the row, however many lines a neighbour takes. */
    align-content: start;
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
  /* The switch question: a dialog over the felt (dialog.ts). */
  .switch-question {
    z-index: 6;
    padding: 14px 18px;
  }
  .switch-question h2 {
    font-size: 16px;
  }
  .switch-question p {
    margin: 0 0 12px;
    font-size: 13.5px;
    line-height: 1.4;
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
  /*
   * A refusal: centred in the felt's empty room that the layout gives (layout.ts toast, toastByCards:
   * --toast-x its middle, --toast-y its top, --toast-w its width), so that no box,
   * card or chip is under it; beside the dealt cards or the offer of the cut, whose room is a line
   * or two, in a smaller type. The rooms are sized for these types (layout.ts TOAST_LINE and the like).
   */
  .toast {
    position: absolute;
    left: var(--toast-x, 50%);
    top: var(--toast-y, 40%);
    transform: translateX(-50%);
    z-index: 4;
    box-sizing: border-box;
    width: max-content;
    max-width: var(--toast-w, 92%);
    padding: 6px 14px;
    border-radius: 10px;
    background: rgb(30 12 8 / 92%);
    border: 1px solid var(--pb-danger);
    box-shadow: 0 8px 24px rgb(0 0 0 / 45%);
    line-height: 1.25;
    font-size: 14px;
    text-align: center;
    pointer-events: none;
  }
  .toast.by-cards,
  .invite ~ .toast {
    padding: 2px 10px;
    border-radius: 8px;
    line-height: 1.15;
    font-size: 11px;
  }
  /* The offer of the cut stands over the hands: the refusal goes above or under it, or over its top (layout.ts toastByOffer). */
  .invite ~ .toast {
    left: var(--toast-offer-x, 50%);
    top: var(--toast-offer-y, 4px);
    max-width: var(--toast-offer-w, 92%);
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
`;
