/**
 * The table's controllers, made once the lazy parts chunk (parts.ts) has arrived, so the loader
 * carries none of them: the API client, the bets with their input, the status line, the room or
 * mode switch, the panels, the scene's slot and the audio, and the play the element sends the
 * player's actions to, through `TablePlay` — the private table (../session/table-session.ts) or,
 * with `table` set, the shared table played over the same session
 * (../session/shared-table-session.ts, in its own lazy chunk, shared-table-parts.ts). It answers
 * the sessions' news (opened, played, a shared table's round) and gathers the reads the view model
 * is built from (view-model.ts).
 */
import type { CSSResultOrNative, nothing, TemplateResult } from 'lit';
import type { TableLayout } from '../layout.ts';
import type { WalletSessionView } from '../../shared/api.ts';
import type { SceneCue, SceneOptions, SqueezeCard, TableScene } from '../scene/types.ts';
import type { SettledRound } from '../round-view.ts';
import type { ApiError } from '../session/api-client.ts';
import type { PlayedRound } from '../session/api-types.ts';
import type { Notice, TablePlay } from '../session/table-play.ts';
import type { SharedTableSession } from '../session/shared-table-session.ts';
import { ApiClient } from '../session/api-client.ts';
import { TableSession } from '../session/table-session.ts';
import { PanelsController } from '../panels/drawer-controller.ts';
import type { BetState } from './bet-state.ts';
import type { BetProblem } from './bets.ts';
import { BetInput } from './bet-input.ts';
import { emit } from './emit.ts';
import type { I18nController } from './i18n-controller.ts';
import type { PuntoBancoTable, SceneFactory } from './punto-banco-table.ts';
import { RoundStatus } from './round-status.ts';
import { SceneSlot } from './scene-slot.ts';
import type * as SharedTableParts from './shared-table-parts.ts';
import { SqueezeInput } from './squeeze-input.ts';
import { SwitchQuestion } from './switch-question.ts';
import { TableAudio } from './table-audio.ts';
import { fullscreenState, runTool } from './table-input.ts';
import { explainBetProblem, renderSummary, sceneTexts, type ViewHandlers, type ViewModel } from './view.ts';
import { viewModel } from './view-model.ts';
import { pendingPayout, walletStatus, type WalletViewModel } from './wallet-view.ts';

/** What the element lends its controllers: its private state and its own answers. */
export interface ElementSide {
  readonly i18n: I18nController;
  canBet(): boolean;
  /** The stage's last measured size, or null. */
  size(): { width: number; height: number } | null;
  layout(): TableLayout | null;
  sceneFactory(): SceneFactory | null;
  errorText(error: ApiError): string;
  /** Opens a new session (the room or mode changed, and the player said yes). */
  reopen(): void;
  /** The styles of the table with these added (a shared table's own). */
  adopt(extra: CSSResultOrNative[]): void;
  /** What failed and how to retry: the boot's failure, else the session's. */
  notice(): Notice | null;
  /** Wallet mode: the session's wallet view arrived (null: play money): the money formatter and language follow it. */
  walletChanged(wallet: WalletSessionView | null): void;
}

