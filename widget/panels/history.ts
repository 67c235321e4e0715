/**
 * <pb-history>: the rounds of the shoe (round-view.ts), newest first. Each row shows the
 * cards, totals, outcome, the round's net and the balance before → after; it expands (a native
 * <details>, keyboard and screen-reader friendly) to the bets and payouts per box and the receipt's
 * hash, chain link, key and time (of the signed record that holds the result). Amounts go through the host's `formatAmount` (rounded to the
 * currency's unit) in the rows, and its `formatExact` (every minor unit) in the receipt details.
 */
import { css, html, LitElement, type TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { ReceiptCard } from '../../shared/fairness/index.ts';
import type { SettledRound } from '../round-view.ts';
import { cardTemplate } from './card-face.ts';
import { cardStyles } from './card-styles.ts';
import { defaultFormatAmount, defineElement, panelBase } from './base.ts';
import { fill, type PanelStrings, panelStrings } from './strings.ts';

export class PbHistory extends LitElement {
  static override properties = {
    rounds: { attribute: false },
    formatAmount: { attribute: false },
    formatExact: { attribute: false },
    strings: { attribute: false },
  };

  /** The shoe's rounds in shoe order (oldest first); shown newest first. */
  declare rounds: readonly SettledRound[];
  /** Formats an amount of minor units for display (the element's Intl formatter). */
  declare formatAmount: (minor: number) => string;
  /** Formats an amount with every minor unit (the receipt details: a Banker win on 0.10 pays 0.095). */
  declare formatExact: (minor: number) => string;
  /** Text overrides (see strings.ts). */
  declare strings: Partial<PanelStrings> | null;

  constructor() {
    super();
    this.rounds = [];
    this.formatAmount = defaultFormatAmount;
    this.formatExact = defaultFormatAmount;
    this.strings = null;
  }

  #signed(minor: number, format = this.formatAmount): string {
    if (minor > 0) return `+${format(minor)}`;
    if (minor < 0) return `−${format(-minor)}`;
    return format(0);
  }

  protected override render(): TemplateResult {
    const s = panelStrings(this.strings);
    const rounds = [...(this.rounds ?? [])].reverse();
    return html`<h2>${s.history}</h2>
      ${
        rounds.length === 0
          ? html`<p class="dim">${s.noRounds}</p>`
          : html`<ol class="rounds" reversed>
            ${repeat(
              rounds,
              (r) => r.record.hash,
              (r) => this.#round(r, s),
            )}
          </ol>`
      }`;
  }

  #hand(cards: readonly ReceiptCard[], hand: 'player' | 'banker', total: number, s: PanelStrings): TemplateResult {
    const mine = cards.filter((c) => c.hand === hand);
    return html`<span class="hand ${hand}">
      <span class="hand-label" title=${s[hand]}>${hand === 'player' ? s.playerLetter : s.bankerLetter}</span>
      <span class="cards">${mine.map((c) => cardTemplate(c.code, s))}</span>
      <span class="total" aria-label="${s[hand]} ${total}">${total}</span>
    </span>`;
  }

  #round(r: SettledRound, s: PanelStrings): TemplateResult {
    const net = r.returned - r.staked;
    const outcome = r.outcome === 'tie' ? s.tieResult : fill(s.wins, { outcome: s[r.outcome] });
    const netClass = net > 0 ? 'win' : net < 0 ? 'lose' : 'even';
    return html`<li class="round">
      <details>
        <summary>
          <span class="no">${fill(s.roundNumber, { round: r.round })}</span>
          <span class="hands">${this.#hand(r.cards, 'player', r.playerTotal, s)} ${this.#hand(r.cards, 'banker', r.bankerTotal, s)}</span>
          <span class="outcome ${r.outcome}"
            >${outcome}${r.natural ? html` <span class="badge">${s.natural}</span>` : null}${
              r.playerPair ? html` <span class="badge pp" title=${s.playerPairLong}>${s.playerPairs}</span>` : null
            }${r.bankerPair ? html` <span class="badge bp" title=${s.bankerPairLong}>${s.bankerPairs}</span>` : null}</span
          >
          <span class="net ${netClass}">${r.staked > 0 ? this.#signed(net) : ''}</span>
          <span class="balance"
            ><span class="sr-only">${s.balance}: </span>${this.formatAmount(r.balanceBefore)}
            <span aria-hidden="true">→</span><span class="sr-only">,</span> ${this.formatAmount(r.balanceAfter)}</span
          >
        </summary>
        <div class="details">${this.#bets(r, s)} ${this.#meta(r, s)}</div>
      </details>
    </li>`;
  }

  #bets(r: SettledRound, s: PanelStrings): TemplateResult {
    if (r.payouts.length === 0) return html`<p class="dim">${s.noBets}</p>`;
    return html`<table class="bets">
      <thead>
        <tr>
          <th scope="col">${s.betHeader}</th>
          <th scope="col" class="num">${s.stakeHeader}</th>
          <th scope="col">${s.outcomeHeader}</th>
          <th scope="col" class="num">${s.returnedHeader}</th>
          <th scope="col" class="num">${s.netHeader}</th>
        </tr>
      </thead>
      <tbody>
        ${r.payouts.map(
          (p) => html`<tr>
            <th scope="row"><span class="box-dot ${p.box}"></span>${fill(s.sectorBox, { sector: p.sector + 1, box: s[p.box] })}</th>
            <td class="num">${this.formatExact(p.amount)}</td>
            <td class="result ${p.result}">${s[p.result]}</td>
            <td class="num">${this.formatExact(p.returned)}</td>
            <td class="num net ${p.net > 0 ? 'win' : p.net < 0 ? 'lose' : 'even'}">${this.#signed(p.net, this.formatExact)}</td>
          </tr>`,
        )}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row"></th>
          <td class="num">${this.formatExact(r.staked)}</td>
          <td></td>
          <td class="num">${this.formatExact(r.returned)}</td>
          <td class="num net">${this.#signed(r.returned - r.staked, this.formatExact)}</td>
        </tr>
      </tfoot>
    </table>`;
  }

  #meta(r: SettledRound, s: PanelStrings): TemplateResult {
    const { hash, prev, keyId, issuedAt } = r.record;
    const time = new Date(issuedAt);
    return html`<dl class="meta">
        <dt>${s.positions}</dt>
        <dd class="mono">${r.cards.map((c) => `${c.code}@${c.position}`).join('  ')}</dd>
        <dt>${s.receiptHash}</dt>
        <dd class="mono">${hash}</dd>
        <dt>${s.previousHash}</dt>
        <dd class="mono">${prev}</dd>
        <dt>${s.keyId}</dt>
        <dd class="mono">${keyId}</dd>
        <dt>${s.issuedAt}</dt>
        <dd><time datetime=${issuedAt}>${Number.isNaN(time.getTime()) ? issuedAt : time.toLocaleString()}</time></dd>
      </dl>
      ${r.cutCardOut ? html`<p class="cut-card">${s.cutCardOut}</p>` : null}`;
  }

  static override styles = [
    panelBase,
    cardStyles,
    css`
      :host {
        container-type: inline-size;
      }
      .rounds {
        list-style: none;
        margin: 0;
        padding: 0;
        display: grid;
        gap: 6px;
      }
      details {
        background: var(--_surface);
        border: 1px solid var(--_border);
        border-radius: 8px;
      }
      details[open] {
        border-color: var(--_gold-dim);
      }
      summary {
        list-style: none;
        cursor: pointer;
        display: grid;
        grid-template-columns: auto 1fr auto;
        grid-template-areas:
          'no outcome net'
          'hands hands hands'
          'balance balance balance';
        align-items: center;
        gap: 6px 10px;
        padding: 8px 10px;
        border-radius: 8px;
      }
      summary::-webkit-details-marker {
        display: none;
      }
      @container (min-width: 640px) {
        summary {
          grid-template-columns: 7em 20em minmax(0, 1fr) 6.5em 13.5em;
          grid-template-areas: 'no hands outcome net balance';
        }
        .balance {
          text-align: right;
        }
      }
      .no {
        grid-area: no;
        color: var(--_gold);
        font-weight: 600;
        white-space: nowrap;
      }
      .no::before {
        content: '▸';
        display: inline-block;
        width: 1em;
        transition: transform 0.15s;
      }
      details[open] .no::before {
        transform: rotate(90deg);
      }
      @media (prefers-reduced-motion: reduce) {
        .no::before {
          transition: none;
        }
      }
      /* One line per round, whatever it holds: hands, outcome and badges never wrap. */
      .hands {
        grid-area: hands;
        display: flex;
        flex-wrap: nowrap;
        gap: 6px 16px;
        min-width: 0;
      }
      .hand {
        display: inline-flex;
        align-items: center;
        gap: 6px;
      }
      .hand-label {
        display: inline-grid;
        place-items: center;
        width: 20px;
        height: 20px;
        border-radius: 50%;
        color: #fff;
        font-size: 0.75em;
        font-weight: 700;
      }
      .hand.player .hand-label {
        background: var(--_player);
      }
      .hand.banker .hand-label {
        background: var(--_banker);
      }
      .cards {
        display: inline-flex;
        gap: 3px;
      }
      .total {
        min-width: 1.6em;
        text-align: center;
        font-weight: 700;
        font-size: 1.1em;
      }
      .outcome {
        grid-area: outcome;
        min-width: 0;
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
        font-weight: 600;
      }
      .outcome.banker {
        color: #ff8a8f;
      }
      .outcome.player {
        color: #8fb6ff;
      }
      .outcome.tie {
        color: #6fdc92;
      }
      .badge {
        display: inline-block;
        padding: 0 6px;
        border-radius: 999px;
        border: 1px solid var(--_gold-dim);
        color: var(--_gold);
        font-size: 0.75em;
        font-weight: 500;
        vertical-align: 1px;
        white-space: nowrap;
      }
      .net {
        grid-area: net;
        text-align: right;
        font-weight: 700;
        font-variant-numeric: tabular-nums;
        white-space: nowrap;
      }
      .net.win {
        color: var(--_ok);
      }
      .net.lose {
        color: var(--_fail);
      }
      .balance {
        grid-area: balance;
        color: var(--_text-dim);
        font-variant-numeric: tabular-nums;
        white-space: nowrap;
      }
      .details {
        padding: 4px 10px 10px;
        border-top: 1px solid var(--_border);
      }
      table.bets {
        width: 100%;
        border-collapse: collapse;
        margin: 6px 0 10px;
        font-variant-numeric: tabular-nums;
      }
      .bets th,
      .bets td {
        padding: 4px 6px;
        border-bottom: 1px solid rgba(255, 255, 255, 0.08);
        text-align: left;
        font-weight: 400;
      }
      .bets thead th {
        color: var(--_text-dim);
        font-size: 0.85em;
      }
      .bets tfoot td,
      .bets tfoot th {
        font-weight: 700;
        border-bottom: none;
      }
      .bets .num {
        text-align: right;
      }
      .box-dot {
        display: inline-block;
        width: 8px;
        height: 8px;
        margin-right: 6px;
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
      .result.win {
        color: var(--_ok);
      }
      .result.lose {
        color: var(--_fail);
      }
      .result.push {
        color: var(--_text-dim);
      }
      dl.meta {
        display: grid;
        grid-template-columns: max-content minmax(0, 1fr);
        gap: 3px 12px;
        margin: 0;
        font-size: 0.85em;
      }
      dt {
        color: var(--_text-dim);
      }
      dd {
        margin: 0;
      }
      .cut-card {
        margin: 8px 0 0;
        color: var(--_gold);
        font-size: 0.9em;
      }
    `,
  ];
}

defineElement('pb-history', PbHistory);

declare global {
  interface HTMLElementTagNameMap {
    'pb-history': PbHistory;
  }
}
