/**
 * <pb-scoreboard>: the five roads of the current shoe, its statistics and the "ask banker / ask
 * player" predictions. Every figure comes from `computeRoads` (shared/roads.ts); this file only
 * draws. Boards scroll sideways and keep the newest column in view as the shoe grows; a visually
 * hidden text version (a summary per road and a table of rounds) serves screen readers.
 *
 * @cssproperty --pb-road-cell - Size of a Bead Plate / Big Road cell (derived roads use half). Default 22px.
 * @cssproperty --pb-board-bg - Board colour. @cssproperty --pb-board-grid - Grid line colour.
 * @cssproperty --pb-banker / --pb-player / --pb-tie - Outcome colours.
 */
import { css, html, LitElement, type PropertyValues, svg, type TemplateResult } from 'lit';
import { type BigRoadWinner, computeRoads, DERIVED_ROADS, type DerivedRoadName, ROAD_ROWS, type RoadResult, type Roads } from '../../shared/roads.ts';
import { cssProps } from '../element/css-props.ts'; // a style="" attribute breaks under a strict CSP
import type { Outcome } from '../../shared/round.ts';
import { defineElement, panelBase } from './base.ts';
import { beadMark, bigRoadMark, derivedMark, derivedShape, pendingTiesMark, roadMarkStyles, UNIT } from './road-marks.ts';
import { fill, type PanelStrings, panelStrings } from './strings.ts';

/** What a scoreboard needs of one round; a receipt body has all of it. */
export type ScoreboardResult = RoadResult;

/** The results of a shoe's receipts in order, for `results`. */
export function roadResultsOf(receipts: readonly { body: ScoreboardResult }[]): ScoreboardResult[] {
  return receipts.map(({ body }) => ({ outcome: body.outcome, playerPair: body.playerPair, bankerPair: body.bankerPair, natural: body.natural }));
}

type BoardSize = 'big' | 'small';

export class PbScoreboard extends LitElement {
  static override properties = {
    results: { attribute: false },
    strings: { attribute: false },
  };

  /** The shoe's rounds in shoe order (e.g. `roadResultsOf(receipts)`). A new array redraws. */
  declare results: readonly ScoreboardResult[];
  /** Text overrides (see strings.ts); English by default. */
  declare strings: Partial<PanelStrings> | null;

  /** The outcome being asked about ("ask banker/player"): its marks blink on the roads. */
  #ask: BigRoadWinner | null = null;
  #roads: Roads = computeRoads([]);
  #scrollToEnd = true;

