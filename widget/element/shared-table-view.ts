/**
 * What a shared table draws beyond the private one (lazy, in the shared chunk): over the felt, the
 * table's line (live, players, round) and the betting countdown, and each box's total by everyone;
 * under the controls, the shoe's scoreboard (the roads, <pb-scoreboard>) and its fairness line
 * (the shoe's commitment, its beacon chain — named if it is a known public one, a warning if not —,
 * the start, the transcript and where to verify it). Pure templates of the
 * shared table session's view (../session/shared-table-session.ts); <pb-scoreboard> is the panels' own chunk, loaded by the session.
 */
import { html, nothing, svg, type TemplateResult } from 'lit';
import { identifyChain } from '../../shared/beacon-chains.ts';
import type { TableLayout } from '../layout.ts';
import type { PanelStrings } from '../panels/strings.ts';
import { cssProps } from './css-props.ts';
import type { SharedTableView } from '../session/shared-table-session.ts';
import type { ProofCheckView } from '../session/shared-table-proof.ts';

export interface SharedTexts {
  t(key: string, values?: Record<string, string | number>): string;
  money(minor: number): string;
  layout: TableLayout | null;
  panelStrings: PanelStrings;
  /** The player's session summary (the element's), shown first. */
  summary: TemplateResult;
}

const RING = 2 * Math.PI * 20;

/** Over the felt: the table line, the countdown and every box's total. */
export function renderSharedHud(v: SharedTableView, x: SharedTexts): TemplateResult {
  const { t, money, layout } = x;
  const seconds = Math.ceil(v.left / 1000);
  const open = v.phase === 'betting' && v.left > 0;
  const fraction = open ? Math.min(1, v.left / v.windowMs) : 0;
  const urgent = open && v.left <= 5_000;
  // Everyone who bet is at the table, whatever the connection count says (a player between two sockets).
  const seated = Math.max(v.connections, v.bettors + (v.mine?.status === 'accepted' ? 0 : 1));
  // The clock invites to bet only while chips may go down: not while the last round is still drawn, nor once the bet is in.
  const clock = open
    ? v.mine
      ? t('shared.betIn')
      : v.canBet
        ? t('shared.betsOpen')
        : v.drawing
          ? t('status.dealing')
          : t('shared.closedShort')
    : v.phase === 'connecting'
      ? t('shared.connecting')
      : v.phase === 'idle'
        ? t('shared.waitingShort')
        : t('shared.closedShort');
  // Between the discard tray and the shoe, over the top band of the felt.
  // (On a phone only the clock and the players fit there.)
  const place: Record<string, string> = layout ? { left: `${layout.discard.x + layout.discard.w + 6}px`, right: `${layout.width - layout.shoe.x + 6}px` } : {};
  return html`<div class="shared-hud ${layout?.compact ? 'compact' : ''}" data-phase=${v.phase} ${cssProps(place)}>
      <div class="shared-line">
        <span class="live ${v.phase === 'connecting' ? 'off' : ''}">${t(v.phase === 'connecting' ? 'shared.offline' : 'shared.live')}</span>
        <span class="shared-name">${v.tableId}</span>
        <span class="shared-players" data-connections=${v.connections}>${t('shared.players', { count: seated })}</span>
        <span class="shared-round">${t('shared.round', { shoe: v.shoe, round: v.round })}</span>
        ${v.tableTotal > 0 ? html`<span class="shared-total">${t('shared.tableTotal', { amount: money(v.tableTotal), count: v.bettors })}</span>` : nothing}
      </div>
      <div class="shared-clock ${open ? 'open' : 'closed'} ${urgent ? 'urgent' : ''}" role="timer" aria-live="off" data-left=${open ? seconds : 0}>
        <svg viewBox="0 0 48 48" width="40" height="40" aria-hidden="true">
          <circle cx="24" cy="24" r="20" class="track"></circle>
          ${svg`<circle cx="24" cy="24" r="20" class="left" stroke-dasharray=${RING} stroke-dashoffset=${RING * (1 - fraction)}></circle>`}
          <text x="24" y="30" text-anchor="middle">${open ? seconds : '–'}</text>
        </svg>
        <span class="clock-text">${clock}</span>
        ${open ? html`<span class="sr-only">${t('shared.countdown', { seconds })}</span>` : nothing}
      </div>
    </div>
    ${layout ? renderBoxTotals(v, x, layout) : nothing}`;
}

