/**
 * The table's panel drawer, as templates of a model the PanelsController builds at each render:
 * a strip of four launchers under the control bar (Scoreboard, History, Fairness, Help; with an
 * invitation to cut while a committed shoe waits for the player), and one <dialog> that holds the
 * open panel. On a wide table the dialog sits in the page — under the table, or beside it from
 * 1100 px — and on a phone the controller opens it as a modal bottom sheet. The panel elements are
 * only named here; their modules load lazily (the controller imports them when first opened).
 */
import { html, nothing, svg, type TemplateResult } from 'lit';
import { cssProps } from '../element/css-props.ts';
import type { TableLimits } from '../../shared/table.ts';
import type { Jwks } from '../../shared/fairness/index.ts';
import type { SettledRound } from '../round-view.ts';

import type { PanelStrings } from './strings.ts';
import type { ShoeStartDetail, TableSource } from './fairness.ts';
import type { Commitment, Signed } from '../../shared/fairness/pb-fair-2/records.ts';
import type { ScoreboardResult } from './scoreboard.ts';
import type { ShoeChoiceDetail } from '../element/emit.ts';
import './road-glance.ts';

/** The narrowest table (the element's content box, CSS px) with the pane beside the felt rather than under it. */
export const PANE_BESIDE_MIN_WIDTH = 1100;

/** The four panels, in launcher order. */
export const PANELS = ['scoreboard', 'history', 'fairness', 'help'] as const;
export type PanelName = (typeof PANELS)[number];

/** One shoe as the fairness panel shows it. */
export interface FairnessShoe {
  number: number;
  status: 'awaiting-start' | 'in-play' | 'ended';
  commitment: Signed<Commitment> | null;
  rounds: number;
  cutRange: { min: number; max: number } | null;
}

export interface PanelsModel {
  t(key: string, values?: Record<string, string | number>): string;
  strings: PanelStrings;
  open: PanelName | null;
  /** Phone layout: the dialog is a modal bottom sheet. */
  sheet: boolean;
  /** Which panel modules have arrived (only those are rendered) or failed. */
  state(name: PanelName): 'idle' | 'loading' | 'ready' | 'failed';
  /** A committed shoe waits for the player's cut (and the fairness panel is not showing it). */
  invite: number | null;
  /**
   * The offer's cut card on the felt: the cut it stands at (in [min, max] of a stack of `size`
   * cards) and how (`held` while moved, `placed` once dropped); null when no shoe waits for its cut.
   */
  feltCut?: { value: number; min: number; max: number; size: number; state: 'hover' | 'held' | 'placed' } | null;
  /** A reshuffle table: the invitation says every round comes from a fresh stack. */
  reshuffle: boolean;
  /** What starts the strip (the element's session summary), or null. */
  lead: TemplateResult | null;
  /** The fairness launcher's dot: a shoe waits for its cut. */
  badge: boolean;
  /** The shoe the scoreboard and history show: the current one once started, else the one that just ended. */
  shown: { number: number; ended: boolean; results: readonly ScoreboardResult[]; rounds: readonly SettledRound[] } | null;
  formatAmount(minor: number): string;
  /** Every minor unit (the receipt details). */
  formatExact(minor: number): string;
  current: FairnessShoe | null;
  /** Ended shoes, newest first, still verifiable. */
  past: readonly FairnessShoe[];
  /** The shoe the fairness tab shows. */
  selected: number | null;
  proposal: ShoeStartDetail | null;
  /** The shoe whose seed the table refused to deal on (its panel says why). */
  refused: number | null;
  jwks: Jwks | null;
  /** pb-fair-2: the table the fairness panels check (the player's copy, the operator's transcript). */
  table: TableSource | null;
  busy: boolean;
  allowEnd: boolean;
  error: string | null;
  help: { decks: number; limits: TableLimits | null; roomName: string; locale: string };
  on: PanelsHandlers;
}

