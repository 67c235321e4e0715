/**
 * <pb-fairness>: the provable-fairness panel of one shoe of a pb-fair-2 table (FAIRNESS.md part II).
 *
 * - Before the shoe (`status` 'awaiting-start'): the signed commitment (seed hash, key id, the
 *   parameters that decide the cards, the player's key), checked against the JWKS when one is
 *   given; the player's client seed (a random default, editable, "new random"); the cut, chosen on
 *   a drawing of the stack within `cutRange`; "Cut and start" emits `pb-shoe-start`.
 * - During ('in-play'): the round count, the seed and cut in use; optionally a button to end the
 *   shoe early (`pb-shoe-end`).
 * - After the reveal ('ended'): the server seed, the seed and cut.
 * - With `table` (the player's copy and the operator's transcript): "Verify the table's transcript"
 *   (the whole table, fetched and checked with the pb-fair-2 verifier against the player's key:
 *   per-round results, unsettled acceptances), "Compare with the operator's transcript"
 *   (`compareCopies` with the player's own copy: findings per round) and "Download my copy".
 * pb-fair-1 files are verified on the standalone /verify page: the table only plays pb-fair-2.
 *
 * @event pb-shoe-choice - `{ shoe, choice }` (emit.ts): before the shoe, the seed and cut as they stand, each time they change; `choice` is `{ ok: false, error }` while the seed is not acceptable.
 * @event pb-shoe-start - `{ clientSeed, cut }`: the player's seed (NFC, validated) and cut, in range.
 * @event pb-shoe-end - `{}`: the player asks to end the shoe now and reveal its seed.
 * @event pb-verified - `{ check }`: a verification of the table finished.
 */
