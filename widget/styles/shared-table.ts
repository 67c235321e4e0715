/**
 * A shared table's own pieces inside the table (element/shared-table-view.ts draws them): the HUD over
 * the felt (phase, clock, players), the table's totals on the boxes and the side column.
 */
import { css } from 'lit';

export const sharedStyles = css`
  .shared-hud {
    position: absolute;
    top: 8px;
    left: 10px;
    right: 10px;
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: 8px;
    pointer-events: none;
    z-index: 2;
    font-size: 12.5px;
  }
  .shared-line {
    display: flex;
    flex-wrap: wrap;
    gap: 5px;
    align-items: center;
    min-width: 0;
  }
  .shared-line > span {
    background: rgb(10 20 15 / 72%);
    border: 1px solid rgb(216 180 90 / 35%);
    border-radius: 999px;
    padding: 2px 9px;
    color: var(--pb-text, #f4efe4);
    white-space: nowrap;
  }
  .live::before {
    content: '';
    display: inline-block;
    width: 8px;
    height: 8px;
    margin-right: 6px;
    border-radius: 50%;
    background: #e0483e;
    box-shadow: 0 0 6px #e0483e;
  }
  .live.off::before {
    background: #8a8a8a;
    box-shadow: none;
  }
  .shared-line > .shared-name {
    font-weight: 600;
    color: var(--pb-gold, #d8b45a);
  }
  .shared-line > .shared-total {
    color: var(--pb-gold, #d8b45a);
  }
  .shared-clock {
    flex: none;
    display: flex;
    align-items: center;
    gap: 8px;
    background: rgb(10 20 15 / 78%);
    border: 1px solid rgb(216 180 90 / 45%);
    border-radius: 999px;
    padding: 2px 14px 2px 2px;
    color: var(--pb-text, #f4efe4);
    font-weight: 600;
  }
  .shared-clock .track {
    fill: rgb(0 0 0 / 35%);
    stroke: rgb(255 255 255 / 15%);
    stroke-width: 4;
  }
  .shared-clock .left {
    fill: none;
    stroke: #4cc38a;
    stroke-width: 4;
    stroke-linecap: round;
    transform: rotate(-90deg);
    transform-origin: 24px 24px;
    transition: stroke-dashoffset 0.25s linear;
  }
  .shared-clock.urgent .left {
    stroke: #e0a23e;
  }
  .shared-clock text {
    fill: var(--pb-text, #f4efe4);
    font: 700 17px var(--pb-font, system-ui, sans-serif);
  }
  .shared-clock.closed .clock-text {
    color: var(--pb-gold, #d8b45a);
  }
  .box-totals {
    position: absolute;
    inset: 0;
    pointer-events: none;
    z-index: 1;
  }
  .box-total {
    position: absolute;
    background: rgb(10 20 15 / 80%);
    color: var(--pb-gold, #d8b45a);
    border: 1px solid rgb(216 180 90 / 40%);
    border-radius: 999px;
    padding: 0 7px;
    font-size: 11px;
    font-weight: 600;
    line-height: 16px;
    white-space: nowrap;
  }
  .shared-side {
    display: grid;
    grid-template-columns: minmax(0, 2fr) minmax(0, 1fr);
    gap: 12px;
    padding: 10px 14px 14px;
    background: var(--pb-console, #151311);
    color: var(--pb-text, #f4efe4);
    border-top: 1px solid rgb(216 180 90 / 25%);
    font-size: 13px;
  }
  .shared-side .shared-help {
    grid-column: 1 / -1;
    color: var(--pb-muted, #b9b0a0);
  }
  .shared-side h3 {
    margin: 0 0 6px;
    font-size: 13px;
    font-weight: 600;
    color: var(--pb-gold, #d8b45a);
  }
  .shared-side p {
    margin: 0 0 4px;
    overflow-wrap: anywhere;
  }
  .shared-side .links {
    display: flex;
    gap: 12px;
  }
  .shared-side a {
    color: var(--pb-gold, #d8b45a);
  }
  .shared-side .hint {
    color: var(--pb-muted, #b9b0a0);
    font-size: 12px;
  }
  /* A beacon chain nobody can vouch for: a warning, not a footnote. */
  .shared-side .chain.unknown {
    border-left: 3px solid var(--pb-danger);
    padding-left: 6px;
    font-weight: 600;
  }
  /* The player's own bet failed its check against the signed close: evidence, said plainly. */
  .shared-side .proof[data-proof='failed'] {
    border-left: 3px solid var(--pb-danger);
    padding-left: 6px;
    font-weight: 600;
  }
  /* A phone: the players at the left of the plaque, the clock at its right, the limits between. */
  .shared-hud.compact {
    top: 4px;
    justify-content: space-between;
  }
  .compact .live,
  .compact .shared-name,
  .compact .shared-round,
  .compact .shared-total,
  .compact .clock-text {
    display: none;
  }
  .compact .shared-clock {
    padding: 2px;
  }
  @media (max-width: 640px) {
    .shared-side {
      grid-template-columns: 1fr;
    }
  }
`;
