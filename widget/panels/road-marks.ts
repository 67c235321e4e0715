/**
 * The marks of the five roads as SVG, in the standard casino look. Every road is drawn in a unit
 * grid of 10 × 10 per cell; CSS sizes the <svg> (cells × --cell), so one drawing serves phones and
 * desktops. Colours come from the panel's custom properties through classes.
 *
 * - Bead Plate: filled disc with the letter, pair dots (Banker pair red top-left, Player pair blue
 *   bottom-right), a gold ring for a natural.
 * - Big Road: hollow ring, a green slash for ties (with the count when more than one), pair dots.
 * - Big Eye Boy: small hollow ring; Small Road: small filled dot; Cockroach Pig: a slash.
 */
import { css, svg, type SVGTemplateResult } from 'lit';
import type { BeadCell, BigRoadEntry, DerivedRoadName, DrawnCell, RoadColour } from '../../shared/roads.ts';

export const UNIT = 10;

export interface Letters {
  banker: string;
  player: string;
  tie: string;
}

function at(column: number, row: number, body: SVGTemplateResult, extraClass = ''): SVGTemplateResult {
  return svg`<g class="mark ${extraClass}" transform="translate(${column * UNIT} ${row * UNIT})">${body}</g>`;
}

function pairDots(bankerPair: boolean, playerPair: boolean): SVGTemplateResult {
  return svg`${bankerPair ? svg`<circle class="pair banker" cx="1.9" cy="1.9" r="1.55"></circle>` : null}${
    playerPair ? svg`<circle class="pair player" cx="8.1" cy="8.1" r="1.55"></circle>` : null
  }`;
}

/** A Bead Plate cell at its own column and row. */
export function beadMark(cell: BeadCell, letters: Letters, extraClass = ''): SVGTemplateResult {
  const letter = letters[cell.outcome];
  return at(
    cell.column,
    cell.row,
    svg`${cell.natural ? svg`<circle class="natural" cx="5" cy="5" r="4.55"></circle>` : null}
      <circle class="disc ${cell.outcome}" cx="5" cy="5" r="3.95"></circle>
      <text class="letter" x="5" y="5.15">${letter}</text>
      ${pairDots(cell.bankerPair, cell.playerPair)}`,
    extraClass,
  );
}

/** A tie slash, with the count written over it when there are several. */
function tieSlash(ties: number): SVGTemplateResult {
  return svg`<line class="tie-slash" x1="2.2" y1="7.8" x2="7.8" y2="2.2"></line>${ties > 1 ? svg`<text class="tie-count" x="5" y="5.2">${ties}</text>` : null}`;
}

/** A Big Road cell where it is drawn (dragon tails included). */
export function bigRoadMark(cell: DrawnCell<BigRoadEntry>, extraClass = ''): SVGTemplateResult {
  const entry = cell.value;
  return at(
    cell.column,
    cell.row,
    svg`<circle class="ring ${entry.winner}" cx="5" cy="5" r="3.55"></circle>
      ${entry.ties > 0 ? tieSlash(entry.ties) : null}
      ${pairDots(entry.bankerPair, entry.playerPair)}`,
    extraClass,
  );
}

/** Ties with no Banker/Player win yet: drawn in the first cell until the first win comes. */
export function pendingTiesMark(ties: number): SVGTemplateResult {
  return at(0, 0, tieSlash(ties));
}

/** One mark of a derived road, in that road's own style. */
export function derivedShape(road: DerivedRoadName, colour: RoadColour): SVGTemplateResult {
  switch (road) {
    case 'bigEyeBoy':
      return svg`<circle class="eye ${colour}" cx="5" cy="5" r="3.3"></circle>`;
    case 'smallRoad':
      return svg`<circle class="dot ${colour}" cx="5" cy="5" r="3.6"></circle>`;
    case 'cockroachPig':
      return svg`<line class="roach ${colour}" x1="2.2" y1="7.8" x2="7.8" y2="2.2"></line>`;
  }
}

export function derivedMark(road: DerivedRoadName, cell: DrawnCell<RoadColour>, extraClass = ''): SVGTemplateResult {
  return at(cell.column, cell.row, derivedShape(road, cell.value), extraClass);
}

/** The marks' look, from the panels' colours (panelBase): the scoreboard and the glance under the felt both draw with it. */
export const roadMarkStyles = css`
  .disc.banker {
    fill: var(--_banker);
  }
  .disc.player {
    fill: var(--_player);
  }
  .disc.tie {
    fill: var(--_tie);
  }
  .letter {
    fill: #fff;
    font: 700 5.4px var(--_font);
    text-anchor: middle;
    dominant-baseline: central;
  }
  .natural {
    fill: none;
    stroke: #d2a935;
    stroke-width: 0.6;
  }
  .pair {
    stroke: #fff;
    stroke-width: 0.55;
  }
  .pair.banker {
    fill: var(--_banker);
  }
  .pair.player {
    fill: var(--_player);
  }
  .ring {
    fill: none;
    stroke-width: 1.45;
  }
  .ring.banker {
    stroke: var(--_banker);
  }
  .ring.player {
    stroke: var(--_player);
  }
  .tie-slash {
    stroke: var(--_tie);
    stroke-width: 1.3;
    stroke-linecap: round;
  }
  .tie-count {
    fill: #0d6b31;
    font: 700 4.6px var(--_font);
    text-anchor: middle;
    dominant-baseline: central;
    paint-order: stroke;
    stroke: var(--_board);
    stroke-width: 1.2px;
  }
  .eye {
    fill: none;
    stroke-width: 1.7;
  }
  .eye.red,
  .dot.red,
  .roach.red {
    stroke: var(--_banker);
  }
  .eye.blue,
  .dot.blue,
  .roach.blue {
    stroke: var(--_player);
  }
  .dot.red {
    fill: var(--_banker);
    stroke: none;
  }
  .dot.blue {
    fill: var(--_player);
    stroke: none;
  }
  .roach {
    stroke-width: 2;
    stroke-linecap: round;
  }
  line.none {
    stroke: #aaa;
    stroke-width: 1.2;
    stroke-linecap: round;
  }
`;
