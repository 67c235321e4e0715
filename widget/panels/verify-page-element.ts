/**
 * <pb-verify-page>: the standalone verifier's UI. Open a file or paste a transcript (one
 * Transcript, or `{ "transcripts": [...] }` as `punto-banco play` writes), and the operator's JWKS
 * (pasted, opened, or fetched from this site's /.well-known/jwks.json when the page is served);
 * "Verify" runs the shared verifier here in the page and shows every shoe's rounds, with the FIRST
 * failure's shoe, round and reason on top. Nothing leaves the page.
 *
 * A pb-fair-2 file (`"version": "pb-fair-2"`: a table's whole history) is verified as one table
 * (`verifyFileText`); with the player's own copy in the third field ("My copy", downloaded from
 * the table's fairness panel) the file must also name the player's key and hold every record of
 * the copy unchanged (`compareCopies`: findings per round).
 *
 * @event pb-verified - `{ reports }` (pb-fair-1) or `{ check }` (pb-fair-2) when a verification finished.
 */
import { css, html, LitElement, nothing, type TemplateResult } from 'lit';
import {
  type Jwks,
  type Fair1Transcript,
  fair1TranscriptsOf,
  verifyFileText,
  type Fair1VerifyReport,
  verifyFair1Transcripts,
} from '../../shared/fairness/index.ts';
import { defineElement, emit, panelBase } from './base.ts';
import type { ShoeLabel } from './verify-report-fair1.ts';
import './verify-report-fair1.ts';
import { checkTable, copyOf, type TableCheckResult } from './verify-report.ts';
import { fill, type PanelStrings, panelStrings } from './strings.ts';

/** The well-known JWKS path of the Worker that serves this page. */
export const JWKS_PATH = '/.well-known/jwks.json';

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

function parseJson(text: string, what: string): Parsed<unknown> {
  if (text.trim() === '') return { ok: false, message: `paste or open the ${what} first` };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return { ok: false, message: `the ${what} is not valid JSON: ${(err as Error).message}` };
  }
}

/** A transcript file's text → its transcripts, plus a JWKS if the file carries one (`"jwks"`). */
export function parseTranscriptText(text: string): Parsed<{ transcripts: Fair1Transcript[]; jwks: Jwks | null }> {
  const json = parseJson(text, 'transcript');
  if (!json.ok) return json;
  const list = fair1TranscriptsOf(json.value);
  if (!list.ok) return { ok: false, message: `the transcript file is not a transcript: ${list.message}` };
  if (list.value.length === 0) return { ok: false, message: 'the transcript file holds no transcripts' };
  const embedded = (json.value as { jwks?: unknown }).jwks;
  const jwks = parseJwksValue(embedded);
  return { ok: true, value: { transcripts: list.value, jwks: jwks.ok ? jwks.value : null } };
}

function parseJwksValue(value: unknown): Parsed<Jwks> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const v = value as { keys?: unknown; kty?: unknown };
    if (Array.isArray(v.keys)) return { ok: true, value: { keys: v.keys as JsonWebKey[] } };
    // One bare key is accepted too.
    if (typeof v.kty === 'string') return { ok: true, value: { keys: [value] } };
  }
  return { ok: false, message: 'the public keys must be a JWKS: { "keys": [ … ] }' };
}

/** A JWKS's text → the JWKS (a single JWK is accepted as a set of one). */
export function parseJwksText(text: string): Parsed<Jwks> {
  const json = parseJson(text, 'public keys (JWKS)');
  return json.ok ? parseJwksValue(json.value) : json;
}

type TextField = 'transcriptText' | 'jwksText' | 'mineText';

export class PbVerifyPage extends LitElement {
  static override properties = {
    transcriptText: { attribute: false },
    jwksText: { attribute: false },
    mineText: { attribute: false },
    autoFetchJwks: { type: Boolean, attribute: 'auto-fetch-jwks' },
    jwksUrl: { attribute: 'jwks-url' },
    strings: { attribute: false },
  };

  /** The transcript JSON in the text area. */
  declare transcriptText: string;
  /** The JWKS JSON in the text area. */
  declare jwksText: string;
  /** pb-fair-2: the player's own copy (optional), to compare the file with. */
  declare mineText: string;
  /** Fetch the JWKS from `jwksUrl` when connected (default: when the page is served over http(s)). */
  declare autoFetchJwks: boolean;
  /** Where "Fetch from this site" looks (same origin by default). */
  declare jwksUrl: string;
  declare strings: Partial<PanelStrings> | null;

