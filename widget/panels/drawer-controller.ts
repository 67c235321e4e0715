/**
 * The panels of <punto-banco-table> (scoreboard, history, fairness, help), as a reactive
 * controller: it keeps every record of the session's shoes the element received (commitment,
 * start, receipts, reveal), turns them into what each panel shows, loads each panel's module the
 * first time it opens, and drives the drawer (the strip of launchers and one <dialog>: in the page
 * on a wide table, a modal bottom sheet on a phone).
 *
 * The shoe itself (its number, status, cut range) is the table session's (table-session.ts):
 * the controller reads it there and keeps only the signed records that arrived for each shoe.
 *
 * The player's cut. The element starts a committed shoe with the seed and cut its
 * `shoeStartProvider` gives; unless the host set its own, it uses this controller's `provider`:
 * - "Cut and start" in the fairness panel starts the shoe at once with the panel's seed and cut;
 * - a Deal on a shoe nobody started uses what the fairness panel shows (it reports the seed and
 *   cut with `pb-shoe-choice` as they change) — the random default seed and cut (made here, shown
 *   there) if the player never touched them, their edits otherwise — so a newcomer who just bets
 *   is never blocked; only a seed the engine refuses stops the deal (the provider answers null),
 *   with the panel open on the reason.
 * The offer on the felt (renderInvite): the shuffled stack drawn by the scene and a cut card the
 * player drags into it (pointer) or moves with the arrow keys and puts in with Enter; the cut sent
 * is where the card was dropped, kept inside the shoe's cut range (shoeCutRange: the Worker's).
 * The card starts where the random default cut is; moving it moves that default (the fairness
 * panel, one tap away, shows the same seed and cut), so a Deal without a drop cuts there too.
 * The invitation: on a table wide enough to have the pane beside the felt (PANE_BESIDE_MIN_WIDTH,
 * the element's own width, not the window's) the fairness panel opens by itself on the session's
 * first shoe (it takes no focus); on a narrower table, where it would sit under the felt and push
 * the page down, or on a phone, where the panel is a modal sheet, a line above the launchers
 * invites the player to cut instead of opening it uninvited. Later shoes open it again only for a player who cut a shoe themselves; a player who
 * closed the invitation is not asked again.
 *
 * Verification (pb-fair-2): the fairness panel fetches the table's whole transcript
 * (GET …/transcript), verifies it against the player's key and compares it with the player's own
 * copy (table-session.ts keeps it, player.ts). Ended shoes stay in the fairness tab after the next
 * one starts.
 */
import type { ReactiveController } from 'lit';
import { nothing, type TemplateResult } from 'lit';
import type { Rect } from '../layout.ts';
import type { Jwks } from '../../shared/fairness/common/keys.ts';
import type { ShoeStartDetail, TableSource } from './fairness.ts';
import { PANEL_STRINGS, type PanelStrings } from './strings.ts';
import { type ApiResult, newIdempotencyKey } from '../session/api-client.ts';
import type { PlayedRound, Reveal, ShoeStartChoice, ShoeState, Signed } from '../session/api-types.ts';
import type { SettledRound } from '../round-view.ts';
import type { ShoeChoiceDetail } from '../element/emit.ts';
import type { PanelsHost, PanelsLink, ShoeEndAnswer } from './drawer-link.ts';
import type { PlayerCopy } from '../session/player.ts';
import { type FairnessShoe, PANE_BESIDE_MIN_WIDTH, type PanelName, type PanelsHandlers, type PanelsModel, renderInvite, renderPanels } from './drawer-view.ts';
import { PAST_SHOES, rebuild, recordsOf, type ShoeRecords } from './shoe-records.ts';
import { clampCut, cutAtFraction, randomShoeStart, shoeCutRange, shoeDecks, type ShoeStartProvider } from '../session/shoe-start.ts';
import { CARDS_PER_DECK } from '../../shared/cards.ts';
import type { TableScene } from '../scene/types.ts';
import { SHORT_SCREEN } from '../element/short-screen.ts';
import * as apiCalls from '../../shared/wire/http-calls.ts';

