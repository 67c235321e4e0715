/**
 * <pb-verify-report>: what the shared verifier said about one or more shoes — a headline per shoe
 * (all verified / pending / the FIRST failure with its round, record and reason), then one chip per
 * round (verified, pending, failed) and the reasons of the failed rounds. Used by the fairness panel
 * and the standalone verify page, so both read the same.
 */
import { html, LitElement, type TemplateResult } from 'lit';
import type { Fair1RoundCheck, Fair1VerifyReport } from '../../shared/fairness/index.ts';
import { defineElement, panelBase } from './base.ts';
import { reportStyles } from './report-styles.ts';
import { fill, type PanelStrings, panelStrings } from './strings.ts';

/** Which shoe a report is about (from its transcript's commitment), for the headline. */
export interface ShoeLabel {
  table?: string;
  shoe?: number;
}

/** The verdict of a report: a title, and the first failure's reason when it failed. */
export function reportHeadline(report: Fair1VerifyReport, label: ShoeLabel, s: PanelStrings): { title: string; message: string | null } {
  const shoe = label.shoe ?? '?';
  if (report.failure) {
    const f = report.failure;
    const title = f.round === null ? fill(s.failedRecord, { shoe, record: f.record }) : fill(s.failedAt, { shoe, round: f.round });
    return { title, message: f.message };
  }
  if (report.rounds.length === 0) return { title: fill(s.verifiedNone, { shoe }), message: null };
  return { title: fill(report.pending ? s.verifiedPending : s.verifiedAll, { shoe, rounds: report.rounds.length }), message: null };
}

export class PbFair1VerifyReport extends LitElement {
  static override properties = {
    reports: { attribute: false },
    labels: { attribute: false },
    brief: { type: Boolean },
    strings: { attribute: false },
  };

  /** Leave the first failure's reason out of the headline (the host shows it already). */
  declare brief: boolean;
  /** One report per shoe, from `verifyFair1Transcript(s)`. */
  declare reports: readonly Fair1VerifyReport[];
  /** The shoe of each report (same order). */
  declare labels: readonly ShoeLabel[];
  declare strings: Partial<PanelStrings> | null;

  constructor() {
    super();
    this.reports = [];
    this.labels = [];
    this.brief = false;
    this.strings = null;
  }

  protected override render(): TemplateResult {
    const s = panelStrings(this.strings);
    return html`${(this.reports ?? []).map((report, i) => this.#shoe(report, this.labels?.[i] ?? {}, s))}`;
  }

  #shoe(report: Fair1VerifyReport, label: ShoeLabel, s: PanelStrings): TemplateResult {
    const verdict = report.failure ? 'fail' : report.pending ? 'pending' : 'ok';
    const icon = verdict === 'fail' ? '✗' : verdict === 'pending' ? '…' : '✓';
    // The first failure is in the headline (or, when `brief`, above the report); list the others.
    const failed = report.rounds.filter((r) => r.status === 'failed' && r.code !== 'unverifiable' && r.round !== report.failure?.round);
    const headline = reportHeadline(report, label, s);
    const unchecked = report.rounds.filter((r) => r.code === 'unverifiable');
    return html`<section class="shoe ${verdict}" data-verdict=${verdict}>
      <p class="headline" role="status">
        <span class="icon" aria-hidden="true">${icon}</span
        ><span class="text"
          ><strong>${headline.title}</strong>${headline.message && !this.brief ? html` <span class="message">${headline.message}</span>` : null}</span
        >
      </p>
      ${
        report.rounds.length > 0
          ? html`<ol class="chips">
            ${report.rounds.map((r) => this.#chip(r, s))}
          </ol>`
          : null
      }
      ${
        failed.length > 0
          ? html`<p class="others">${s.otherFailures}</p>
            <ul class="reasons">
              ${failed.map((r) => html`<li><strong>${fill(s.roundNumber, { round: r.round })}</strong>: ${r.reason ?? ''}</li>`)}
            </ul>`
          : null
      }
      ${unchecked.length > 0 ? html`<p class="dim small">${unchecked[0]!.reason} (${unchecked.length})</p>` : null}
    </section>`;
  }

  #chip(check: Fair1RoundCheck, s: PanelStrings): TemplateResult {
    const status = check.status === 'failed' ? s.statusFailed : check.status === 'pending' ? s.statusPending : s.statusVerified;
    const spoken = fill(s.roundStatus, { round: check.round, status }) + (check.reason && check.status === 'failed' ? `: ${check.reason}` : '');
    const cls = check.code === 'unverifiable' ? 'failed unchecked' : check.status;
    return html`<li class="chip ${cls}" data-round=${check.round} data-status=${check.status} title=${spoken}>
      <span aria-hidden="true">${check.round}</span><span class="sr-only">${spoken}</span>
    </li>`;
  }

  static override styles = [panelBase, reportStyles];
}

defineElement('pb-verify-report', PbFair1VerifyReport);

declare global {
  interface HTMLElementTagNameMap {
    'pb-verify-report': PbFair1VerifyReport;
  }
}