  #reports: Fair1VerifyReport[] = [];
  #check: TableCheckResult | null = null;
  #labels: ShoeLabel[] = [];
  #error: string | null = null;
  #jwksNote: { ok: boolean; text: string } | null = null;
  #busy = false;

  constructor() {
    super();
    this.transcriptText = '';
    this.jwksText = '';
    this.mineText = '';
    this.autoFetchJwks = typeof location !== 'undefined' && /^https?:$/.test(location.protocol);
    this.jwksUrl = JWKS_PATH;
    this.strings = null;
  }

  /** The reports of the last verification. */
  get reports(): readonly Fair1VerifyReport[] {
    return this.#reports;
  }

  /** The result of the last pb-fair-2 verification (null for pb-fair-1 files). */
  get check(): TableCheckResult | null {
    return this.#check;
  }

  /** The error of the last attempt (bad JSON, not a transcript…), or null. */
  get error(): string | null {
    return this.#error;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.autoFetchJwks && this.jwksText.trim() === '') void this.fetchJwks();
  }

  /** Loads the JWKS from `jwksUrl` into the keys field. */
  async fetchJwks(): Promise<boolean> {
    const s = panelStrings(this.strings);
    const url = new URL(this.jwksUrl, location.href).href;
    try {
      const response = await fetch(url, { headers: { accept: 'application/json' } });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const text = await response.text();
      const jwks = parseJwksText(text);
      if (!jwks.ok) throw new Error(jwks.message);
      this.jwksText = JSON.stringify(jwks.value, null, 2);
      this.#jwksNote = { ok: true, text: fill(s.jwksFetched, { url }) };
      return true;
    } catch (err) {
      this.#jwksNote = { ok: false, text: fill(s.jwksFetchFailed, { url, reason: (err as Error).message }) };
      this.requestUpdate();
      return false;
    }
  }

  /** Parses both fields and runs the verifier; the reports are shown and returned (empty on an input error). */
  async verify(): Promise<Fair1VerifyReport[]> {
    this.#error = null;
    this.#reports = [];
    this.#labels = [];
    this.#check = null;
    // pb-fair-2 tables and pb-shared-1 / pb-shared-2 shared tables go to verifyFileText (it picks the verifier by version).
    if (/"version"\s*:\s*"pb-(fair-2|shared-[12])"/.test(this.transcriptText)) return this.#verifyV2();
    const parsed = parseTranscriptText(this.transcriptText);
    if (!parsed.ok) return this.#fail(parsed.message);
    let jwks: Jwks | null = parsed.value.jwks;
    if (this.jwksText.trim() !== '' || !jwks) {
      const keys = parseJwksText(this.jwksText);
      if (!keys.ok) return this.#fail(keys.message);
      jwks = keys.value;
    }
    if (typeof crypto === 'undefined' || !crypto.subtle) {
      return this.#fail('this browser offers no WebCrypto here (pages over plain http are refused it): open the page over https or saved to disk');
    }
    this.#busy = true;
    this.requestUpdate();
    try {
      const transcripts = parsed.value.transcripts;
      this.#reports = await verifyFair1Transcripts(transcripts, jwks);
      this.#labels = transcripts.map((t) => ({ table: t?.commitment?.body?.table, shoe: t?.commitment?.body?.shoe }));
    } catch (err) {
      this.#error = `the verifier stopped: ${(err as Error).message}`;
    } finally {
      this.#busy = false;
      this.requestUpdate();
    }
    emit(this, 'pb-verified', { reports: this.#reports });
    return this.#reports;
  }

  /** A pb-fair-2 table: its text verified as is, compared with the player's copy when one is given. */
  async #verifyV2(): Promise<Fair1VerifyReport[]> {
    const embedded = parseJson(this.transcriptText, 'transcript');
    let jwks = embedded.ok ? parseJwksValue((embedded.value as { jwks?: unknown })?.jwks) : null;
    if (this.jwksText.trim() !== '' || !jwks?.ok) jwks = parseJwksText(this.jwksText);
    if (!jwks.ok) return this.#fail(jwks.message);
    let mine = null;
    if (this.mineText.trim() !== '') {
      mine = copyOf(this.mineText);
      if (!mine) return this.#fail('your copy is not a pb-fair-2 file ({ "version": "pb-fair-2", "records": [ … ] })');
    }
    if (typeof crypto === 'undefined' || !crypto.subtle) {
      return this.#fail('this browser offers no WebCrypto here (pages over plain http are refused it): open the page over https or saved to disk');
    }
    this.#busy = true;
    this.requestUpdate();
    try {
      this.#check = await checkTable(this.transcriptText, jwks.value, mine, verifyFileText);
    } catch (err) {
      this.#error = `the verifier stopped: ${(err as Error).message}`;
    } finally {
      this.#busy = false;
      this.requestUpdate();
    }
    emit(this, 'pb-verified', { check: this.#check });
    return [];
  }

  #fail(message: string): Fair1VerifyReport[] {
    this.#error = message;
    this.requestUpdate();
    return [];
  }

  async #readFile(event: Event, into: TextField): Promise<void> {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0];
    if (file) this[into] = await file.text();
    input.value = '';
  }

  async #drop(event: DragEvent, into: TextField): Promise<void> {
    const file = event.dataTransfer?.files?.[0];
    if (!file) return;
    event.preventDefault();
    this[into] = await file.text();
  }