/** Widest table (CSS px) laid out as a phone: the pane becomes a modal bottom sheet. */
const SHEET_MAX_WIDTH = 640;
/** The element's content-box width, as its container queries see it (styles/drawer.ts). */
function contentWidth(host: HTMLElement): number {
  const style = getComputedStyle(host);
  return host.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
}
const JWKS_PATH = '.well-known/jwks.json';

const MODULES: Record<PanelName, () => Promise<unknown>> = {
  scoreboard: () => import('./scoreboard.ts'),
  history: () => import('./history.ts'),
  fairness: () => import('./fairness.ts'),
  help: () => import('./help.ts'),
};

export class PanelsController implements ReactiveController {
  #host: PanelsHost;
  #link: PanelsLink;
  #open: PanelName | null = null;
  #sheet = false;
  /** The table is wide enough for the pane beside the felt (then an invitation may open it). */
  #beside = false;
  #modules = new Map<PanelName, 'loading' | 'ready' | 'failed'>();
  #current: ShoeRecords | null = null;
  #past: ShoeRecords[] = [];
  #selected: number | null = null;
  #proposal: { shoe: number; choice: ShoeStartDetail } | null = null;
  /** The seed and cut the current shoe's fairness panel shows (`pb-shoe-choice`). */
  #shown: ShoeChoiceDetail | null = null;
  /** The shoe whose deal was refused for its seed: its panel says why until the seed changes. */
  #refused: number | null = null;
  /** The cut card on the felt, once the player moved it (a cut of this shoe); `held` while being moved, `placed` once dropped. */
  #feltCut: { shoe: number; cut: number; state: 'hover' | 'held' | 'placed' } | null = null;
  /** The pointer that holds the felt's cut card, if any. */
  #feltPointer: number | null = null;
  /** What the scene was last told of the offer (its scene and view), so it is told again only on a change. */
  #offerShown: { scene: TableScene | null; key: string } = { scene: null, key: 'null' };
  /** The choice "Cut and start" sent, until the shoe has started. */
  #chosen: { shoe: number; choice: ShoeStartChoice } | null = null;
  #busy: 'start' | 'end' | null = null;
  #endKey: { shoe: number; key: string } | null = null;
  #error: string | null = null;
  #jwks: Jwks | null = null;
  #jwksLoading: Promise<void> | null = null;
  /** The fairness panel opened by itself (an invitation), not by the player. */
  #autoOpened = false;
  /** The player closed an invitation to cut: no more opening by itself. */
  #dismissed = false;
  /** The player cut a shoe themselves: later shoes invite them again. */
  #engaged = false;
  #returnFocus: HTMLElement | null = null;
  #resize: ResizeObserver | null = null;
  #measureFrame = 0;
  #strings: { key: string; value: PanelStrings } | null = null;
  #format: { key: string; value: (minor: number) => string } | null = null;

  constructor(host: PanelsHost, link: PanelsLink) {
    this.#host = host;
    this.#link = link;
    host.addController(this);
    if (host.isConnected) this.hostConnected();
  }

  hostConnected(): void {
    if (this.#resize) return;
    // Measured at the next frame, not in the observer's callback: what the measure changes (the
    // pane closing, becoming a sheet) resizes the host itself, which an observer may not report
    // again in the same frame (a "ResizeObserver loop" error).
    this.#resize = new ResizeObserver(() => {
      cancelAnimationFrame(this.#measureFrame);
      this.#measureFrame = requestAnimationFrame(() => this.#measure());
    });
    this.#resize.observe(this.#host);
  }