  constructor() {
    super();
    this.results = [];
    this.strings = null;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('results')) {
      this.#roads = computeRoads(this.results ?? []);
      this.#scrollToEnd = true;
    }
  }

  protected override updated(): void {
    if (!this.#scrollToEnd) return;
    this.#scrollToEnd = false;
    // Keep the newest column in view: boards are scrolled to their right end.
    for (const scroller of this.renderRoot.querySelectorAll<HTMLElement>('.scroller')) scroller.scrollLeft = scroller.scrollWidth;
  }

  #toggleAsk(winner: BigRoadWinner): void {
    this.#ask = this.#ask === winner ? null : winner;
    this.#scrollToEnd = true;
    this.requestUpdate();
  }

  protected override render(): TemplateResult {
    const s = panelStrings(this.strings);
    const base = this.#roads;
    // While asking, draw the roads as they would be after one more result and flash what it adds.
    const roads = this.#ask ? computeRoads([...(this.results ?? []), { outcome: this.#ask }]) : base;
    const asked = (before: number, after: number) => (index: number) => (after > before && index === after - 1 ? 'ask' : '');
    const letters = { banker: s.bankerLetter, player: s.playerLetter, tie: s.tieLetter };
    const beadAsk = asked(base.beadPlate.length, roads.beadPlate.length);
    const bigAsk = asked(base.bigRoad.drawn.cells.length, roads.bigRoad.drawn.cells.length);
    const big = roads.bigRoad;
    const bigColumns = Math.max(big.drawn.columns, big.pendingTies > 0 ? 1 : 0);

    return html`
      <div class="top">
        ${this.#stats(base, s)} ${this.#predictions(base, s)}
      </div>
      <p class="sr-only">${this.#summary(base, s)}</p>
      <div class="roads">
        ${this.#board(
          'bead',
          s.beadPlate,
          'big',
          Math.ceil(roads.beadPlate.length / ROAD_ROWS),
          roads.beadPlate.map((cell, i) => beadMark(cell, letters, beadAsk(i))),
          this.#beadTable(base, s),
        )}
        ${this.#board(
          'big-road',
          s.bigRoad,
          'big',
          bigColumns,
          svg`${big.pendingTies > 0 ? pendingTiesMark(big.pendingTies) : null}${big.drawn.cells.map((cell, i) => bigRoadMark(cell, bigAsk(i)))}`,
          html`<p>${this.#bigRoadSummary(base, s)}</p>`,
        )}
        ${DERIVED_ROADS.map((name) => {
          const road = roads[name];
          const ask = asked(base[name].drawn.cells.length, road.drawn.cells.length);
          return this.#board(
            kebab(name),
            s[name],
            'small',
            road.drawn.columns,
            road.drawn.cells.map((cell, i) => derivedMark(name, cell, ask(i))),
            html`<p>${this.#derivedSummary(base, name, s)}</p>`,
          );
        })}
      </div>
    `;
  }

  #stats(roads: Roads, s: PanelStrings): TemplateResult {
    const st = roads.stats;
    const item = (cls: string, label: string, value: number, title = label) =>
      html`<li class="stat ${cls}" title=${title}><span class="label">${label}</span> <span class="value">${value}</span></li>`;
    return html`<ul class="stats" aria-hidden="true">
      ${item('banker', s.bankerLetter, st.banker, s.banker)} ${item('player', s.playerLetter, st.player, s.player)}
      ${item('tie', s.tieLetter, st.tie, s.tie)} ${item('plain', s.rounds, st.rounds)} ${item('plain', s.naturals, st.naturals)}
      ${item('ppair', s.playerPairs, st.playerPairs, s.playerPairLong)} ${item('bpair', s.bankerPairs, st.bankerPairs, s.bankerPairLong)}
    </ul>`;
  }

  #predictions(roads: Roads, s: PanelStrings): TemplateResult {
    const button = (winner: BigRoadWinner, label: string) => {
      const prediction = roads.predictions[winner];
      const spoken = DERIVED_ROADS.map((name) => `${s[name]} ${prediction[name] ? s[prediction[name]] : s.askNone}`).join(', ');
      return html`<button
        type="button"
        class="ask-button ${winner}"
        aria-pressed=${this.#ask === winner ? 'true' : 'false'}
        @click=${() => this.#toggleAsk(winner)}
      >
        <span aria-hidden="true" class="ask-label">${label}</span>
        <svg class="ask-marks" viewBox="0 0 ${3 * UNIT} ${UNIT}" aria-hidden="true">
          ${DERIVED_ROADS.map((name, i) => {
            const colour = prediction[name];
            return svg`<g transform="translate(${i * UNIT} 0)">${colour ? derivedShape(name, colour) : svg`<line class="none" x1="3" y1="5" x2="7" y2="5"></line>`}</g>`;
          })}
        </svg>
        <span class="sr-only">${fill(s.askLabel, { outcome: s[winner], marks: spoken })}</span>
      </button>`;
    };
    return html`<div class="asks">${button('banker', s.askBanker)} ${button('player', s.askPlayer)}</div>`;
  }

  /** One board: title, a horizontally scrolling drawing, and its text version for screen readers. */
  #board(name: string, title: string, size: BoardSize, usedColumns: number, marks: unknown, text: TemplateResult): TemplateResult {
    // One spare column on the right, where the next result goes.
    const columns = usedColumns + 1;
    return html`<section class="road ${name}">
      <h3 aria-hidden="true">${title}</h3>
      <div class="scroller ${size}" tabindex="0" role="group" aria-label=${title}>
        <svg
          viewBox="0 0 ${columns * UNIT} ${ROAD_ROWS * UNIT}"
          ${cssProps({ width: `calc(${columns} * var(--_${size}-cell))` })}
          aria-hidden="true"
          data-columns=${usedColumns}
        >
          ${marks}
        </svg>
        <div class="sr-only">${text}</div>
      </div>
    </section>`;
  }

  #summary(roads: Roads, s: PanelStrings): string {
    if (roads.stats.rounds === 0) return s.noResults;
    return fill(s.summary, { ...roads.stats });
  }

  #beadTable(roads: Roads, s: PanelStrings): TemplateResult {
    if (roads.beadPlate.length === 0) return html`<p>${s.noResults}</p>`;
    return html`<table>
      <caption>${s.beadPlate}</caption>
      <thead><tr><th scope="col">${s.roundHeader}</th><th scope="col">${s.resultHeader}</th><th scope="col">${s.pairsHeader}</th></tr></thead>
      <tbody>
        ${roads.beadPlate.map((cell) => {
          const pairs = [cell.playerPair ? s.playerPairLong : '', cell.bankerPair ? s.bankerPairLong : ''].filter(Boolean).join(', ');
          return html`<tr><th scope="row">${cell.index + 1}</th><td>${s[cell.outcome]}${cell.natural ? `, ${s.natural}` : ''}</td><td>${pairs}</td></tr>`;
        })}
      </tbody>
    </table>`;
  }

  #bigRoadSummary(roads: Roads, s: PanelStrings): string {
    const big = roads.bigRoad;
    const columns = big.columns.map((column) => {
      const ties = column.reduce((n, entry) => n + entry.ties, 0);
      const outcome = s[column[0]!.winner as Outcome];
      return ties > 0 ? fill(s.streakTies, { outcome, count: column.length, ties }) : fill(s.streak, { outcome, count: column.length });
    });
    if (big.pendingTies > 0) columns.push(fill(s.pendingTies, { count: big.pendingTies }));
    if (columns.length === 0) return fill(s.roadSummaryEmpty, { road: s.bigRoad });
    return fill(s.roadColumnsSummary, { road: s.bigRoad, count: big.columns.length, columns: columns.join('; ') });
  }

  #derivedSummary(roads: Roads, name: DerivedRoadName, s: PanelStrings): string {
    const road = roads[name];
    if (road.columns.length === 0) return fill(s.roadSummaryEmpty, { road: s[name] });
    const columns = road.columns.map((column) => `${s[column[0]!]} ${column.length}`).join('; ');
    return fill(s.roadColumnsSummary, { road: s[name], count: road.columns.length, columns });
  }

  static override styles = [
    panelBase,
    roadMarkStyles,
    css`
      :host {
        container-type: inline-size;
      }
      /* Cell sizes live on .roads: a container query can restyle the host's children, not the host. */
      .roads {
        --_big-cell: var(--pb-road-cell, 22px);
        --_small-cell: calc(var(--_big-cell) / 2);
      }
      .top {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        justify-content: space-between;
        gap: 8px 12px;
        margin-bottom: 10px;
      }
      .stats {
        display: flex;
        flex-wrap: wrap;
        gap: 6px;
        margin: 0;
        padding: 0;
        list-style: none;
      }
      .stat {
        display: inline-flex;
        align-items: center;
        gap: 5px;
        padding: 2px 9px 2px 3px;
        border-radius: 999px;
        background: var(--_surface);
        border: 1px solid var(--_border);
        font-variant-numeric: tabular-nums;
        white-space: nowrap;
      }
      .stat.plain,
      .stat.ppair,
      .stat.bpair {
        padding-left: 9px;
      }
      .stat .label {
        color: var(--_text-dim);
        font-size: 0.9em;
      }
      .stat .value {
        font-weight: 700;
      }
      .stat.banker .label,
      .stat.player .label,
      .stat.tie .label {
        display: inline-grid;
        place-items: center;
        width: 20px;
        height: 20px;
        border-radius: 50%;
        color: #fff;
        font-weight: 700;
        font-size: 0.8em;
      }
      .stat.banker .label {
        background: var(--_banker);
      }
      .stat.player .label {
        background: var(--_player);
      }
      .stat.tie .label {
        background: var(--_tie);
      }
      .stat.ppair .label::before,
      .stat.bpair .label::before {
        content: '';
        display: inline-block;
        width: 8px;
        height: 8px;
        margin-right: 4px;
        border-radius: 50%;
        vertical-align: 1px;
      }
      .stat.ppair .label::before {
        background: var(--_player);
      }
      .stat.bpair .label::before {
        background: var(--_banker);
      }
      .asks {
        display: flex;
        gap: 6px;
      }
      .ask-button {
        display: inline-flex;
        align-items: center;
        gap: 6px;
        padding: 3px 8px 3px 10px;
        min-height: 32px;
        color: var(--_text);
        background: var(--_surface);
        border: 1px solid var(--_border);
        font-weight: 600;
      }
      .ask-button.banker .ask-label {
        color: #ff8a8f;
      }
      .ask-button.player .ask-label {
        color: #8fb6ff;
      }
      .ask-button[aria-pressed='true'] {
        border-color: var(--_gold);
        box-shadow: inset 0 0 0 1px var(--_gold);
      }
      .ask-marks {
        width: 51px;
        height: 17px;
        padding: 1px 2px;
        background: var(--_board);
        border-radius: 3px;
      }
      .roads {
        display: grid;
        grid-template-columns: repeat(6, minmax(0, 1fr));
        gap: 10px 12px;
      }
      .road {
        grid-column: span 6;
        min-width: 0;
      }
      .road.small-road,
      .road.cockroach-pig {
        grid-column: span 3;
      }
      @container (min-width: 700px) {
        .road.bead {
          grid-column: span 2;
        }
        .road.big-road {
          grid-column: span 4;
        }
        .road.big-eye-boy,
        .road.small-road,
        .road.cockroach-pig {
          grid-column: span 2;
        }
      }
      @container (max-width: 420px) {
        .roads {
          --_big-cell: var(--pb-road-cell, 20px);
        }
      }
      .road h3 {
        margin: 0 0 4px;
        font-size: 0.78em;
        text-transform: uppercase;
        letter-spacing: 0.08em;
      }
      .scroller {
        position: relative;
        overflow-x: auto;
        overflow-y: hidden;
        scrollbar-width: thin;
        scrollbar-color: var(--_gold-dim) transparent;
        border: 1px solid var(--_board-grid);
        border-radius: 4px;
        background-color: var(--_board);
        background-attachment: local;
      }
      .scroller.big {
        background-image: linear-gradient(to right, var(--_board-grid) 1px, transparent 1px),
          linear-gradient(to bottom, var(--_board-grid) 1px, transparent 1px);
        background-size: var(--_big-cell) var(--_big-cell);
      }
      /* Derived roads: casino boards draw them at half size, four marks to a Big Road cell. */
      .scroller.small {
        background-image: linear-gradient(to right, var(--_board-grid) 1px, transparent 1px),
          linear-gradient(to bottom, var(--_board-grid) 1px, transparent 1px),
          linear-gradient(to right, rgba(0, 0, 0, 0.05) 1px, transparent 1px),
          linear-gradient(to bottom, rgba(0, 0, 0, 0.05) 1px, transparent 1px);
        background-size: var(--_big-cell) var(--_big-cell), var(--_big-cell) var(--_big-cell), var(--_small-cell) var(--_small-cell),
          var(--_small-cell) var(--_small-cell);
      }
      .scroller svg {
        display: block;
        overflow: visible;
      }
      .scroller.big svg {
        height: calc(${ROAD_ROWS} * var(--_big-cell));
      }
      .scroller.small svg {
        height: calc(${ROAD_ROWS} * var(--_small-cell));
      }
      .mark.ask {
        animation: blink 0.9s steps(2, jump-none) infinite;
      }
      @keyframes blink {
        50% {
          opacity: 0.15;
        }
      }
      @media (prefers-reduced-motion: reduce) {
        .mark.ask {
          animation: none;
          opacity: 0.55;
        }
      }
    `,
  ];
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

defineElement('pb-scoreboard', PbScoreboard);

declare global {
  interface HTMLElementTagNameMap {
    'pb-scoreboard': PbScoreboard;
  }
}
