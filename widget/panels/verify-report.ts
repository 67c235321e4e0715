/**
 * <pb-verify-report-v2>: what the verifier said about a table's file of either version
 * (`verifyFileText`), and, when the player's own copy was given, what `compareCopies` found.
 * (pb-fair-1 files are reported per shoe by <pb-verify-report>.) A pb-fair-2 result is one table: a headline (everything verifies / pending / the FIRST failure with its reason), one
 * chip per round (verified, pending, voided, unsettled, failed), the accepted rounds the operator
 * never settled, then the copy findings, one line per round. Used by the fairness panel and the
 * standalone verify page, so both read the same.
 */
import { css, html, LitElement, nothing, type TemplateResult } from 'lit';
import type { Jwks } from '../../shared/fairness/common/keys.ts';
import type { AnyVerifyResult } from '../../shared/fairness/verify-file.ts';
import { compareCopies, type CopyFinding } from '../../shared/fairness/pb-fair-2/copies.ts';
import { parseStrictJson } from '../../shared/fairness/common/strict-json.ts';
import type { FairnessFile, Signed } from '../../shared/fairness/pb-fair-2/records.ts';
import type { SharedChainSummary } from '../../shared/fairness/pb-shared-1/verify.ts';
import type { RoundStatus, VerifyReport, WalletStatement } from '../../shared/fairness/pb-fair-2/verify.ts';
import { defineElement, panelBase } from './base.ts';
import { reportStyles } from './report-styles.ts';
import { fill, type PanelStrings, panelStrings } from './strings.ts';

/** A table's file checked, and compared with the player's copy when one was given. */
export interface TableCheckResult {
  result: AnyVerifyResult;
  /** Null when no copy was given (or the file is not pb-fair-2). */
  findings: CopyFinding[] | null;
}

/** The player's copy out of a file's text (null when it is not a pb-fair-2 file). */
export function copyOf(text: string): Pick<FairnessFile, 'records' | 'sent'> | null {
  const parsed = parseStrictJson(text);
  const value = parsed.ok ? (parsed.value as Partial<FairnessFile> | null) : null;
  return value?.version === 'pb-fair-2' && Array.isArray(value.records) ? (value as FairnessFile) : null;
}

/**
 * Verifies the operator's file `text` against `jwks` with `verify` (`verifyFileText` for either
 * version; the table's panel passes a pb-fair-2 one); with the player's `mine`, a pb-fair-2 file
 * is also compared with it and must name the player's key in every commitment.
 */
export async function checkTable(
  text: string,
  jwks: Jwks,
  mine: Pick<FairnessFile, 'records'> | null,
  verify: (text: string, jwks: Jwks, options: { playerKey?: string }) => Promise<AnyVerifyResult>,
): Promise<TableCheckResult> {
  const playerKey = mine?.records.find((r): r is Signed => r?.body?.type === 'commitment')?.body as { playerKey?: string } | undefined;
  const result = await verify(text, jwks, playerKey?.playerKey ? { playerKey: playerKey.playerKey } : {});
  const theirs = result.version === 'pb-fair-2' ? copyOf(text) : null;
  return { result, findings: mine && theirs ? compareCopies(mine, theirs) : null };
}

export class PbVerifyReport extends LitElement {
  static override properties = {
    check: { attribute: false },
    strings: { attribute: false },
  };

  declare check: TableCheckResult | null;
  declare strings: Partial<PanelStrings> | null;

  constructor() {
    super();
    this.check = null;
    this.strings = null;
  }

  protected override render(): TemplateResult | typeof nothing {
    const c = this.check;
    if (!c) return nothing;
    const s = panelStrings(this.strings);
    const r = c.result;
    // A pb-fair-1 file is reported by <pb-verify-report> (the verify page sends it there): only its verdict here.
    const body =
      r.version === 'pb-fair-2'
        ? this.#table(r.report, s)
        : html`<section class="shoe ${r.code === 'ok' ? 'ok' : 'fail'}" data-verdict=${r.code === 'ok' ? 'ok' : 'fail'} data-code=${r.code}>
            <p class="headline" role="status"><span class="icon" aria-hidden="true">${r.code === 'ok' ? '✓' : '✗'}</span><span class="text"><strong>${r.code === 'ok' ? s.verify : s.verificationFailed}</strong> <span class="message">${r.version === null ? r.message : r.code}</span></span></p>
            ${r.version === 'pb-shared-1' || r.version === 'pb-shared-2' ? this.#chains(r.report.chains ?? [], s) : nothing}
          </section>`;
    return html`${body}${c.findings ? this.#findings(c.findings, s) : nothing}`;
  }