  hostDisconnected(): void {
    this.#resize?.disconnect();
    this.#resize = null;
    cancelAnimationFrame(this.#measureFrame);
  }

  /** Keeps the pane in the layout the table's width asks for, and the scene's offer of the cut where the DOM put it. */
  hostUpdated(): void {
    this.syncOffer();
    const dialog = this.#host.renderRoot.querySelector<HTMLDialogElement>('dialog.pane');
    const want = this.#open === null ? 'closed' : this.#sheet ? 'sheet' : 'inline';
    this.#host.toggleAttribute('data-pane', want === 'inline');
    if (!dialog) return;
    const modal = dialog.matches(':modal');
    if (want === 'closed') {
      if (dialog.open) dialog.close();
    } else if (want === 'sheet') {
      if (dialog.open && !modal) dialog.close();
      if (!dialog.open && dialog.isConnected) dialog.showModal();
    } else {
      if (modal) dialog.close();
      // The open attribute, not show(): an inline pane must not move the page's focus.
      if (!dialog.open) dialog.setAttribute('open', '');
    }
  }

  #measure(): void {
    const width = this.#host.getBoundingClientRect().width;
    const sheet = width > 0 && width <= SHEET_MAX_WIDTH;
    const beside = contentWidth(this.#host) >= PANE_BESIDE_MIN_WIDTH;
    if (sheet === this.#sheet && beside === this.#beside) return;
    this.#sheet = sheet;
    this.#beside = beside;
    // An invitation opened beside the felt is not moved under it nor turned into a sheet over the
    // page: it goes, and the line above the launchers invites instead.
    if (!beside && this.#open === 'fairness' && this.#autoOpened) {
      this.#open = null;
      this.#autoOpened = false;
    }
    this.#host.requestUpdate();
  }

  // ---- what the element tells the controller ------------------------------------------------

  /**
   * A session opened: a new table's first shoe, committed; or, resuming after a reload, its
   * current shoe with the rounds dealt so far. Earlier sessions' shoes are another table's.
   */
  sessionOpened(rounds: readonly SettledRound[] = []): void {
    this.#current = null;
    this.#past = [];
    const now = this.#now();
    if (!now) return;
    const { shoe, records: current } = now;
    if (rounds.length) rebuild(Object.assign(current, { rounds: [...rounds] }));
    this.#selected = null;
    this.#proposal = null;
    this.#shown = null;
    this.#refused = null;
    this.#chosen = null;
    this.#feltCut = null;
    this.#feltPointer = null;
    this.#busy = null;
    this.#endKey = null;
    this.#error = null;
    this.#measure();
    this.#invite(shoe.number === 1);
    this.#host.requestUpdate();
  }

  /**
   * The table's shoe now and its records. A shoe the controller has not seen gets new records (from
   * its commitment and start); the one before goes to the ended shoes, where its reveal finds it.
   */
  #now(): { shoe: ShoeState; records: ShoeRecords } | null {
    const shoe = this.#link.shoe();
    if (!shoe) return null;
    if (this.#current?.number !== shoe.number) {
      if (this.#current) this.#past = [this.#current, ...this.#past].slice(0, PAST_SHOES);
      this.#current = recordsOf(shoe);
    }
    return { shoe, records: this.#current };
  }

  /** The records of shoe `number`, current or ended. */
  #find(number: number): ShoeRecords | null {
    return [this.#current, ...this.#past].find((s) => s?.number === number) ?? null;
  }

  /** The shoe started (its start record, when the answer carried one). */
  shoeStarted(shoe: ShoeState): void {
    const current = this.#find(shoe.number);
    if (!current) return;
    current.start = shoe.start ?? current.start;
    this.#chosen = null;
    if (this.#autoOpened && this.#open === 'fairness') this.#autoOpened = false;
    rebuild(current);
    this.#host.requestUpdate();
  }

  /** A round was dealt (after its animation): the round, and the reveal and next shoe when the cut card came out. */
  roundPlayed(answer: PlayedRound): void {
    const round = answer.round;
    const played = this.#find(round.shoe);
    if (played && !played.rounds.some((r) => r.record.hash === round.record.hash)) {
      played.rounds = [...played.rounds, round];
      rebuild(played);
    }
    if (answer.reveal) this.#ended(answer.reveal, false);
    this.#host.requestUpdate();
  }

  /** A shoe was revealed (the table already has the next one). */
  #ended(reveal: Signed<Reveal>, byPlayer: boolean): void {
    const ended = this.#find(reveal.body.shoe);
    if (ended) {
      ended.reveal = reveal;
      rebuild(ended);
      if (this.#current === ended) this.#current = null;
      if (!this.#past.includes(ended)) this.#past = [ended, ...this.#past].slice(0, PAST_SHOES);
    }
    this.#proposal = null;
    this.#endKey = null;
    // The player asked for the reveal: show them that shoe, ready to verify.
    if (byPlayer && ended) this.#selected = ended.number;
    else if (this.#selected !== null && !this.#past.some((s) => s.number === this.#selected)) this.#selected = null;
    void this.#loadJwks();
    this.#invite(false);
  }

  /** Opens the fairness panel for a shoe waiting for its cut, when that is welcome (see the file comment). */
  #invite(firstShoe: boolean): void {
    const shoe = this.#link.shoe();
    if (!shoe || shoe.status !== 'awaiting-start' || !this.#beside || this.#dismissed || this.#open !== null) return;
    // Not on a screen too short for anything but the table (a phone held sideways): the pane would
    // push it past the fold; the invitation line asks instead.
    if (matchMedia(SHORT_SCREEN).matches) return;
    if (!firstShoe && !this.#engaged) return;
    this.#open = 'fairness';
    this.#autoOpened = true;
    void this.#load('fairness');
    void this.#loadJwks();
  }

  // ---- the shoe-start provider ----------------------------------------------------------------

  /** The seed and cut a committed shoe starts with (see the file comment). */
  readonly provider: ShoeStartProvider = (shoe) => this.#choiceFor(shoe);

  #choiceFor(shoe: ShoeState): ShoeStartChoice | null {
    if (this.#chosen?.shoe === shoe.number) return this.#chosen.choice;
    const shown = this.#shown?.shoe === shoe.number ? this.#shown.choice : null;
    if (shown && !shown.ok) {
      this.#refused = shoe.number;
      this.#show('fairness', null);
      return null;
    }
    const choice = shown?.value ?? this.#proposalFor(shoe);
    // The card moved on the felt is the cut, with the seed the panel shows.
    return this.#feltCut?.shoe === shoe.number ? { clientSeed: choice.clientSeed, cut: this.#feltCut.cut } : choice;
  }

  /** The random default for `shoe`, made once and shown in the panel. */
  #proposalFor(shoe: ShoeState): ShoeStartDetail {
    if (this.#proposal?.shoe !== shoe.number) this.#proposal = { shoe: shoe.number, choice: randomShoeStart(shoe) };
    return this.#proposal.choice;
  }

  // ---- actions --------------------------------------------------------------------------------

  /** Opens a panel (or closes it when it is the one open). */
  toggle(name: PanelName, from: HTMLElement | null = null): void {
    if (this.#open === name) this.close();
    else this.#show(name, from);
  }

  /** The panel open now, if any. */
  get open(): PanelName | null {
    return this.#open;
  }

  #show(name: PanelName, from: HTMLElement | null): void {
    const wasClosed = this.#open === null;
    this.#open = name;
    this.#autoOpened = false;
    if (from && wasClosed) this.#returnFocus = from;
    void this.#load(name);
    if (name === 'fairness') void this.#loadJwks();
    this.#host.requestUpdate();
    // Under the table, bring the opened pane into view (a person asked for it).
    if (from && !this.#sheet) {
      void (this.#host as unknown as { updateComplete: Promise<unknown> }).updateComplete.then(() =>
        this.#host.renderRoot.querySelector('dialog.pane')?.scrollIntoView({ block: 'nearest', behavior: 'smooth' }),
      );
    }
  }

  /** Closes the pane. */
  close(): void {
    if (this.#open === null) return;
    this.#closed();
    this.#host.requestUpdate();
    const back = this.#returnFocus;
    this.#returnFocus = null;
    if (back?.isConnected) void (this.#host as unknown as { updateComplete: Promise<unknown> }).updateComplete.then(() => back.focus());
  }

  #closed(): void {
    // Closing the invitation is an answer: it is not offered again.
    if (this.#open === 'fairness' && this.#link.shoe()?.status === 'awaiting-start') this.#dismissed = true;
    this.#open = null;
    this.#autoOpened = false;
  }

  async #cutAndStart(choice: ShoeStartDetail): Promise<void> {
    const shoe = this.#link.shoe();
    if (!shoe || shoe.status !== 'awaiting-start' || this.#busy) return;
    this.#chosen = { shoe: shoe.number, choice: { clientSeed: choice.clientSeed, cut: choice.cut } };
    this.#engaged = true;
    this.#dismissed = false;
    this.#busy = 'start';
    this.#error = null;
    this.#host.requestUpdate();
    let started = false;
    try {
      started = await this.#link.startShoe();
    } finally {
      this.#busy = null;
      if (!started && this.#feltCut?.state === 'placed') this.#feltCut = { ...this.#feltCut, state: 'hover' };
      this.#host.requestUpdate();
    }
    // A failure shows on the felt with Retry: a sheet over it would hide it.
    if (!started && this.#sheet && this.#host.state === 'error') this.close();
  }

  async #endShoe(): Promise<void> {
    const shoe = this.#link.shoe();
    if (!shoe || shoe.status !== 'in-play' || this.#busy) return;
    // One key per shoe: a retry after a lost answer must not end the next shoe too.
    if (this.#endKey?.shoe !== shoe.number) this.#endKey = { shoe: shoe.number, key: newIdempotencyKey() };
    this.#busy = 'end';
    this.#error = null;
    this.#host.requestUpdate();
    let result: ApiResult<ShoeEndAnswer> | null = null;
    try {
      result = await this.#link.endShoe(this.#endKey.key);
    } finally {
      this.#busy = null;
    }
    if (result && !result.ok && result.error.code !== 'aborted') this.#error = this.#link.t('drawer.endFailed', { reason: result.error.message });
    if (result?.ok) this.#ended(result.value.reveal, true);
    this.#host.requestUpdate();
  }

  // ---- loading --------------------------------------------------------------------------------

  async #load(name: PanelName): Promise<void> {
    const state = this.#modules.get(name);
    if (state === 'loading' || state === 'ready') return;
    this.#modules.set(name, 'loading');
    try {
      await MODULES[name]();
      this.#modules.set(name, 'ready');
    } catch {
      this.#modules.set(name, 'failed'); // opening the panel again retries
    }
    this.#host.requestUpdate();
  }

  /** The table's public keys, from `<endpoint>/.well-known/jwks.json` (fetched again after a failure). */
  #loadJwks(): Promise<void> {
    if (this.#jwks) return Promise.resolve();
    this.#jwksLoading ??= (async () => {
      try {
        const response = await this.#host.fetcher(this.#link.api.url(JWKS_PATH), { method: 'GET', headers: { accept: 'application/json' } });
        const body = (await response.json()) as Jwks;
        if (response.ok && Array.isArray(body?.keys)) this.#jwks = { keys: body.keys };
      } catch {
        // No keys: the panel says signatures cannot be checked yet.
      } finally {
        this.#jwksLoading = null;
        this.#host.requestUpdate();
      }
    })();
    return this.#jwksLoading;
  }

  /** The table as the fairness panel checks it: the player's key and copy, the operator's transcript. */
  #tableSource(): TableSource | null {
    const player = this.#link.player();
    const copy = player?.copy;
    const id = this.#host.sessionId;
    if (!copy || !id) return null;
    if (this.#table?.copy !== copy) {
      this.#table = {
        copy,
        value: {
          playerKey: player.key,
          copy: () => copy.file(),
          transcript: async () => {
            // The raw text: the verifier judges integers and duplicate members on it.
            const url = this.#link.api.url(apiCalls.transcriptPath(id));
            try {
              const response = await this.#host.fetcher(url, {
                method: 'GET',
                headers: { accept: 'application/json', authorization: `Bearer ${this.#link.api.token ?? ''}` },
              });
              const text = await response.text();
              return response.ok ? { ok: true, text } : { ok: false, reason: `HTTP ${response.status}` };
            } catch (err) {
              return { ok: false, reason: String((err as Error)?.message ?? err) };
            }
          },
        },
      };
    }
    return this.#table.value;
  }

  #table: { copy: PlayerCopy; value: TableSource } | null = null;

  // ---- render ---------------------------------------------------------------------------------

  #handlers: PanelsHandlers = {
    toggle: (name, from) => this.toggle(name, from),
    close: () => this.close(),
    dialogClosed: (dialog) => {
      // Closed by the browser (Escape on the sheet), not by us: follow it.
      if (!dialog.open && this.#open !== null && this.#sheet) {
        this.#closed();
        this.#host.requestUpdate();
      }
    },
    select: (shoe) => {
      this.#selected = shoe === this.#link.shoe()?.number ? null : shoe;
      this.#host.requestUpdate();
    },
    choice: (detail) => {
      // A cut changed in the panel is newer than the card on the felt: the card follows the panel.
      if (this.#feltCut && detail.shoe === this.#feltCut.shoe && detail.choice.ok && detail.choice.value.cut !== this.#feltCut.cut) this.#feltCut = null;
      this.#shown = detail;
      if (this.#refused !== null) {
        this.#refused = null;
        this.#host.requestUpdate();
      }
    },
    cutAndStart: (detail) => void this.#cutAndStart(detail),
    cutForMe: () => {
      const shoe = this.#link.shoe();
      if (shoe?.status === 'awaiting-start') void this.#cutAndStart(randomShoeStart(shoe));
    },
    endShoe: () => void this.#endShoe(),
    cutPointer: (e) => this.#cutPointer(e),
    cutKey: (e) => this.#cutKey(e),
    cutFocus: (focused) => this.#feltHold(focused),
  };

  // ---- the cut card on the felt -----------------------------------------------------------------

  /** The shoe waiting for its cut, when the felt's cut card may move now (not while a start or a round runs). */
  #cuttable(): ShoeState | null {
    const shoe = this.#link.shoe();
    const state = this.#host.state;
    if (!shoe || shoe.status !== 'awaiting-start' || this.#busy || !(state === 'ready' || state === 'settled')) return null;
    return shoe;
  }

  /** Where the felt's cut card stands for `shoe`: moved by the player, else the panel's or the default cut. */
  #feltValue(shoe: ShoeState): { value: number; min: number; max: number; size: number; state: 'hover' | 'held' | 'placed' } {
    const range = shoeCutRange(shoe);
    const size = shoeDecks(shoe) * CARDS_PER_DECK;
    const felt = this.#feltCut?.shoe === shoe.number ? this.#feltCut : null;
    const shown = this.#shown?.shoe === shoe.number && this.#shown.choice.ok ? this.#shown.choice.value : null;
    const value = felt?.cut ?? shown?.cut ?? this.#proposalFor(shoe).cut;
    return { value, ...range, size, state: felt?.state ?? 'hover' };
  }

  /** Moves the felt's cut card to `cut` (kept in range); the default the panel shows moves with it. */
  #feltMove(shoe: ShoeState, cut: number, state: 'hover' | 'held'): void {
    const { min, max } = shoeCutRange(shoe);
    const value = clampCut(cut, min, max);
    const shown = this.#shown?.shoe === shoe.number && this.#shown.choice.ok ? this.#shown.choice.value : null;
    const seed = shown?.clientSeed ?? this.#proposalFor(shoe).clientSeed;
    if (this.#feltCut?.shoe === shoe.number && this.#feltCut.cut === value && this.#feltCut.state === state) return;
    this.#feltCut = { shoe: shoe.number, cut: value, state };
    this.#proposal = { shoe: shoe.number, choice: { clientSeed: seed, cut: value } };
    this.#host.requestUpdate();
  }

  /** The card is held (focused by the keys) or let go. */
  #feltHold(held: boolean): void {
    const shoe = this.#cuttable();
    if (!shoe || this.#feltPointer !== null) return;
    this.#feltMove(shoe, this.#feltValue(shoe).value, held ? 'held' : 'hover');
  }

  /** The card is put into the stack at `cut`: the shoe starts with that cut (the shuffle and cut then play on the felt). */
  #feltDrop(shoe: ShoeState, cut: number): void {
    this.#feltMove(shoe, cut, 'hover');
    const choice = this.#choiceFor(shoe);
    if (!choice) return; // a seed the engine refuses: the panel says why
    this.#feltCut = { shoe: shoe.number, cut: choice.cut, state: 'placed' };
    void this.#cutAndStart(choice);
  }

  /** The cut at the pointer's x over the drawn stack (its place in the slider). */
  #cutAtPointer(shoe: ShoeState, e: PointerEvent): number {
    const slider = e.currentTarget as HTMLElement;
    const place = (slider.querySelector('.cut-place') ?? slider).getBoundingClientRect();
    const { size } = this.#feltValue(shoe);
    return cutAtFraction((e.clientX - place.left) / Math.max(1, place.width), size, shoeCutRange(shoe));
  }

  /** Drag: down picks the card up where the pointer is, it follows the pointer, up drops it in there (a cancel does not). */
  #cutPointer(e: PointerEvent): void {
    const shoe = this.#cuttable();
    if (!shoe) return;
    const slider = e.currentTarget as HTMLElement;
    if (e.type === 'pointerdown') {
      if (e.button !== 0 || this.#feltPointer !== null) return;
      this.#feltPointer = e.pointerId;
      slider.setPointerCapture?.(e.pointerId);
      slider.focus({ preventScroll: true });
      e.preventDefault();
      this.#feltMove(shoe, this.#cutAtPointer(shoe, e), 'held');
      return;
    }
    if (e.pointerId !== this.#feltPointer) return;
    if (e.type === 'pointermove') {
      this.#feltMove(shoe, this.#cutAtPointer(shoe, e), 'held');
      return;
    }
    this.#feltPointer = null;
    if (e.type === 'pointerup') this.#feltDrop(shoe, this.#cutAtPointer(shoe, e));
    else this.#feltMove(shoe, this.#feltValue(shoe).value, 'hover');
  }

  /** Keys on the focused card: arrows move it a card, Page Up/Down a deck, Home/End to the ends; Enter or Space puts it in. */
  #cutKey(e: KeyboardEvent): void {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const shoe = this.#cuttable();
    if (!shoe) return;
    const { value, min, max } = this.#feltValue(shoe);
    const step: Record<string, number> = {
      ArrowLeft: -1,
      ArrowDown: -1,
      ArrowRight: 1,
      ArrowUp: 1,
      PageDown: -CARDS_PER_DECK,
      PageUp: CARDS_PER_DECK,
      Home: min - value,
      End: max - value,
    };
    if (e.key in step) this.#feltMove(shoe, value + step[e.key]!, 'held');
    else if (e.key === 'Enter' || e.key === ' ') this.#feltDrop(shoe, value);
    else return;
    e.preventDefault();
    e.stopPropagation();
  }

  /**
   * Tells the scene where the offer's stack is (the DOM's `.cut-place`, in table px) and where its
   * card stands; nothing once the offer is gone. Only on a change (or a new scene).
   */
  syncOffer(): void {
    const scene = this.#link.scene();
    const place = this.#host.renderRoot.querySelector<HTMLElement>('.invite .cut-place');
    const mat = place?.parentElement;
    const shoe = this.#link.shoe();
    let view: Parameters<NonNullable<TableScene['offerCut']>>[0] = null;
    if (scene && place && mat && shoe?.status === 'awaiting-start') {
      const c = scene.canvas.getBoundingClientRect();
      const round = (v: number): number => Math.round(v * 10) / 10;
      const at = (e: Element): Rect => {
        const r = e.getBoundingClientRect();
        return { x: round(r.left - c.left), y: round(r.top - c.top), w: round(r.width), h: round(r.height) };
      };
      const { value, size, state } = this.#feltValue(shoe);
      const p = at(place);
      if (p.w > 0 && p.h > 0) view = { place: p, mat: at(mat), fraction: value / size, state };
    }
    const key = JSON.stringify(view);
    if (scene === this.#offerShown.scene && key === this.#offerShown.key) return;
    this.#offerShown = { scene, key };
    scene?.offerCut?.(view);
  }

  /** The panel texts in the element's language (recomputed only when the catalogs change). */
  #panelStrings(): PanelStrings {
    const t = this.#link.t;
    // The probe changes when the catalogs have really switched (the language switches a moment before).
    const key = `${this.#link.language()}|${t('panels.fairness')}|${t('panels.beadPlate')}`;
    if (this.#strings?.key !== key) {
      const value = Object.fromEntries(Object.keys(PANEL_STRINGS).map((k) => [k, t(`panels.${k}`)])) as PanelStrings;
      this.#strings = { key, value };
    }
    return this.#strings.value;
  }

  #formatAmount(): (minor: number) => string {
    const key = `${this.#link.language()}|${this.#host.currency}|${this.#link.money(1095)}`;
    if (this.#format?.key !== key) {
      const money = this.#link.money;
      this.#format = { key, value: (minor) => money(minor) };
    }
    return this.#format.value;
  }

  #fairnessShoe(s: ShoeRecords, shoe?: ShoeState): FairnessShoe {
    return {
      number: s.number,
      status: shoe?.status ?? 'ended',
      commitment: s.commitment,
      rounds: s.rounds.length,
      cutRange: shoe?.cutRange ?? null,
    };
  }