export class TableControllers {
  readonly api: ApiClient;
  readonly status: RoundStatus;
  readonly input: BetInput;
  readonly bets: BetState;
  readonly switch: SwitchQuestion;
  readonly panels: PanelsController;
  /** The player's own session (the private table's controller; a shared table plays on it). */
  readonly private: TableSession;
  /** The scene's life: WebGL budget, visibility, rebuilds. */
  readonly slot: SceneSlot;
  /** Effects and the dealer's voice. */
  readonly audio: TableAudio;
  /** The squeeze's cards and Reveal button over the felt (the `squeeze` attribute). */
  readonly squeeze: SqueezeInput;
  /** Where the player's actions go: the private session, or the shared table over it. */
  table: TablePlay;
  shared: SharedTableSession | null = null;
  /** The shared-table chunk, once a `table` asked for it. */
  #sharedParts: typeof SharedTableParts | null = null;
  #panelTexts: { key: string; value: SharedTableParts.SharedTexts['panelStrings'] } | null = null;
  readonly #host: PuntoBancoTable;
  readonly #side: ElementSide;
  /** The templates' handlers: the boxes and chips go to the bet input, the buttons to the element's own methods. */
  readonly #handlers: ViewHandlers = {
    boxClick: (e, at) => this.input.boxClick(e, at),
    boxKey: (e, at) => this.input.boxKey(e, at),
    boxFocus: (at) => this.input.boxFocus(at),
    boxContextMenu: (e, at) => this.input.boxContextMenu(e, at),
    pointerDown: (e, source) => this.input.drag.pointerDown(e, source),
    highlight: (at) => this.input.highlight(at),
    chipClick: (amount) => this.input.chipClick(amount),
    action: (name) => {
      const host = this.#host;
      if (name === 'retry') void host.retry();
      else if (name === 'repeatDeal') void host.repeatAndDeal();
      else if (this.#side.canBet()) void host[name === 'clear' ? 'clearBets' : name]();
    },
    tool: (name) => runTool(this.#host, name, this.#side.canBet()),
    confirmSwitch: (yes) => this.#host.confirmSwitch(yes),
  };

  constructor(host: PuntoBancoTable, side: ElementSide) {
    this.#host = host;
    this.#side = side;
    const i18n = side.i18n;
    const t = (key: string, values?: Record<string, string | number>): string => i18n.t(key, values);
    const money = (minor: number): string => i18n.money(minor);
    const api = (this.api = new ApiClient(host));
    api.fetcher = host.fetcher;
    api.autoRetries = host.autoRetries;
    const status = (this.status = new RoundStatus(host, i18n));
    const input = (this.input = new BetInput(host, {
      canBet: () => side.canBet(),
      limits: () => host.limits,
      balance: () => host.balance,
      scene: () => host.scene,
      t,
      money,
      refuse: (error) => this.refuse(error),
      changed: () => {
        status.hideToast();
        this.table.betsTouched();
      },
      announce: (text) => status.announce(text),
    }));
    const bets = (this.bets = input.bets);
    this.switch = new SwitchQuestion(host, {
      holdsMoney: () => status.summary.rounds > 0 || host.bets.length > 0,
      reopen: () => side.reopen(),
      t: (key) => i18n.t(key),
    });
    const panels = (this.panels = new PanelsController(host, {
      api,
      shoe: () => this.table.shoe,
      t,
      money,
      exactMoney: (minor) => i18n.exactMoney(minor),
      language: () => i18n.language,
      startShoe: () => this.table.startShoe(),
      endShoe: (key) => this.table.endShoe(key),
      scene: () => host.scene,
      player: () => (this.table.copy ? { key: this.table.playerKey, copy: this.table.copy } : null),
    }));
    this.table = this.private = new TableSession(host, {
      api,
      bets,
      fetcher: () => host.fetcher,
      scene: () => host.scene,
      defaultProvider: panels.provider,
      explain: (error) => side.errorText(error),
      freshShoeText: () => i18n.t('play.freshShoe'),
      hideToast: () => status.hideToast(),
      opened: (rounds) => this.#opened(rounds),
      shoeStarted: (shoe) => panels.shoeStarted(shoe),
      played: (answer) => this.#played(answer),
      walletChanged: (wallet) => side.walletChanged(wallet),
    });
    this.squeeze = new SqueezeInput(host, {
      scene: () => host.scene,
      result: () => side.layout()?.result ?? null,
      t,
      announce: (text) => status.announce(text),
    });
    this.slot = new SceneSlot(host, {
      maker: () => {
        const factory = side.sceneFactory();
        const onCue = (cue: SceneCue, hand?: 'player' | 'banker'): void => this.audio.cue(cue, this.table.onFelt?.outcome ?? null, hand);
        const onSqueeze = (cards: readonly SqueezeCard[]): void => this.squeeze.waiting(cards);
        const options = (): SceneOptions => ({ ...this.sceneTexts(), reducedMotion: host.effectiveReducedMotion, squeeze: host.squeeze, onCue, onSqueeze });
        return factory && (() => factory(options(), side.size() ?? undefined));
      },
      restore: (scene) => this.#restore(scene),
      unavailable: (err) => emit(host, 'pb-error', { code: 'scene_unavailable', message: String((err as Error)?.message ?? err) }),
    });
    this.audio = new TableAudio(i18n.language);
  }

  /** With `table` set, the shared table's controller (its own lazy chunk) plays over the player's session. */
  async joinShared(id: string | null): Promise<void> {
    if ((this.shared?.tableId ?? null) === id) return;
    this.shared?.close();
    this.shared = null;
    this.table = this.private;
    this.#host.scene?.setOptions({ titleOnPhone: !id });
    if (!id) return;
    const sp = (this.#sharedParts ??= await import('./shared-table-parts.ts'));
    this.#side.adopt([sp.sharedStyles]);
    const i18n = this.#side.i18n;
    this.shared = this.table = new sp.SharedTableSession(this.#host, {
      session: this.private,
      api: this.api,
      bets: this.bets,
      scene: () => this.#host.scene,
      t: (key, values) => i18n.t(key, values),
      money: (minor) => i18n.money(minor),
      limitsChanged: () => this.#showLimits(),
      explain: (error) => this.#side.errorText(error),
      refuse: (code, reason) => this.status.sharedNotice(code, reason ?? '', this.private.wallet !== null),
      announce: (text) => this.status.announce(text),
      played: (body) => this.#sharedRound(body, true),
      watched: (body) => this.#sharedRound(body, false),
    });
  }

  /** The session is open (new, or resumed with the rounds of its current shoe). */
  #opened(rounds: SettledRound[]): void {
    this.status.opened(rounds);
    this.panels.sessionOpened(rounds);
    this.#showLimits();
  }