  protected override render(): TemplateResult {
    const s = panelStrings(this.strings);
    const served = typeof location !== 'undefined' && /^https?:$/.test(location.protocol);
    return html`<header>
        <h1>${s.verifyTitle}</h1>
        <p class="dim">${s.verifyIntro}</p>
      </header>
      <div class="inputs">
        ${this.#field('transcript', s.transcript, s.transcriptHint, 'transcriptText', s, nothing)}
        ${this.#field(
          'jwks',
          s.jwks,
          s.jwksHint,
          'jwksText',
          s,
          served ? html`<button type="button" class="secondary fetch" @click=${() => this.fetchJwks()}>${s.fetchJwks}</button>` : nothing,
        )}
        ${this.#field('mine', s.myCopy, s.myCopyHint, 'mineText', s, nothing)}
      </div>
      ${this.#jwksNote ? html`<p class="note ${this.#jwksNote.ok ? 'ok' : 'pending'}">${this.#jwksNote.text}</p>` : nothing}
      <div class="actions">
        <button type="button" class="verify" ?disabled=${this.#busy} @click=${() => this.verify()}>${this.#busy ? s.verifying : s.verify}</button>
      </div>
      <div class="results" aria-live="polite">${this.#results(s)}</div>`;
  }

  #field(id: string, label: string, hint: string, key: TextField, s: PanelStrings, extra: unknown): TemplateResult {
    return html`<div class="field ${id}">
      <div class="field-head">
        <label for=${id}>${label}</label>
        <span class="buttons">
          ${extra}
          <label class="file-button">
            ${s.openFile}
            <input class="sr-only file" type="file" accept=".json,application/json" @change=${(e: Event) => this.#readFile(e, key)} />
          </label>
        </span>
      </div>
      <textarea
        id=${id}
        class="mono"
        spellcheck="false"
        autocomplete="off"
        aria-describedby="${id}-hint"
        .value=${this[key]}
        @input=${(e: Event) => (this[key] = (e.target as HTMLTextAreaElement).value)}
        @dragover=${(e: DragEvent) => e.preventDefault()}
        @drop=${(e: DragEvent) => this.#drop(e, key)}
      ></textarea>
      <p id="${id}-hint" class="hint dim">${hint}</p>
    </div>`;
  }

  #results(s: PanelStrings): TemplateResult | typeof nothing {
    if (this.#error) return html`<p class="summary fail" role="alert">✗ ${this.#error}</p>`;
    if (this.#check) {
      const r = this.#check.result;
      const findings = this.#check.findings?.length ?? 0;
      const verdict = r.code !== 'ok' || findings > 0 ? 'fail' : r.version === 'pb-fair-2' && r.report.pending ? 'pending' : 'ok';
      // Never a bare mark: the line says what verified (the report under it has the details).
      const rounds = r.version === 'pb-fair-2' ? r.report.rounds.length : 0;
      const said =
        verdict === 'fail'
          ? `✗ ${s.verificationFailed}`
          : verdict === 'pending'
            ? `… ${fill(s.allVerifiedPending, { shoes: s.shoesOne, rounds, pending: s.shoesOne })}`
            : `✓ ${fill(s.allVerified, { shoes: s.shoesOne, rounds })}`;
      return html`<p class="summary ${verdict}" data-code=${r.code} data-findings=${findings}>${said}</p>
        <pb-verify-report-v2 .check=${this.#check} .strings=${this.strings}></pb-verify-report-v2>`;
    }
    if (this.#reports.length === 0) return nothing;
    const firstBad = this.#reports.findIndex((r) => r.failure);
    const rounds = this.#reports.reduce((n, r) => n + r.rounds.length, 0);
    const shoes = (count: number) => (count === 1 ? s.shoesOne : fill(s.shoesMany, { count }));
    let summary: TemplateResult;
    if (firstBad >= 0) {
      const f = this.#reports[firstBad]!.failure!;
      const shoe = this.#labels[firstBad]?.shoe ?? firstBad + 1;
      const where = f.round === null ? fill(s.firstFailureRecord, { shoe, record: f.record }) : fill(s.firstFailure, { shoe, round: f.round });
      summary = html`<div class="summary fail first-failure" data-round=${f.round ?? ''} data-code=${f.code}>
        <p class="verdict">✗ ${s.verificationFailed}</p>
        <p><strong>${where}</strong>: <span class="message">${f.message}</span></p>
      </div>`;
    } else {
      const pending = this.#reports.filter((r) => r.pending).length;
      summary = html`<p class="summary ${pending ? 'pending' : 'ok'}">
        ${pending ? '…' : '✓'}
        ${
          pending
            ? fill(s.allVerifiedPending, { shoes: shoes(this.#reports.length), rounds, pending: shoes(pending) })
            : fill(s.allVerified, { shoes: shoes(this.#reports.length), rounds })
        }
      </p>`;
    }
    return html`${summary}
      <pb-verify-report brief .reports=${this.#reports} .labels=${this.#labels} .strings=${this.strings}></pb-verify-report>`;
  }

  static override styles = [
    panelBase,
    css`
      :host {
        width: 100%;
        max-width: 1040px;
        margin: 0 auto;
        padding: 20px;
        container-type: inline-size;
      }
      h1 {
        margin: 0 0 6px;
        font-size: 1.5em;
        color: var(--_gold);
      }
      header {
        margin-bottom: 16px;
      }
      .inputs {
        display: grid;
        gap: 14px;
      }
      @container (min-width: 760px) {
        .inputs {
          grid-template-columns: minmax(0, 3fr) minmax(0, 2fr);
        }
      }
      .field-head {
        display: flex;
        align-items: center;
        justify-content: space-between;
        gap: 8px;
        margin-bottom: 6px;
      }
      .field-head > label {
        font-weight: 600;
        color: var(--_gold);
      }
      .buttons {
        display: flex;
        gap: 6px;
      }
      .file-button {
        display: inline-flex;
        align-items: center;
        padding: 5px 12px;
        min-height: 34px;
        border: 1px solid var(--_border);
        border-radius: 8px;
        cursor: pointer;
        white-space: nowrap;
      }
      .file-button:focus-within {
        outline: 2px solid var(--_gold);
        outline-offset: 2px;
      }
      .fetch {
        min-height: 34px;
        padding: 5px 12px;
      }
      textarea {
        display: block;
        width: 100%;
        min-height: 200px;
        resize: vertical;
        font-size: 0.82em;
      }
      .hint {
        margin: 4px 0 0;
        font-size: 0.85em;
      }
      .note {
        margin: 8px 0 0;
        font-size: 0.9em;
      }
      .actions {
        margin: 16px 0;
      }
      .verify {
        min-width: 10em;
        font-size: 1.05em;
      }
      .summary {
        margin: 0 0 10px;
        padding: 10px 12px;
        border-radius: 8px;
        font-weight: 600;
        overflow-wrap: anywhere;
      }
      .summary p {
        margin: 0;
      }
      .summary .verdict {
        font-size: 1.1em;
        margin-bottom: 4px;
      }
      .summary .message {
        font-weight: 400;
      }
      .summary.fail {
        color: var(--_fail);
        background: rgba(255, 122, 112, 0.14);
      }
      .summary.ok {
        color: var(--_ok);
        background: rgba(76, 208, 125, 0.14);
      }
      .summary.pending {
        color: var(--_pending);
        background: rgba(232, 191, 79, 0.13);
      }
    `,
  ];
}

defineElement('pb-verify-page', PbVerifyPage);

declare global {
  interface HTMLElementTagNameMap {
    'pb-verify-page': PbVerifyPage;
  }
}