import { css, html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { CARDS_PER_DECK, DEFAULT_DECKS } from '../../shared/cards.ts';
import { validateClientSeed } from '../../shared/fairness/common/seeds.ts';
import { type Jwks, verifyBytes } from '../../shared/fairness/common/keys.ts';
import type { Commitment, FairnessFile, Reveal, SignedRequest, Signed, Start } from '../../shared/fairness/pb-fair-2/records.ts';
import { recordDigest } from '../../shared/fairness/pb-fair-2/records.ts';
import { importKidVerifyKeys, verifyText } from '../../shared/fairness/pb-fair-2/verify.ts';
import { emit as emitPart } from '../element/emit.ts';
import { randomClientSeed, randomInt } from '../session/shoe-start.ts';
import { defineElement, emit, panelBase } from './base.ts';
import { clampCut, type CutChangeDetail } from './cut-stack.ts';
import './cut-stack.ts';
import { checkTable, type TableCheckResult } from './verify-report.ts';
import { fill, type PanelStrings, panelStrings } from './strings.ts';

export type FairnessStatus = 'awaiting-start' | 'in-play' | 'ended';

export interface ShoeStartDetail {
  clientSeed: string;
  cut: number;
}

export interface VerifiedDetail {
  check: TableCheckResult;
}

export { randomClientSeed };

/** A pb-fair-2 table as the panel checks it: the player's key and copy, and the operator's transcript. */
export interface TableSource {
  playerKey: string | null;
  /** The player's own copy now (records received, requests not yet answered). */
  copy(): FairnessFile & { sent: SignedRequest[] };
  /** The operator's transcript of the whole table (GET …/transcript), as text. */
  transcript(): Promise<{ ok: true; text: string } | { ok: false; reason: string }>;
}

/** The table's verifier: pb-fair-2 only (the table plays nothing else; /verify also reads pb-fair-1). */
const verifyV2 = async (text: string, jwks: Jwks, options: { playerKey?: string }) => {
  const report = await verifyText(text, jwks, options);
  return { version: 'pb-fair-2' as const, code: report.code, report };
};

/** The cuts of a committed shoe: any position inside its stack (FAIRNESS.md §B10). */
const cutsOf = (decks: number) => ({ min: 1, max: decks * CARDS_PER_DECK - 1 });

/** The file name the player's copy downloads as. */
export function copyFileName(copy: FairnessFile): string {
  const table = copy.records[0]?.body.table ?? 'table';
  return `punto-banco-${String(table).replace(/[^\w.-]+/g, '_')}-my-copy.json`;
}

/** Saves `blob` as `name` from inside `root` (a Blob download). */
function saveBlob(root: HTMLElement | DocumentFragment, name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  root.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export class PbFairness extends LitElement {
  static override properties = {
    commitment: { attribute: false },
    status: { type: String },
    rounds: { type: Number },
    jwks: { attribute: false },
    cutRange: { attribute: false },
    busy: { type: Boolean },
    allowEndShoe: { type: Boolean, attribute: 'allow-end-shoe' },
    proposal: { attribute: false },
    seedRefused: { type: Boolean, attribute: 'seed-refused' },
    table: { attribute: false },
    strings: { attribute: false },
  };

  /** The shoe's signed commitment (from the session / shoe state). */
  declare commitment: Signed<Commitment> | null;
  /** pb-fair-2: the table this shoe belongs to (the player's copy, the operator's transcript). */
  declare table: TableSource | null;
  /** Where the shoe is: waiting for the player's seed and cut, being dealt, or revealed. */
  declare status: FairnessStatus;
  /** Rounds dealt from this shoe so far. */
  declare rounds: number;
  /** The table's public keys, as served at /.well-known/jwks.json. */
  declare jwks: Jwks | null;
  /** Allowed cuts; defaults to the engine's `cutRange` of the committed parameters. */
  declare cutRange: { min: number; max: number } | null;
  /** A start request is on its way: the controls are disabled. */
  declare busy: boolean;
  /** Offer "End the shoe and reveal" during play. */
  declare allowEndShoe: boolean;
  /**
   * The seed and cut to offer before the shoe (a host's own random default, e.g. the one it uses
   * when the player deals without opening the panel); null: the panel draws its own. A new value
   * replaces what the fields show.
   */
  declare proposal: ShoeStartDetail | null;
  /** The table refused to start the shoe with the seed shown: the field says why. */
  declare seedRefused: boolean;
  declare strings: Partial<PanelStrings> | null;

  #clientSeed = randomClientSeed();
  #cut = 0;
  #seedError: string | null = null;
  #tableCheck: TableCheckResult | null = null;
  #tableError: string | null = null;
  #verifying = false;
  /** The commitment's own signature check: null until known. */
  #commitmentCheck: { ok: boolean; message?: string } | null = null;
  #checkToken = 0;
  /** The shoe, seed and cut last reported with `pb-shoe-choice`. */
  #reported = '';

  constructor() {
    super();
    this.commitment = null;
    this.status = 'awaiting-start';
    this.rounds = 0;
    this.jwks = null;
    this.cutRange = null;
    this.busy = false;
    this.allowEndShoe = false;
    this.proposal = null;
    this.seedRefused = false;
    this.table = null;
    this.strings = null;
  }

  /** The client seed currently in the field. */
  get clientSeed(): string {
    return this.#clientSeed;
  }

  set clientSeed(value: string) {
    this.#clientSeed = value;
    this.#seedError = null;
    this.#tellChoice();
    this.requestUpdate();
  }

  /** The cut currently chosen. */
  get cut(): number {
    return this.#cut;
  }

  set cut(value: number) {
    const { min, max } = this.#range();
    this.#cut = clampCut(value, min, max);
    this.#tellChoice();
    this.requestUpdate();
  }

  /** The last verification of the table, if any. */
  get check(): TableCheckResult | null {
    return this.#tableCheck;
  }

  #range(): { min: number; max: number } {
    if (this.cutRange) return this.cutRange;
    return cutsOf(this.commitment?.body.params.decks ?? DEFAULT_DECKS);
  }

  #stackSize(): number {
    return this.#range().max + 1;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    const previous: Signed<Commitment> | null | undefined = changed.get('commitment');
    const newShoe = changed.has('commitment') && previous?.hash !== this.commitment?.hash;
    if (newShoe) {
      // A new shoe: a fresh random seed and cut (any cut is as fair as any other), no stale verification.
      if (previous) this.#clientSeed = randomClientSeed();
      this.#seedError = null;
      this.#tableCheck = null;
      const { min, max } = this.#range();
      this.#cut = randomInt(min, max);
    } else if (changed.has('cutRange') || this.#cut === 0) {
      const { min, max } = this.#range();
      this.#cut = clampCut(this.#cut || randomInt(min, max), min, max);
    }
    if (this.proposal && (newShoe || changed.has('proposal'))) {
      const { min, max } = this.#range();
      this.#clientSeed = this.proposal.clientSeed;
      this.#cut = clampCut(this.proposal.cut, min, max);
      this.#seedError = null;
    }
    if (changed.has('commitment') || changed.has('jwks')) void this.#checkCommitment();
  }

  /** Before the shoe, tells the table the seed and cut as they stand whenever they change (a Deal starts the shoe with them). */
  protected override updated(): void {
    this.#tellChoice();
  }

  /** Sends `pb-shoe-choice` when the seed or cut differ from the last sent (at once: a Deal may follow in the same task). */
  #tellChoice(): void {
    if (this.status !== 'awaiting-start' || !this.commitment) return;
    const shoe = this.commitment.body.shoe;
    const key = `${this.commitment.hash}|${this.#cut}|${this.#clientSeed}`;
    if (key === this.#reported) return;
    this.#reported = key;
    const seed = validateClientSeed(this.#clientSeed);
    const { min, max } = this.#range();
    emitPart(this, 'pb-shoe-choice', { shoe, choice: seed.ok ? { ok: true, value: { clientSeed: seed.value, cut: clampCut(this.#cut, min, max) } } : seed });
  }

  /** Verifies the commitment's signature alone, as soon as it and the keys are known. */
  async #checkCommitment(): Promise<void> {
    const token = ++this.#checkToken;
    this.#commitmentCheck = null;
    const c = this.commitment;
    if (!c || !this.jwks) return;
    let check: { ok: boolean; message?: string };
    try {
      const key = (await importKidVerifyKeys(this.jwks)).byId.get(c.body.keyId);
      const ok = !!key && (await verifyBytes(key, c.signature, recordDigest(c.body)));
      check = ok ? { ok } : { ok, message: key ? 'the signature does not match the record' : `the JWKS has no key ${c.body.keyId}` };
    } catch (err) {
      check = { ok: false, message: (err as Error).message };
    }
    if (token !== this.#checkToken) return;
    this.#commitmentCheck = check;
    this.requestUpdate();
  }

  /**
   * Fetches the operator's transcript of the whole table and verifies it (pb-fair-2) against the
   * player's key; with `compare`, also compares it with the player's copy. Emits `pb-verified`.
   * Shows and returns the result (null without a table or keys).
   */
  async verifyTable(compare = false): Promise<TableCheckResult | null> {
    const table = this.table;
    if (!table || !this.jwks) return null;
    this.#verifying = true;
    this.#tableError = null;
    this.requestUpdate();
    try {
      const text = await table.transcript();
      if (!text.ok) {
        this.#tableError = text.reason;
        return null;
      }
      const copy = table.copy();
      // Without "compare", the copy still names the player's key every commitment must carry.
      const check = await checkTable(text.text, this.jwks, copy, verifyV2);
      this.#tableCheck = compare ? check : { ...check, findings: null };
      emit<VerifiedDetail>(this, 'pb-verified', { check: this.#tableCheck });
      return this.#tableCheck;
    } catch (err) {
      this.#tableError = (err as Error).message;
      return null;
    } finally {
      this.#verifying = false;
      this.requestUpdate();
    }
  }

  /** pb-fair-2: saves the player's own copy (a pb-fair-2 file with `sent`); returns the file name. */
  downloadCopy(): string | null {
    if (!this.table) return null;
    const copy = this.table.copy();
    const name = copyFileName(copy);
    saveBlob(this.renderRoot, name, new Blob([JSON.stringify(copy, null, 2)], { type: 'application/json' }));
    return name;
  }

  /** This shoe's pb-fair-2 record of `type` in the player's copy. */
  #v2Record<T extends Start | Reveal>(type: T['type']): T | null {
    const shoe = this.commitment?.body.shoe;
    const found = this.table?.copy().records.find((r) => r.body.type === type && r.body.shoe === shoe);
    return (found?.body as T | undefined) ?? null;
  }

  #tableView(s: PanelStrings): TemplateResult {
    const disabled = !this.jwks || this.#verifying;
    return html`<section class="table-check">
      <h3>${s.tableTitle}</h3>
      <p class="dim">${s.tableIntro}</p>
      ${this.table?.playerKey ? html`<dl><dt>${s.yourKey}</dt><dd class="mono hash player-key">${this.table.playerKey}</dd></dl>` : nothing}
      ${this.jwks ? nothing : html`<p class="pending">${s.noJwks}</p>`}
      <div class="actions">
        <button type="button" class="verify-table-button" ?disabled=${disabled} @click=${() => this.verifyTable(false)}>${this.#verifying ? s.verifying : s.verifyTable}</button>
        <button type="button" class="secondary compare-button" ?disabled=${disabled} @click=${() => this.verifyTable(true)}>${s.compareCopy}</button>
        <button type="button" class="secondary download-copy-button" @click=${() => this.downloadCopy()}>${s.downloadCopy}</button>
      </div>
      ${this.#tableError ? html`<p class="fail error" role="alert">${fill(s.transcriptUnavailable, { reason: this.#tableError })}</p>` : nothing}
      ${this.#tableCheck ? html`<pb-verify-report-v2 .check=${this.#tableCheck} .strings=${this.strings}></pb-verify-report-v2>` : nothing}
    </section>`;
  }

  /**
   * The seed (validated, NFC) and cut as they stand: what "Cut and start" would send. Null when
   * the seed is not acceptable; the field then shows why.
   */
  choice(): ShoeStartDetail | null {
    const seed = validateClientSeed(this.#clientSeed);
    if (!seed.ok) {
      this.#seedError = seed.error.message;
      this.requestUpdate();
      return null;
    }
    const { min, max } = this.#range();
    return { clientSeed: seed.value, cut: clampCut(this.#cut, min, max) };
  }

  /** Why the seed in the field cannot be used ('' when it can). */
  #seedProblem(): string {
    const seed = validateClientSeed(this.#clientSeed);
    return seed.ok ? '' : seed.error.message;
  }

  #start(): void {
    const choice = this.choice();
    if (choice) emit<ShoeStartDetail>(this, 'pb-shoe-start', choice);
  }

  protected override render(): TemplateResult {
    const s = panelStrings(this.strings);
    return html`<h2>${s.fairness}</h2>
      ${this.#commitmentView(s)}
      ${this.status === 'awaiting-start' ? this.#before(s) : this.status === 'in-play' ? this.#during(s) : this.#after(s)}`;
  }

  #commitmentView(s: PanelStrings): TemplateResult {
    const c = this.commitment;
    if (!c) return html`<p class="dim">${s.noCommitment}</p>`;
    const p = c.body.params;
    const params = [
      p.decks === 1 ? s.deck : fill(s.decks, { decks: p.decks }),
      'burn' in p ? (p.burn ? s.burnOn : s.burnOff) : null,
      p.mode === 'shoe' ? fill(s.cutCardFromEnd, { count: p.cutCardFromEnd }) : null,
      p.mode === 'shoe' ? s.modeShoe : s.modeReshuffle,
    ].filter(Boolean);
    const check = this.#commitmentCheck;
    return html`<section class="commitment">
      <h3>${s.commitment} · ${fill(s.shoeNumber, { shoe: c.body.shoe })}</h3>
      <dl>
        <dt>${s.serverSeedHash}</dt>
        <dd class="mono hash">${c.body.serverSeedHash}</dd>
        <dt>${s.params}</dt>
        <dd>${params.join(' · ')}</dd>
        <dt>${s.algorithm}</dt>
        <dd class="mono">${p.algorithm}</dd>
        <dt>${s.keyId}</dt>
        <dd class="mono">${c.body.keyId}</dd>
        <dt>${s.yourKey}</dt>
        <dd class="mono hash">${c.body.playerKey}</dd>
        ${
          check
            ? html`<dt>${s.commitmentSignature}</dt>
              <dd class="signature ${check.ok ? 'ok' : 'fail'}">
                ${check.ok ? html`✓ ${s.signatureValid}` : html`✗ ${fill(s.signatureInvalid, { reason: check.message ?? '' })}`}
              </dd>`
            : nothing
        }
      </dl>
    </section>`;
  }

  #before(s: PanelStrings): TemplateResult {
    const { min, max } = this.#range();
    const disabled = this.busy || !this.commitment;
    return html`<section class="start">
      <p class="intro">${s.beforeIntro}</p>
      <label class="field" for="seed">${s.clientSeed}</label>
      <div class="seed-row">
        <input
          id="seed"
          class="seed mono"
          type="text"
          maxlength="128"
          autocomplete="off"
          spellcheck="false"
          .value=${this.#clientSeed}
          ?disabled=${this.busy}
          aria-invalid=${this.#seedError ? 'true' : 'false'}
          aria-describedby="seed-error"
          @input=${(e: Event) => {
            this.clientSeed = (e.target as HTMLInputElement).value;
          }}
        />
        <button type="button" class="secondary new-seed" ?disabled=${this.busy} @click=${() => (this.clientSeed = randomClientSeed())}>
          ${s.newRandom}
        </button>
      </div>
      <p id="seed-error" class="fail error" role="alert">${this.#seedError ?? (this.seedRefused ? this.#seedProblem() : '')}</p>
      <p class="field">${s.cut}</p>
      <pb-cut-stack
        .size=${this.#stackSize()}
        .min=${min}
        .max=${max}
        .value=${this.#cut}
        .strings=${this.strings}
        ?disabled=${this.busy}
        @pb-cut-change=${(e: CustomEvent<CutChangeDetail>) => {
          e.stopPropagation();
          this.#cut = e.detail.cut;
          this.#tellChoice();
          this.requestUpdate();
        }}
      ></pb-cut-stack>
      <div class="actions">
        <button type="button" class="start-button" ?disabled=${disabled} @click=${() => this.#start()}>${this.busy ? s.starting : s.cutAndStart}</button>
      </div>
    </section>`;
  }

  #during(s: PanelStrings): TemplateResult {
    const start = this.#v2Record<Start>('start')?.request.body;
    return html`<section class="during">
      <p><strong class="round-count">${fill(s.duringIntro, { rounds: this.rounds })}</strong></p>
      ${start ? html`<p class="dim">${fill(s.yourSeedAndCut, { seed: start.clientSeed, cut: start.cut })}</p>` : nothing}
      <div class="actions">
        ${
          this.allowEndShoe
            ? html`<button type="button" class="secondary end-button" ?disabled=${this.busy} @click=${() => emit(this, 'pb-shoe-end', {})}>${s.endShoe}</button>`
            : nothing
        }
      </div>
    </section>
    ${this.table ? this.#tableView(s) : nothing}`;
  }

  #after(s: PanelStrings): TemplateResult {
    const reveal = this.#v2Record<Reveal>('reveal');
    const start = this.#v2Record<Start>('start')?.request.body;
    return html`<section class="after">
        ${
          reveal
            ? html`<p>${fill(s.revealed, { rounds: reveal.rounds, reason: reveal.reason === 'cut-card' ? s.reasonCutCard : s.reasonEndedEarly })}</p>
              <dl>
                <dt>${s.serverSeed}</dt>
                <dd class="mono hash">${reveal.serverSeed}</dd>
                ${
                  start
                    ? html`<dt>${s.clientSeed}</dt>
                      <dd class="mono">${start.clientSeed}</dd>
                      <dt>${s.cutValue}</dt>
                      <dd>${start.cut}</dd>`
                    : nothing
                }
              </dl>`
            : nothing
        }
      </section>
      ${this.table ? this.#tableView(s) : nothing}`;
  }

  static override styles = [
    panelBase,
    css`
      section + section {
        margin-top: 12px;
      }
      .commitment {
        padding: 10px 12px;
        background: var(--_surface);
        border: 1px solid var(--_border);
        border-radius: 8px;
      }
      dl {
        display: grid;
        grid-template-columns: max-content minmax(0, 1fr);
        gap: 4px 14px;
        margin: 0;
      }
      dt {
        color: var(--_text-dim);
      }
      dd {
        margin: 0;
        min-width: 0;
      }
      .hash {
        font-size: 0.85em;
      }
      @container (max-width: 480px) {
        dl {
          grid-template-columns: minmax(0, 1fr);
          gap: 0;
        }
        dd {
          margin-bottom: 6px;
        }
      }
      :host {
        container-type: inline-size;
      }
      .intro {
        color: var(--_text-dim);
      }
      .field {
        display: block;
        margin: 10px 0 4px;
        font-weight: 600;
        color: var(--_gold);
      }
      .seed-row {
        display: flex;
        gap: 8px;
      }
      .seed {
        flex: 1;
        min-width: 0;
        min-height: 36px;
      }
      .error {
        min-height: 0;
        margin: 4px 0 0;
        font-size: 0.9em;
      }
      .error:empty {
        display: none;
      }
      .actions {
        display: flex;
        flex-wrap: wrap;
        gap: 8px;
        margin: 12px 0;
      }
      .actions:empty {
        display: none;
      }
      .start-button {
        min-width: 12em;
      }
      .signature.ok {
        color: var(--_ok);
      }
      .signature.fail {
        color: var(--_fail);
      }
      .round-count {
        color: var(--_text);
        font-weight: 600;
      }
      pb-verify-report {
        margin-top: 4px;
      }
    `,
  ];
}

defineElement('pb-fairness', PbFairness);

declare global {
  interface HTMLElementTagNameMap {
    'pb-fairness': PbFairness;
  }
}
