/**
 * What the table says about the rounds, as a reactive controller of <punto-banco-table>: the
 * status line (betting, dealing, the last result, the shoe's last hand, the cut card), the live
 * region for screen readers, the toast of a refused bet or a shared table's notice, the last
 * round's win and stake for the meters, and the session summary (since when, rounds, staked, net).
 */
import { walletErrorText } from './wallet-view.ts';
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { SettledRound } from '../round-view.ts';
import { emit } from './emit.ts';
import { netText, resultText } from './view.ts';

/** How long a refused-bet message stays up. */
const TOAST_MS = 4_500;

/** The element's texts, in its language. */
export interface StatusTexts {
  t(key: string, values?: Record<string, string | number>): string;
  money(minor: number): string;
  /** A round's net as shown beside its rounded figures (shared/money.ts displayedReturn). */
  net(returned: number, staked: number): number;
}

/** What the status line says it from (the element's state now). */
export interface StatusContext {
  state: string;
  /** A shared table's own line (its phase, the clock), which wins when it has one. */
  shared: string | null | undefined;
  /** The private shoe's number (the last-hand line names it). */
  shoeNumber: number | string;
  /** The error notice's message. */
  notice: string | null;
  /** The stake on the felt, null when it holds no bet. */
  staked: number | null;
  /** The next round is the private shoe's last. */
  lastHandNext: boolean;
}

export class RoundStatus implements ReactiveController {
  /** Said in the live region. */
  announcement = '';
  toast: string | null = null;
  /** The last round's result line, and what it paid back and staked (null: no round yet, or one only watched). */
  lastResult: string | null = null;
  lastWin: number | null = null;
  lastStaked = 0;
  /** The round being dealt was announced as the shoe's last. */
  lastHand = false;
  /** The shoe whose cut card came out in the round on the felt (null: none). */
  cutCardOut: number | null = null;
  /** The session so far (the summary in the bar). */
  summary = { since: Date.now(), rounds: 0, staked: 0, net: 0 };
  #last: SettledRound | null = null;
  #toastTimer: ReturnType<typeof setTimeout> | undefined;
  #host: ReactiveControllerHost & HTMLElement;
  #texts: StatusTexts;

  constructor(host: ReactiveControllerHost & HTMLElement, texts: StatusTexts) {
    this.#host = host;
    this.#texts = texts;
    host.addController(this);
  }

  hostDisconnected(): void {
    clearTimeout(this.#toastTimer);
  }

  /** The session opened (with the rounds of its current shoe, resuming): the summary starts there. */
  opened(rounds: readonly SettledRound[]): void {
    const first = rounds[0] ? Date.parse(rounds[0].record.issuedAt) : NaN;
    this.summary = { since: Number.isFinite(first) ? Math.min(first, Date.now()) : Date.now(), rounds: 0, staked: 0, net: 0 };
    for (const r of rounds) this.#count(r);
  }

  /** Nothing of the old session's last round stays: not its result, not its win. */
  reset(): void {
    this.cutCardOut = null;
    this.lastHand = false;
    this.lastResult = null;
    this.lastWin = null;
    this.#last = null;
    this.#host.requestUpdate();
  }

  /** A round goes out; `lastHand`: it was announced as the shoe's last. */
  dealing(lastHand: boolean): void {
    this.lastHand = lastHand;
    this.#host.requestUpdate();
  }

  /** A private round was dealt, drawn and settled; `nextShoe`: its cut card came out. */
  played(round: SettledRound, nextShoe: boolean): void {
    const texts = this.#texts;
    this.lastWin = round.returned;
    this.lastStaked = round.staked;
    this.#last = round;
    this.lastResult = resultText(texts, round);
    this.#count(round);
    this.lastHand = false;
    // The cut card came out: said on the status line for all to see, not only to screen readers.
    this.cutCardOut = nextShoe ? round.shoe : null;
    let said = `${this.lastResult}. ${netText(texts, round)}.`;
    if (nextShoe) said += ` ${texts.t('play.cutCardOut', { number: round.shoe })}`;
    this.announce(said);
  }

  /** A shared table's round was drawn: its result, and the player's own if it had a stake. */
  sharedRound(round: SettledRound, mine: boolean): void {
    const texts = this.#texts;
    if (mine) this.#count(round);
    this.lastWin = mine ? round.returned : null;
    this.lastStaked = round.staked;
    this.#last = round;
    const result = resultText(texts, round);
    this.lastResult = mine ? `${result} · ${netText(texts, round)}` : texts.t('shared.watched', { result });
    this.announce(mine ? `${this.lastResult}. ${texts.t('balance')}: ${texts.money(round.balanceAfter)}.` : this.lastResult);
  }

  /** A shared table's refusal or notice (`shared.notice.*`; `wallet`: a launched session's, `wallet.errors.*` first), shown as a refused bet is. */
  sharedNotice(code: string, reason: string, wallet: boolean): void {
    const key = `shared.notice.${code}`;
    // A wallet-mode session's refusals (the wallet's codes, the limits') have their own words in every language;
    // a play-money session's balance is its own, not a casino's.
    const text = (wallet ? walletErrorText(this.#texts, code) : null) ?? this.#texts.t(key, { reason });
    // A catalog hands the key back where it has no text.
    this.showToast(code, text !== key ? text : this.#texts.t('shared.notice.other', { reason: reason || code }));
  }

  /** A refusal up for a while, and told to the page (`pb-error`). */
  showToast(code: string, text: string): void {
    this.toast = text;
    clearTimeout(this.#toastTimer);
    this.#toastTimer = setTimeout(() => {
      this.toast = null;
      this.#host.requestUpdate();
    }, TOAST_MS);
    emit(this.#host, 'pb-error', { code, message: text });
    this.#host.requestUpdate();
  }

  hideToast(): void {
    clearTimeout(this.#toastTimer);
    this.toast = null;
    this.#host.requestUpdate();
  }

  /** Says `text` in the live region (a no-break space makes a repeated text count as new). */
  announce(text: string): void {
    this.announcement = text === this.announcement.trimEnd() ? `${text}\u00a0` : text;
    this.#host.requestUpdate();
  }

  /** The language changed: a refusal goes, the last result is said again in the new one. */
  relanguage(): void {
    this.hideToast();
    if (this.#last) this.lastResult = resultText(this.#texts, this.#last);
  }

  /** The status line. */
  statusText(c: StatusContext): string {
    const t = this.#texts.t.bind(this.#texts);
    if (c.shared) return c.shared;
    switch (c.state) {
      case 'dealing':
        return this.lastHand ? `${t('status.dealing')} ${t('play.lastHand', { number: c.shoeNumber })}` : t('status.dealing');
      case 'settled':
        if (this.cutCardOut !== null && this.lastResult) return `${this.lastResult}. ${t('play.cutCardOut', { number: this.cutCardOut })}`;
        return this.lastResult ?? t('status.settled');
      case 'error':
        return c.notice ?? t('status.error');
      default: {
        const status = c.staked !== null ? t('status.betting', { amount: this.#texts.money(c.staked) }) : t('status.ready');
        return c.lastHandNext ? `${t('play.lastHand', { number: c.shoeNumber })}. ${status}` : status;
      }
    }
  }

  /** A round of the player's counts in the session summary. */
  #count(round: SettledRound): void {
    this.summary.rounds++;
    this.summary.staked += round.staked;
    this.summary.net += round.returned - round.staked;
  }
}