export interface PanelsHandlers {
  toggle(name: PanelName, from: HTMLElement): void;
  close(): void;
  dialogClosed(dialog: HTMLDialogElement): void;
  select(shoe: number): void;
  cutAndStart(detail: ShoeStartDetail): void;
  /** The table cuts at random and starts the shoe (the offer on the felt). */
  cutForMe(): void;
  /** The current shoe's panel reports the seed and cut it shows. */
  choice(detail: ShoeChoiceDetail): void;
  endShoe(): void;
  /** The felt's cut card: the pointer on its slider (down, move, up, cancel). */
  cutPointer(e: PointerEvent): void;
  /** The felt's cut card: a key on its slider. */
  cutKey(e: KeyboardEvent): void;
  /** The felt's cut card's slider took (true) or lost the focus. */
  cutFocus(focused: boolean): void;
}

const ICONS: Record<PanelName, TemplateResult> = {
  scoreboard: svg`<rect x="2" y="3" width="16" height="14" rx="2"/><path d="M2 8h16M2 12.5h16M7.3 3v14M12.6 3v14"/>`,
  history: svg`<path d="M6 5h11M6 10h11M6 15h11"/><circle cx="3" cy="5" r=".6"/><circle cx="3" cy="10" r=".6"/><circle cx="3" cy="15" r=".6"/>`,
  fairness: svg`<path d="M10 2 3.5 4.6v4.9c0 4 2.8 7.1 6.5 8.5 3.7-1.4 6.5-4.5 6.5-8.5V4.6Z"/><path d="m7 10 2.2 2.2L13.4 8"/>`,
  help: svg`<circle cx="10" cy="10" r="7.6"/><path d="M7.7 7.8a2.4 2.4 0 1 1 3.4 2.2c-.7.3-1.1.9-1.1 1.6v.5"/><circle cx="10" cy="14.6" r=".4"/>`,
};

function icon(name: PanelName): TemplateResult {
  return html`<svg class="icon" viewBox="0 0 20 20" aria-hidden="true" focusable="false">${ICONS[name]}</svg>`;
}

function launchers(m: PanelsModel, where: 'bar' | 'sheet'): TemplateResult {
  return html`${PANELS.map((name) => {
    const on = m.open === name;
    return html`<button
      type="button"
      class="launcher"
      part="panel-tab${on ? ' panel-tab-open' : ''}"
      data-panel=${name}
      aria-pressed=${on ? 'true' : 'false'}
      aria-controls="pb-pane"
      @click=${(e: Event) => m.on.toggle(name, e.currentTarget as HTMLElement)}
    >
      ${icon(name)}<span class="label">${m.t(`drawer.${name}`)}</span>${
        name === 'fairness' && m.badge && where === 'bar' ? html`<span class="dot" aria-hidden="true"></span>` : nothing
      }
    </button>`;
  })}`;
}

/**
 * The dealer's offer of the cut, on the felt where the hands will be (until the shoe's first deal
 * or cut): the shuffled stack (the scene draws it in `.cut-place`) with the cut card to push into
 * it — a slider over the drawing takes the pointer (drag, drop to cut) and the keys (arrows, Enter)
 * —, the fairness details (the panel: seed, commitment, the cut by number) one tap away, or the
 * table cuts at random (the shuffle and cut then play on the felt). On the felt, not in the strip
 * under it: the strip, and so the felt, keep their size when the offer goes.
 */