  #table(report: VerifyReport, s: PanelStrings): TemplateResult {
    const verdict = !report.ok ? 'fail' : report.pending ? 'pending' : 'ok';
    const shoes = new Set(report.rounds.map((x) => x.shoe)).size;
    const shoesText = shoes === 1 ? s.shoesOne : fill(s.shoesMany, { count: shoes });
    const f = report.failure;
    const title = f
      ? f.round !== null
        ? fill(s.firstFailure, { shoe: f.shoe ?? '?', round: f.round })
        : fill(s.firstFailureRecord, { shoe: f.shoe ?? '?', record: f.index === null ? 'file' : `#${f.index + 1}` })
      : fill(report.pending ? s.allVerifiedPending : s.allVerified, { shoes: shoesText, rounds: report.rounds.length, pending: s.shoesOne });
    return html`<section class="shoe ${verdict}" data-verdict=${verdict} data-code=${report.code}>
      <p class="headline" role="status">
        <span class="icon" aria-hidden="true">${verdict === 'fail' ? '✗' : verdict === 'pending' ? '…' : '✓'}</span
        ><span class="text"><strong>${title}</strong>${f ? html` <span class="message">${f.code}: ${f.message}</span>` : nothing}</span>
      </p>
      ${report.rounds.length ? html`<ol class="chips">${report.rounds.map((x) => this.#chip(x, s))}</ol>` : nothing}
      ${
        report.unsettled.length
          ? html`<p class="unsettled">${fill(s.unsettledRounds, { rounds: report.unsettled.map((u) => fill(s.shoeRound, { shoe: u.shoe, round: u.round })).join(', ') })}</p>`
          : nothing
      }
      ${report.wallet ? this.#wallet(report.wallet, s) : nothing}
    </section>`;
  }

  /** A wallet table (FAIRNESS.md §B15): every transaction its records name, to hold against the casino statement. */
  #wallet(w: WalletStatement, s: PanelStrings): TemplateResult {
    const kinds = { debit: s.walletDebit, credit: s.walletCredit, rollback: s.walletRollback };
    return html`<section class="wallet" data-currency=${w.currency}>
      <p>${fill(s.walletStatement, { currency: w.currency, operator: w.operator, player: w.player })}</p>
      <table>
        <thead>
          <tr><th scope="col">${s.walletRound}</th><th scope="col">${s.walletKind}</th><th scope="col">${s.walletAmount}</th><th scope="col">${s.walletId}</th></tr>
        </thead>
        <tbody>
          ${w.transactions.map(
            (t) => html`<tr data-kind=${t.kind} data-transaction=${t.transaction}>
              <td class="mono">${t.roundId}</td>
              <td>${kinds[t.kind]}</td>
              <td class="amount">${t.formatted} ${w.currency}</td>
              <td class="mono small">${t.transaction}</td>
            </tr>`,
          )}
        </tbody>
      </table>
    </section>`;
  }

  /** A shared table's beacon chains: named when known public, a warning when not (FAIRNESS.md §C3 "Which chain"). */
  #chains(chains: readonly SharedChainSummary[], s: PanelStrings): TemplateResult {
    return html`${chains.map((c) => {
      const values = { shoes: c.shoes.join(', '), hash: c.hash, name: c.name ?? '' };
      return html`<p class="chain ${c.known ? 'known' : 'unknown'}" data-chain=${c.hash} data-known=${String(c.known)} role=${c.known ? nothing : 'alert'}>
        <span aria-hidden="true">${c.known ? '✓' : '⚠'}</span> ${fill(c.known ? s.beaconChainKnown : s.beaconChainUnknown, values)}
      </p>`;
    })}`;
  }

  #chip(x: RoundStatus, s: PanelStrings): TemplateResult {
    const names: Record<RoundStatus['status'], string> = {
      verified: s.statusVerified,
      pending: s.statusPending,
      voided: s.statusVoided,
      unsettled: s.statusUnsettled,
      failed: s.statusFailed,
    };
    const spoken = `${fill(s.shoeRound, { shoe: x.shoe, round: x.round })}: ${names[x.status]}${x.code ? ` (${x.code})` : ''}`;
    return html`<li class="chip ${x.status}" data-shoe=${x.shoe} data-round=${x.round} data-status=${x.status} title=${spoken}>
      <span aria-hidden="true">${x.round}</span><span class="sr-only">${spoken}</span>
    </li>`;
  }

  #findings(findings: CopyFinding[], s: PanelStrings): TemplateResult {
    if (!findings.length) return html`<p class="copy ok" data-findings="0" role="status">✓ ${s.copyEqual}</p>`;
    return html`<section class="copy fail" data-findings=${findings.length}>
      <p role="status"><strong>✗ ${fill(s.copyFindings, { count: findings.length })}</strong></p>
      <ul class="findings">
        ${findings.map(
          (f) => html`<li data-code=${f.code} data-shoe=${f.shoe} data-round=${f.round ?? ''}>
            <strong>${fill(f.code === 'missing_in_operator_copy' ? s.copyMissing : s.copyDiffers, { record: f.type, where: f.round === null ? fill(s.shoeNumber, { shoe: f.shoe }) : fill(s.shoeRound, { shoe: f.shoe, round: f.round }) })}</strong>
            <span class="mono small">${f.message}</span>
          </li>`,
        )}
      </ul>
    </section>`;
  }

  static override styles = [
    panelBase,
    reportStyles,
    css`
      .chip.voided {
        color: var(--_text-dim);
        border-color: var(--_text-dim);
        border-style: dashed;
      }
      .chip.unsettled {
        color: var(--_fail);
        border-color: var(--_fail);
      }
      .unsettled,
      .copy {
        margin: 8px 0 0;
        overflow-wrap: anywhere;
      }
      .copy.ok {
        color: var(--_ok);
      }
      .copy.fail {
        color: var(--_fail);
      }
      .chain {
        margin: 8px 0 0;
        overflow-wrap: anywhere;
      }
      .wallet {
        margin: 8px 0 0;
        overflow-x: auto;
      }
      .wallet table {
        border-collapse: collapse;
        font-size: 0.85em;
      }
      .wallet th,
      .wallet td {
        padding: 2px 8px 2px 0;
        text-align: start;
        white-space: nowrap;
      }
      .wallet .amount {
        text-align: end;
        font-variant-numeric: tabular-nums;
      }
      .chain.unknown {
        color: var(--_fail);
        font-weight: 600;
      }
      .findings {
        margin: 4px 0 0;
        padding-left: 18px;
      }
      .findings .small {
        display: block;
        font-size: 0.8em;
        color: var(--_text-dim);
      }
    `,
  ];
}

defineElement('pb-verify-report-v2', PbVerifyReport);

declare global {
  interface HTMLElementTagNameMap {
    'pb-verify-report-v2': PbVerifyReport;
  }
}