  /** The scene's texts (the limits plaque) and chips for the table's limits now: the session's, or the shared table's once it answers. */
  #showLimits(): void {
    const scene = this.#host.scene;
    scene?.setOptions(this.sceneTexts());
    scene?.setBets(this.#host.bets, this.#host.limits?.chips ?? []);
  }

  /** A new scene, now in the page, draws at once what the table knows (its predecessor's round, bets and shoe). */
  #restore(scene: TableScene): void {
    // The stage may have been measured (or resized) while the scene was being made.
    const size = this.#side.size();
    if (size) scene.resize(size.width, size.height);
    scene.setOptions({ reducedMotion: this.#host.effectiveReducedMotion });
    // Texts again: the session (and so the limits) may have arrived while the scene loaded.
    scene.setOptions(this.sceneTexts());
    const onFelt = this.table.onFelt;
    if (onFelt) scene.showRound?.(onFelt);
    scene.setBets(this.#host.bets, this.#host.limits?.chips ?? []);
    this.table.showShoe();
    this.panels.syncOffer();
  }

  /** A round was dealt, drawn and settled: the table says so. */
  #played(answer: PlayedRound): void {
    this.status.played(answer.round, Boolean(answer.nextShoe));
    this.audio.roundSettled(answer.round.outcome);
    this.panels.roundPlayed(answer);
    emit(this.#host, 'pb-round-settled', answer.receipt);
  }

  /** A shared table's round was drawn: its result, and the player's own if it had a stake. */
  #sharedRound(round: SettledRound, mine: boolean): void {
    this.status.sharedRound(round, mine);
    this.audio.roundSettled(round.outcome);
  }

  /** The scene's texts in the element's language, with its speed (a scene exists only once the parts have arrived). */
  sceneTexts(): Omit<SceneOptions, 'reducedMotion'> {
    const host = this.#host;
    const i18n = this.#side.i18n;
    return {
      ...sceneTexts(i18n, host.limits, i18n.language),
      chipLabel: (minor) => i18n.chip(minor),
      speed: host.speed === 'fast' ? 'fast' : 'normal',
      // A shared table's clock and player count take the plaque's place on a phone.
      titleOnPhone: !host.table,
    };
  }

  /** Sends the bets on the felt (the element checked they may go) and plays the round dealt. */
  async deal(): Promise<void> {
    const host = this.#host;
    const refused = this.table.prepareDeal(host.bets);
    if (refused) return this.refuse(refused);
    // The dealer's call: card by card as the scene deals them, else all at once; the shoe's last hand is announced first.
    const last = this.lastHandNext;
    this.status.dealing(last);
    // (At a shared table this is "Place bet": the cards go out for all at the close, called as the scene deals them.)
    if (!this.shared) this.audio.callDeal(host.scene !== null && !host.effectiveReducedMotion, last);
    await this.table.runDeal();
  }

  /** A bet the table will not take: the toast says why, in the player's words. */
  refuse(error: BetProblem | { code: string; message: string }): void {
    const host = this.#host;
    this.status.showToast(error.code, explainBetProblem(this.#side.i18n, error, { limits: host.limits, balance: host.balance, bets: host.bets }));
  }

  /** The next round is the private shoe's last (its cut card will come out): the table says so. */
  get lastHandNext(): boolean {
    return !this.shared && this.private.lastHandNext === true;
  }

  /** The view model the templates draw, from the element's and the controllers' current reads. */
  viewModel(): ViewModel {
    const host = this.#host;
    const status = this.status;
    const state = host.state;
    const notice = this.#side.notice();
    return viewModel({
      texts: this.#side.i18n,
      layout: this.#side.layout(),
      state,
      limits: host.limits,
      balance: host.balance,
      canBet: this.#side.canBet(),
      bets: this.bets,
      activeBox: this.input.activeBox,
      drag: this.input.drag,
      meters: status,
      now: Date.now(),
      statusText:
        walletStatus(this.#side.i18n, this.shared ? null : this.private.wallet) ??
        status.statusText({
          state,
          shared: this.shared?.statusText(),
          shoeNumber: this.private.shoe?.number ?? '',
          notice: notice?.message ?? null,
          staked: host.bets.length ? this.bets.total : null,
          lastHandNext: this.lastHandNext,
        }),
      notice,
      onFelt: this.table.onFelt,
      asked: this.switch.asked,
      muted: host.muted,
      speed: host.speed,
      mode: host.mode,
      shared: this.shared !== null,
      fullscreen: fullscreenState(host),
      wallet: this.#walletModel(),
      pending: pendingPayout(this.shared?.owed ?? null, this.shared ? null : this.private.wallet),
      on: this.#handlers,
    });
  }

  /** Wallet mode as the templates read it: the session's wallet view, a refused launch's way back, the reality check's answer. */
  #walletModel(): WalletViewModel | null {
    const session = this.private;
    const view = this.shared ? null : session.wallet;
    const refusedReturnUrl = session.refusedReturnUrl;
    if (!view && !refusedReturnUrl) return null;
    return { view, refusedReturnUrl, answer: (choice) => void session.answerRealityCheck(choice) };
  }

  /** A shared table's HUD over the felt, else the private table's invitation to the panels. */
  renderHud(m: ViewModel): TemplateResult | typeof nothing {
    return this.shared ? this.#sharedParts!.renderSharedHud(this.shared.view(), this.#sharedTexts(m)) : this.panels.renderInvite(this.#side.layout());
  }

  /** A shared table's side (players, boxes, scoreboard, fairness), else the private table's panels. */
  renderSide(m: ViewModel): TemplateResult {
    return this.shared ? this.#sharedParts!.renderSharedSide(this.shared.view(), this.#sharedTexts(m)) : this.panels.render(renderSummary(m));
  }

  #sharedTexts(m: ViewModel): SharedTableParts.SharedTexts {
    const i18n = this.#side.i18n;
    return {
      t: (key, values) => i18n.t(key, values),
      money: (minor) => i18n.money(minor),
      layout: this.#side.layout(),
      panelStrings: this.#panelStrings(),
      summary: renderSummary(m),
    };
  }

  /** The scoreboard's texts in the element's language. */
  #panelStrings(): SharedTableParts.SharedTexts['panelStrings'] {
    const i18n = this.#side.i18n;
    const key = `${i18n.language}|${i18n.t('panels.beadPlate')}`;
    if (this.#panelTexts?.key !== key) this.#panelTexts = { key, value: this.#sharedParts!.panelStringsIn((k) => i18n.t(k)) };
    return this.#panelTexts.value;
  }
}
