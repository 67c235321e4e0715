/**
 * <pb-help>: the rules, payouts, limits and exact odds of this table, all from the engine:
 * naturals and draws from round.ts (`isNatural`, `playerDraws`, `bankerDraws` — the Banker's table
 * is rendered by asking `bankerDraws` for every cell, never copied), payouts from settle.ts's
 * `PAYOUTS` and `betResult`, limits from the room, and the odds and house edge of every bet for the
 * table's deck count from odds.ts's exact calculator — computed when the panel opens (tens of ms),
 * after its first paint.
 */
import { css, html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { DEFAULT_DECKS } from '../../shared/cards.ts';
import type { EngineError } from '../../shared/errors.ts';
import { exactOdds, type Odds } from '../../shared/odds.ts';
import { bankerDraws, isNatural, OUTCOMES, playerDraws } from '../../shared/round.ts';
import { betResult, PAYOUTS } from '../../shared/settle.ts';
import { BOXES, MAX_SECTORS_IN_USE, SECTORS, type TableLimits } from '../../shared/table.ts';
import { defaultFormatAmount, defineElement, panelBase } from './base.ts';
import { fill, type PanelStrings, panelStrings } from './strings.ts';

/** Two-card totals a hand can stand or draw on (8 and 9 are naturals). */
const NON_NATURAL = Array.from({ length: 10 }, (_, t) => t).filter((t) => !isNatural(t));
const TOTALS = Array.from({ length: 10 }, (_, t) => t);
/** The point values a third card can have. */
const THIRD_CARD_POINTS = TOTALS;

/** "0–5", "6 or 7", "0–7 or 9": a set of totals as people say it (runs of three or more as ranges). */
export function describeTotals(values: readonly number[], or = 'or'): string {
  const parts: string[] = [];
  let i = 0;
  while (i < values.length) {
    let j = i;
    while (j + 1 < values.length && values[j + 1] === values[j]! + 1) j++;
    // Word joiners keep "0–5" on one line.
    if (j - i >= 2) parts.push(`${values[i]}\u2060–\u2060${values[j]}`);
    else for (let k = i; k <= j; k++) parts.push(String(values[k]));
    i = j + 1;
  }
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} ${or} ${parts.at(-1)}`;
}

export class PbHelp extends LitElement {
  static override properties = {
    decks: { type: Number },
    limits: { attribute: false },
    roomName: { type: String, attribute: 'room-name' },
    formatAmount: { attribute: false },
    strings: { attribute: false },
    locale: { type: String },
  };

  /** Decks in the table's shoe (1–8): the odds are for this many. */
  declare decks: number;
  /** The room's limits, in minor units. */
  declare limits: TableLimits | null;
  /** The room's name, shown with the limits. */
  declare roomName: string;
  declare formatAmount: (minor: number) => string;
  declare strings: Partial<PanelStrings> | null;
  /** BCP 47 language for the percentages (e.g. `it`); empty: the browser's. */
  declare locale: string;

  #odds: { decks: number; value: Odds } | { decks: number; error: EngineError } | null = null;
  #pending = 0;

  constructor() {
    super();
    this.decks = DEFAULT_DECKS;
    this.limits = null;
    this.roomName = '';
    this.formatAmount = defaultFormatAmount;
    this.strings = null;
    this.locale = '';
  }

  /** The exact odds shown (null until computed). */
  get odds(): Odds | null {
    return this.#odds && 'value' in this.#odds ? this.#odds.value : null;
  }

  /** Resolves once the odds for the current deck count are on screen. */
  async oddsReady(): Promise<Odds | null> {
    while (!this.#odds || this.#odds.decks !== this.decks) await new Promise((r) => setTimeout(r, 5));
    await this.updateComplete;
    return this.odds;
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('decks') && this.#odds?.decks !== this.decks) {
      // After this paint: the enumeration takes tens of milliseconds.
      const token = ++this.#pending;
      const decks = this.decks;
      setTimeout(() => {
        if (token !== this.#pending) return;
        const result = exactOdds(decks);
        this.#odds = result.ok ? { decks, value: result.value } : { decks, error: result.error };
        this.requestUpdate();
      }, 0);
    }
  }

  protected override render(): TemplateResult {
    const s = panelStrings(this.strings);
    return html`<h2>${s.help}</h2>
      <div class="columns">
        <div>${this.#rules(s)} ${this.#playing(s)}</div>
        <div>${this.#payouts(s)} ${this.#limits(s)} ${this.#oddsView(s)}</div>
      </div>`;
  }

  /** How to place, remove and repeat bets, and the two table modes. */
  #playing(s: PanelStrings): TemplateResult {
    return html`<section class="playing">
      <h3>${s.playing}</h3>
      <p>${s.placeBet}</p>
      <p>${s.removeBet}</p>
      <p>${s.repeatBets}</p>
      <h3>${s.modes}</h3>
      <ul class="modes">
        <li>${s.modeShoe}</li>
        <li>${s.modeReshuffle}</li>
      </ul>
    </section>`;
  }

  #rules(s: PanelStrings): TemplateResult {
    const naturals = TOTALS.filter((t) => isNatural(t));
    const playerDrawsOn = NON_NATURAL.filter((t) => playerDraws(t));
    const playerStandsOn = NON_NATURAL.filter((t) => !playerDraws(t));
    const bankerDrawsOn = NON_NATURAL.filter((t) => bankerDraws(t, null));
    const bankerStandsOn = NON_NATURAL.filter((t) => !bankerDraws(t, null));
    return html`<section>
      <h3>${s.theDeal}</h3>
      <p>${s.dealOrder}</p>
      <p>${fill(s.naturalRule, { totals: describeTotals(naturals, s.or) })}</p>
      <p>${fill(s.playerRule, { draws: describeTotals(playerDrawsOn, s.or), stands: describeTotals(playerStandsOn, s.or) })}</p>
      <p>${fill(s.bankerStoodRule, { draws: describeTotals(bankerDrawsOn, s.or), stands: describeTotals(bankerStandsOn, s.or) })}</p>
      ${this.#bankerTable(s)}
      <p>${s.higherWins}</p>
    </section>`;
  }

  /** The Banker's third-card table, one `bankerDraws` call per cell. */
  #bankerTable(s: PanelStrings): TemplateResult {
    return html`<div class="table-wrap">
      <table class="banker-table">
        <caption>${s.bankerTableCaption}</caption>
        <thead>
          <tr>
            <th scope="col" rowspan="2" class="corner">${s.bankerTotal}</th>
            <th scope="colgroup" colspan=${THIRD_CARD_POINTS.length}>${s.playerThird}</th>
          </tr>
          <tr>
            ${THIRD_CARD_POINTS.map((p) => html`<th scope="col">${p}</th>`)}
          </tr>
        </thead>
        <tbody>
          ${NON_NATURAL.map(
            (total) => html`<tr>
              <th scope="row">${total}</th>
              ${THIRD_CARD_POINTS.map((third) => {
                const draws = bankerDraws(total, third);
                return html`<td class=${draws ? 'draw' : 'stand'} data-total=${total} data-third=${third}>
                  <span aria-hidden="true">${draws ? s.drawLetter : s.standLetter}</span><span class="sr-only">${draws ? s.draws : s.stands}</span>
                </td>`;
              })}
            </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
  }

  #payouts(s: PanelStrings): TemplateResult {
    const pushes = BOXES.filter((box) => box !== 'tie' && betResult(box, 'tie') === 'push').length === 2;
    return html`<section>
      <h3>${s.payouts}</h3>
      <ul class="payouts">
        ${BOXES.map((box) => {
          const [num, den] = PAYOUTS[box];
          const decimal = den === 1 ? '' : ` (${num / den} : 1)`;
          return html`<li class=${box} data-box=${box}>
            <span class="box-name">${s[box]}</span> <span class="pays">${fill(s.pays, { num, den })}${decimal}</span>
          </li>`;
        })}
      </ul>
      ${pushes ? html`<p class="dim">${s.pushOnTie}</p>` : nothing}
    </section>`;
  }

  #limits(s: PanelStrings): TemplateResult | typeof nothing {
    const l = this.limits;
    if (!l) return nothing;
    const f = this.formatAmount;
    return html`<section>
      <h3>${s.limits}${this.roomName ? ` · ${this.roomName}` : ''}</h3>
      <p class="limits">${fill(s.limitsLine, { min: f(l.min), max: f(l.max), step: f(l.step) })}</p>
      <p>${fill(s.sectorsLine, { sectors: MAX_SECTORS_IN_USE, total: SECTORS })}</p>
      ${l.chips.length > 0 ? html`<p class="dim">${fill(s.chipsLine, { chips: l.chips.map(f).join(' · ') })}</p>` : nothing}
    </section>`;
  }

  #oddsView(s: PanelStrings): TemplateResult {
    const state = this.#odds?.decks === this.decks ? this.#odds : null;
    const percent = new Intl.NumberFormat(undefined, { style: 'percent', minimumFractionDigits: 4, maximumFractionDigits: 4 });
    return html`<section class="odds">
      <h3>${s.odds}</h3>
      ${
        state === null
          ? html`<p class="dim computing" role="status">${s.computing}</p>`
          : 'error' in state
            ? html`<p class="fail">${fill(s.oddsFailed, { message: state.error.message })}</p>`
            : html`<table class="odds-table">
                <caption>${fill(s.oddsCaption, { decks: state.decks })}</caption>
                <thead>
                  <tr>
                    <th scope="col">${s.bet}</th>
                    <th scope="col" class="num">${s.probability}</th>
                    <th scope="col" class="num">${s.houseEdge}</th>
                  </tr>
                </thead>
                <tbody>
                  ${OUTCOMES.map((outcome) => {
                    const odds = state.value;
                    const edge = odds.houseEdgeExact[outcome];
                    return html`<tr data-box=${outcome} data-probability=${odds.probability[outcome]} data-edge=${odds.houseEdge[outcome]}>
                      <th scope="row"><span class="box-dot ${outcome}"></span>${s[outcome]}</th>
                      <td class="num" title=${`${odds[outcome]} / ${odds.total}`}>${percent.format(odds.probability[outcome])}</td>
                      <td class="num" title=${`${edge.numerator} / ${edge.denominator}`}>${percent.format(odds.houseEdge[outcome])}</td>
                    </tr>`;
                  })}
                </tbody>
              </table>`
      }
    </section>`;
  }

  static override styles = [
    panelBase,
    css`
      :host {
        container-type: inline-size;
      }
      .columns {
        display: grid;
        gap: 4px 24px;
      }
      @container (min-width: 760px) {
        .columns {
          grid-template-columns: minmax(0, 1.1fr) minmax(0, 1fr);
        }
      }
      section {
        margin-bottom: 14px;
      }
      .table-wrap {
        overflow-x: auto;
        margin: 4px 0 10px;
      }
      table {
        border-collapse: collapse;
        font-variant-numeric: tabular-nums;
      }
      caption {
        text-align: left;
        color: var(--_text-dim);
        font-size: 0.85em;
        padding-bottom: 6px;
      }
      .banker-table th,
      .banker-table td {
        width: 2.1em;
        height: 2em;
        text-align: center;
        border: 1px solid rgba(255, 255, 255, 0.12);
        font-weight: 600;
      }
      .banker-table thead th {
        color: var(--_gold);
        font-size: 0.85em;
        background: var(--_surface);
      }
      .banker-table .corner {
        width: auto;
        padding: 0 8px;
        white-space: normal;
        min-width: 5em;
      }
      .banker-table tbody th {
        color: var(--_gold);
        background: var(--_surface);
      }
      td.draw {
        background: rgba(76, 208, 125, 0.22);
        color: #bff3d1;
      }
      td.stand {
        color: var(--_text-dim);
      }
      .payouts {
        list-style: none;
        margin: 0 0 6px;
        padding: 0;
        display: grid;
        gap: 4px;
      }
      .payouts li {
        display: flex;
        justify-content: space-between;
        gap: 12px;
        padding: 6px 10px;
        background: var(--_surface);
        border-radius: 6px;
        border-left: 4px solid;
      }
      .payouts li.banker {
        border-left-color: var(--_banker);
      }
      .payouts li.player {
        border-left-color: var(--_player);
      }
      .payouts li.tie {
        border-left-color: var(--_tie);
      }
      .box-name {
        font-weight: 600;
      }
      .odds-table {
        width: 100%;
      }
      .odds-table th,
      .odds-table td {
        padding: 6px 8px;
        border-bottom: 1px solid rgba(255, 255, 255, 0.1);
        text-align: left;
      }
      .odds-table thead th {
        color: var(--_text-dim);
        font-weight: 500;
        font-size: 0.85em;
      }
      .odds-table tbody th {
        font-weight: 600;
      }
      .num {
        text-align: right !important;
      }
      .box-dot {
        display: inline-block;
        width: 9px;
        height: 9px;
        margin-right: 8px;
        border-radius: 50%;
      }
      .box-dot.player {
        background: var(--_player);
      }
      .box-dot.banker {
        background: var(--_banker);
      }
      .box-dot.tie {
        background: var(--_tie);
      }
    `,
  ];
}

defineElement('pb-help', PbHelp);

declare global {
  interface HTMLElementTagNameMap {
    'pb-help': PbHelp;
  }
}