  /** The offer of the cut on the felt, in the room `layout` keeps for it (nothing once the shoe is cut). */
  renderInvite(layout: { cutOffer: Rect } | null): TemplateResult | typeof nothing {
    const shoe = this.#link.shoe();
    const waiting = shoe?.status === 'awaiting-start';
    const tableState = this.#host.state;
    const idle = tableState === 'ready' || tableState === 'settled';
    if (!layout || !shoe) return nothing;
    return renderInvite(
      {
        t: this.#link.t,
        invite: waiting && this.#open !== 'fairness' ? shoe.number : null,
        busy: this.#busy !== null || !idle,
        on: this.#handlers,
        reshuffle: this.#host.mode === 'reshuffle',
        feltCut: waiting ? this.#feltValue(shoe) : null,
      },
      layout.cutOffer,
    );
  }

  /** The drawer: the launchers and the pane; `lead` (the session summary) starts the strip. */
  render(lead: TemplateResult | null = null): TemplateResult {
    const now = this.#now();
    const shoe = now?.shoe;
    const current = now?.records ?? null;
    const tableState = this.#host.state;
    const idle = tableState === 'ready' || tableState === 'settled';
    const waiting = shoe?.status === 'awaiting-start';
    // Scoreboard and history: the shoe in play, or (until the next starts) the one that just ended.
    const shownShoe = current && !waiting ? current : (this.#past[0] ?? current);
    const shownEnded = shownShoe !== current || shoe?.status === 'ended';
    const m: PanelsModel = {
      t: this.#link.t,
      strings: this.#panelStrings(),
      open: this.#open,
      sheet: this.#sheet,
      state: (name) => this.#modules.get(name) ?? 'idle',
      invite: waiting && this.#open !== 'fairness' ? current!.number : null,
      reshuffle: this.#host.mode === 'reshuffle',
      lead,
      badge: waiting,
      shown: shownShoe ? { number: shownShoe.number, ended: shownEnded, results: shownShoe.results, rounds: shownShoe.rounds } : null,
      formatAmount: this.#formatAmount(),
      formatExact: this.#link.exactMoney,
      current: current ? this.#fairnessShoe(current, shoe) : null,
      past: this.#past.map((s) => this.#fairnessShoe(s)),
      selected: this.#selected,
      proposal: shoe && waiting ? this.#proposalFor(shoe) : null,
      refused: this.#refused,
      jwks: this.#jwks,
      table: this.#tableSource(),
      busy: this.#busy !== null || (!idle && tableState !== 'error'),
      allowEnd: shoe?.status === 'in-play' && (idle || tableState === 'error'),
      error: this.#error,
      help: {
        decks: shoeDecks(shoe ?? { commitment: shownShoe?.commitment ?? undefined }),
        limits: this.#host.limits,
        roomName: this.#link.t(`rooms.${this.#host.room}`),
        locale: this.#link.language(),
      },
      on: this.#handlers,
    };
    return renderPanels(m);
  }
}
