/**
 * <pb-road-glance>: the Bead Plate and the Big Road of the current shoe at a glance, under or beside
 * the felt (the panels' strip of a wide table; under the felt of a phone held sideways), so a player
 * sees the roads without opening the scoreboard. Every mark comes from `computeRoads`
 * (shared/roads.ts) and is drawn with the scoreboard's own marks (road-marks.ts): a small copy of
 * its two big boards. Each board shows its newest columns: when the shoe's road is longer than the
 * room, the oldest columns are cut off on the left. The picture is one image for screen readers,
 * named by the shoe's counts; the scoreboard panel keeps the full text version.
 *
 * @cssproperty --pb-glance-cell - Size of one cell of the two boards. Default 6px.
 */
import { css, html, LitElement, type PropertyValues, svg, type TemplateResult } from 'lit';
import { computeRoads, ROAD_ROWS, type Roads } from '../../shared/roads.ts';
import { cssProps } from '../element/css-props.ts';
import { defineElement, panelBase } from './base.ts';
import { beadMark, bigRoadMark, pendingTiesMark, roadMarkStyles, UNIT } from './road-marks.ts';
import type { ScoreboardResult } from './scoreboard.ts';
import { fill, type PanelStrings, panelStrings } from './strings.ts';

/** Empty columns a board shows at least, so that a fresh shoe still reads as a board. */
const MIN_COLUMNS = 8;

export class PbRoadGlance extends LitElement {
  static override properties = {
    results: { attribute: false },
    strings: { attribute: false },
  };

  /** The shoe's rounds in shoe order. A new array redraws. */
  declare results: readonly ScoreboardResult[];
  /** Text overrides (strings.ts); English by default. */
  declare strings: Partial<PanelStrings> | null;

  #roads: Roads = computeRoads([]);

  constructor() {
    super();
    this.results = [];
    this.strings = null;
  }

  /** The roads drawn (the scoreboard's figures, for tests). */
  get roads(): Roads {
    return this.#roads;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('results')) this.#roads = computeRoads(this.results ?? []);
  }

  protected override render(): TemplateResult {
    const s = panelStrings(this.strings);
    const roads = this.#roads;
    const letters = { banker: s.bankerLetter, player: s.playerLetter, tie: s.tieLetter };
    const big = roads.bigRoad;
    const label =
      roads.stats.rounds === 0 ? `${s.beadPlate}, ${s.bigRoad}: ${s.noResults}` : `${s.beadPlate}, ${s.bigRoad}: ${fill(s.summary, { ...roads.stats })}`;
    return html`<div class="boards" role="img" aria-label=${label}>
      ${this.#board(
        'bead',
        Math.ceil(roads.beadPlate.length / ROAD_ROWS),
        roads.beadPlate.map((cell) => beadMark(cell, letters)),
      )}
      ${this.#board(
        'big-road',
        Math.max(big.drawn.columns, big.pendingTies > 0 ? 1 : 0),
        svg`${big.pendingTies > 0 ? pendingTiesMark(big.pendingTies) : null}${big.drawn.cells.map((cell) => bigRoadMark(cell))}`,
      )}
    </div>`;
  }

  /** One board: its marks in a grid of `used` columns (and one spare), the newest at the right end. */
  #board(name: string, used: number, marks: unknown): TemplateResult {
    const columns = Math.max(MIN_COLUMNS, used + 1);
    return html`<div class="board ${name}" ${cssProps({ '--columns': String(columns) })}>
      <svg viewBox="0 0 ${columns * UNIT} ${ROAD_ROWS * UNIT}" preserveAspectRatio="xMinYMin meet" data-columns=${used} aria-hidden="true">
        ${marks}
      </svg>
    </div>`;
  }

  static override styles = [
    panelBase,
    roadMarkStyles,
    css`
      :host {
        --_cell: var(--pb-glance-cell, 6px);
        container-type: inline-size;
        padding: 0;
        border: 0;
        background: transparent;
        min-width: 0;
      }
      /* Too little room to read a board: nothing rather than a sliver. */
      @container (max-width: 110px) {
        .boards {
          display: none;
        }
      }
      .boards {
        display: flex;
        gap: 6px;
        height: calc(${ROAD_ROWS} * var(--_cell) + 2px);
      }
      /* The newest columns stay in view: a board wider than its room is cut on the left. */
      .board {
        display: flex;
        justify-content: flex-end;
        min-width: 0;
        overflow: hidden;
        border: 1px solid var(--_board-grid);
        border-radius: 3px;
        background: var(--_board);
      }
      .board.bead {
        flex: 0 1 calc(var(--columns) * var(--_cell) + 2px);
        max-width: 40%;
      }
      .board.big-road {
        flex: 1 1 0;
      }
      svg {
        display: block;
        flex: none;
        width: max(100%, calc(var(--columns) * var(--_cell)));
        height: calc(${ROAD_ROWS} * var(--_cell));
        background-image: linear-gradient(to right, var(--_board-grid) 1px, transparent 1px), linear-gradient(to bottom, var(--_board-grid) 1px, transparent 1px);
        background-size: var(--_cell) var(--_cell);
      }
    `,
  ];
}

defineElement('pb-road-glance', PbRoadGlance);

declare global {
  interface HTMLElementTagNameMap {
    'pb-road-glance': PbRoadGlance;
  }
}