export function renderInvite(
  m: Pick<PanelsModel, 't' | 'invite' | 'busy' | 'on' | 'reshuffle' | 'feltCut'>,
  place: { x: number; y: number; w: number; h: number } | null,
): TemplateResult | typeof nothing {
  if (m.invite === null || !place) return nothing;
  const cut = m.feltCut ?? null;
  return html`<div class="invite" role="group" aria-label=${m.t('drawer.cutNow')} ${cssProps({ left: `${place.x}px`, top: `${place.y}px`, width: `${place.w}px`, height: `${place.h}px` })}>
    <span class="invite-say">${m.t(m.reshuffle ? 'play.reshuffleInvite' : 'drawer.invite', { number: m.invite })}</span>
    ${
      cut
        ? html`<div
          class="cut-felt"
          role="slider"
          tabindex="0"
          data-state=${cut.state}
          aria-label=${m.t('drawer.cutCard')}
          aria-valuemin=${cut.min}
          aria-valuemax=${cut.max}
          aria-valuenow=${cut.value}
          aria-valuetext=${m.t('drawer.cutAt', { cut: cut.value, size: cut.size })}
          aria-disabled=${m.busy ? 'true' : 'false'}
          aria-keyshortcuts="ArrowLeft ArrowRight Enter"
          @pointerdown=${m.on.cutPointer}
          @pointermove=${m.on.cutPointer}
          @pointerup=${m.on.cutPointer}
          @pointercancel=${m.on.cutPointer}
          @lostpointercapture=${m.on.cutPointer}
          @keydown=${m.on.cutKey}
          @focus=${() => m.on.cutFocus(true)}
          @blur=${() => m.on.cutFocus(false)}
        >
          <div class="cut-place"></div>
          <span class="cut-hint">${m.t('drawer.cutDrag')}</span>
        </div>`
        : nothing
    }
    <div class="invite-actions">
      <button type="button" class="invite-cut" @click=${(e: Event) => m.on.toggle('fairness', e.currentTarget as HTMLElement)}>${m.t(cut ? 'drawer.cutDetails' : 'drawer.cutNow')}</button>
      <button type="button" class="invite-random" ?disabled=${m.busy} @click=${() => m.on.cutForMe()}>${m.t('drawer.cutForMe')}</button>
    </div>
  </div>`;
}

/**
 * The roads at a glance (road-glance.ts): the shown shoe's Bead Plate and Big Road in the strip, between
 * the summary and the launchers (a phone held sideways puts it under the felt; an upright phone has
 * no room and keeps the roads in the scoreboard). A click opens the scoreboard.
 */
function glance(m: PanelsModel): TemplateResult {
  return html`<pb-road-glance
    class="road-glance"
    part="road-glance"
    .results=${m.shown?.results ?? []}
    .strings=${m.strings}
    @click=${(e: Event) => m.on.toggle('scoreboard', e.currentTarget as HTMLElement)}
  ></pb-road-glance>`;
}

/** The strip under the control bar and the pane. */
export function renderPanels(m: PanelsModel): TemplateResult {
  return html`<div class="drawer-bar" part="panel-bar">
      ${m.lead ?? nothing} ${glance(m)}
      <div class="launchers" role="group" aria-label=${m.t('drawer.label')}>${launchers(m, 'bar')}</div>
    </div>
    <dialog
      id="pb-pane"
      class="pane"
      part="panel"
      aria-label=${m.open ? m.t(`drawer.${m.open}`) : m.t('drawer.label')}
      @cancel=${() => m.on.close()}
      @close=${(e: Event) => m.on.dialogClosed(e.currentTarget as HTMLDialogElement)}
    >
      <div class="pane-inner">
        <div class="pane-head">
          ${m.sheet ? html`<div class="launchers sheet-tabs" role="group" aria-label=${m.t('drawer.label')}>${launchers(m, 'sheet')}</div>` : html`<p class="context">${context(m)}</p>`}
          <button type="button" class="pane-close" aria-label=${m.t('drawer.close')} title=${m.t('drawer.close')} @click=${() => m.on.close()}>
            <svg viewBox="0 0 20 20" aria-hidden="true" focusable="false"><path d="m5 5 10 10M15 5 5 15" /></svg>
          </button>
        </div>
        ${m.sheet && context(m) ? html`<p class="context sheet-context">${context(m)}</p>` : nothing}
        <!-- Focusable so a keyboard can scroll it when the open panel has nothing focusable (help). -->
        <div class="pane-body" tabindex="0" role="group" aria-label=${m.open ? m.t(`drawer.${m.open}`) : m.t('drawer.label')}>${body(m)}</div>
      </div>
    </dialog>`;
}

/** One line above the panel: which shoe the scoreboard and history show. */
function context(m: PanelsModel): string {
  const s = m.shown;
  if (!s || (m.open !== 'scoreboard' && m.open !== 'history')) return '';
  return m.t(s.ended ? 'drawer.shownEnded' : 'drawer.shown', { number: s.number, rounds: s.rounds.length });
}