function renderBoxTotals(v: SharedTableView, x: SharedTexts, layout: TableLayout): TemplateResult {
  return html`<div class="box-totals" aria-hidden="true">
    ${layout.boxes.map((b) => {
      const total = v.boxTotals.get(`${b.sector}:${b.box}`) ?? 0;
      if (total === 0) return nothing;
      // On the box's top edge, turned with the box (boxes sit on an arc): clear of its name and of the chips.
      const dy = -b.h / 2;
      const left = b.x + b.w / 2 - dy * Math.sin(b.angle);
      const top = b.y + b.h / 2 + dy * Math.cos(b.angle);
      return html`<span
        class="box-total"
        data-sector=${b.sector}
        data-box=${b.box}
        ${cssProps({ left: `${left}px`, top: `${top}px`, transform: `translate(-50%, -50%) rotate(${b.angle}rad)` })}
        >${x.t('shared.boxTotal', { amount: x.money(total) })}</span
      >`;
    })}
  </div>`;
}

/** The line of the player's own bet checked against the signed close (FAIRNESS.md §D6). */
function proofText(p: ProofCheckView, t: SharedTexts['t']): string {
  if (p.state === 'checking') return t('shared.proofChecking');
  if (p.state === 'ok') return t('shared.proofOk', { round: p.round, leaf: p.position, count: p.count });
  if ('start' in p) return t('shared.startProofFailed', { shoe: p.shoe, code: p.code });
  return t('shared.proofFailed', { round: p.round, code: p.code });
}

/** Under the controls: the scoreboard of this shoe and the fairness line. */
export function renderSharedSide(v: SharedTableView, x: SharedTexts): TemplateResult {
  const { t } = x;
  const c = v.commitment;
  // A pb-shared-2 start counts its seeds (its requests are in the shoe's start file); a pb-shared-1 start lists them.
  const seeds = v.start ? ('startCount' in v.start.body ? v.start.body.startCount : v.start.body.requests.length) : 0;
  // A commitment from the network, read defensively: no chain hash, no line.
  const chain = typeof c?.body.beacon?.hash === 'string' ? identifyChain(c.body.beacon) : null;
  return html`<section class="shared-side" aria-label=${t('shared.side')}>
    ${x.summary}
    <p class="shared-help">${t('shared.help')}</p>
    <div class="shared-board">
      <h3>${t('shared.scoreboard', { shoe: v.shoe, rounds: v.outcomes.length })}</h3>
      <pb-scoreboard .results=${v.outcomes} .strings=${x.panelStrings}></pb-scoreboard>
    </div>
    <div class="shared-fair">
      <h3>${t('shared.fairness')}</h3>
      <p>${c ? t('shared.commitment', { shoe: c.body.shoe, hash: c.hash.slice(0, 16) }) : nothing}</p>
      ${
        chain
          ? html`<p class=${chain.known ? 'chain' : 'chain unknown'} data-chain=${chain.hash} data-known=${String(chain.known)}>
            ${
              chain.known
                ? t('shared.chainKnown', { name: chain.name!, hash: chain.hash.slice(0, 16) })
                : t('shared.chainUnknown', { hash: chain.hash.slice(0, 16) })
            }
          </p>`
          : nothing
      }
      <p>${seeds ? t('shared.started', { count: seeds }) : t('shared.notStarted')}</p>
      ${v.beaconRound ? html`<p class="beacon">${t('shared.beaconRound', { round: v.beaconRound })}</p>` : nothing}
      ${
        v.proof
          ? html`<p class="proof" data-proof=${v.proof.state} data-start-proof=${v.startProof ?? nothing} role="status">${proofText(v.proof, t)}</p>`
          : nothing
      }
      <p class="links">
        <a href=${v.transcriptUrl} target="_blank" rel="noopener" download="transcript.json">${t('shared.transcript')}</a>
        <a href=${v.verifyUrl} target="_blank" rel="noopener">${t('shared.verify')}</a>
      </p>
      <p class="hint">${t('shared.verifyHint')}</p>
    </div>
  </section>`;
}