function body(m: PanelsModel): TemplateResult {
  return html`${loading(m)}
  ${
    m.open === 'scoreboard' && m.state('scoreboard') === 'ready'
      ? html`<pb-scoreboard .results=${m.shown?.results ?? []} .strings=${m.strings}></pb-scoreboard>`
      : nothing
  }
  ${
    m.open === 'history' && m.state('history') === 'ready'
      ? html`<pb-history .rounds=${m.shown?.rounds ?? []} .formatAmount=${m.formatAmount} .formatExact=${m.formatExact} .strings=${m.strings}></pb-history>`
      : nothing
  }
  ${m.state('fairness') === 'ready' ? fairness(m) : nothing}
  ${
    m.open === 'help' && m.state('help') === 'ready'
      ? html`<pb-help
        .decks=${m.help.decks}
        .limits=${m.help.limits}
        .roomName=${m.help.roomName}
        .locale=${m.help.locale}
        .formatAmount=${m.formatAmount}
        .strings=${m.strings}
      ></pb-help>`
      : nothing
  }`;
}

function loading(m: PanelsModel): TemplateResult | typeof nothing {
  if (!m.open) return nothing;
  const state = m.state(m.open);
  if (state === 'ready') return nothing;
  return html`<p class="pane-note ${state === 'failed' ? 'failed' : ''}">${m.t(state === 'failed' ? 'drawer.loadFailed' : 'drawer.loading')}</p>`;
}

/**
 * The fairness tab: the current shoe and the ended ones (each its own <pb-fairness>, kept in the
 * DOM while hidden so a verification report or an edited seed survives switching tabs).
 */
function fairness(m: PanelsModel): TemplateResult {
  const visible = m.open === 'fairness';
  const current = m.current;
  const selected = m.selected ?? current?.number ?? null;
  const shoes = [...(current ? [current] : []), ...m.past];
  return html`<div class="fairness-tab" ?hidden=${!visible}>
    ${
      shoes.length > 1
        ? html`<div class="shoe-picker" role="group" aria-label=${m.t('drawer.shoes')}>
          ${shoes.map(
            (shoe) => html`<button
              type="button"
              class="shoe-chip ${shoe.status}"
              data-shoe=${shoe.number}
              aria-pressed=${shoe.number === selected ? 'true' : 'false'}
              @click=${() => m.on.select(shoe.number)}
            >
              ${m.t(shoe === current ? (shoe.status === 'awaiting-start' ? 'drawer.shoeToCut' : 'drawer.shoeNow') : 'drawer.shoeRevealed', { number: shoe.number })}
            </button>`,
          )}
        </div>`
        : nothing
    }
    ${
      current
        ? html`<pb-fairness
          data-shoe=${current.number}
          data-current=""
          ?hidden=${current.number !== selected}
          .commitment=${current.commitment}
          .status=${current.status}
          .rounds=${current.rounds}
          .cutRange=${current.cutRange}
          .jwks=${m.jwks}
          .table=${m.table}
          .busy=${m.busy}
          .allowEndShoe=${m.allowEnd}
          .proposal=${m.proposal}
          .seedRefused=${m.refused === current.number}
          .strings=${m.strings}
          @pb-shoe-choice=${(e: CustomEvent<ShoeChoiceDetail>) => {
            e.stopPropagation();
            m.on.choice(e.detail);
          }}
          @pb-shoe-start=${(e: CustomEvent<ShoeStartDetail>) => {
            e.stopPropagation();
            m.on.cutAndStart(e.detail);
          }}
          @pb-shoe-end=${(e: Event) => {
            e.stopPropagation();
            m.on.endShoe();
          }}
          @pb-verified=${(e: Event) => e.stopPropagation()}
        ></pb-fairness>`
        : nothing
    }
    ${m.past.map(
      (shoe) => html`<pb-fairness
        data-shoe=${shoe.number}
        ?hidden=${shoe.number !== selected}
        .commitment=${shoe.commitment}
        status="ended"
        .rounds=${shoe.rounds}
        .jwks=${m.jwks}
        .table=${m.table}
        .strings=${m.strings}
        @pb-verified=${(e: Event) => e.stopPropagation()}
      ></pb-fairness>`,
    )}
    ${current && current.status === 'awaiting-start' && current.number === selected ? html`<p class="pane-note">${m.t('drawer.dealHint')}</p>` : nothing}
    ${m.error ? html`<p class="pane-note failed" role="alert">${m.error}</p>` : nothing}
  </div>`;
}
