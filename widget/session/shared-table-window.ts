/**
 * A shared table's betting window on this tab's clock: the countdown the HUD redraws four times a
 * second while the table is joined (the window closes here when its time runs out, until the
 * table's close says so), and the chips left on the felt unconfirmed, sent by themselves shortly
 * before the close (AUTO_SEND_LEAD_MS).
 */
import type { SharedTableFacts } from './shared-table-facts.ts';

/** Chips on the felt not confirmed are sent this long before the close (at most a quarter of the window). */
const AUTO_SEND_LEAD_MS = 2_000;

export class BettingWindow {
  readonly #table: SharedTableFacts;
  readonly #redraw: () => void;
  readonly #autoSend: () => void;
  #tick: ReturnType<typeof setInterval> | undefined;
  #autoTimer: ReturnType<typeof setTimeout> | undefined;

  /** `redraw`: the countdown moved; `autoSend`: the close is near, the chips on the felt go if they may. */
  constructor(table: SharedTableFacts, redraw: () => void, autoSend: () => void) {
    this.#table = table;
    this.#redraw = redraw;
    this.#autoSend = autoSend;
  }

  /** The countdown runs from the first connection until the table is left. */
  run(): void {
    this.#tick ??= setInterval(() => {
      if (this.#table.phase !== 'betting') return;
      this.#table.tick();
      this.#redraw();
    }, 250);
  }

  /** Arms the auto-send for the window open now (again: the chips or the window changed). */
  arm(): void {
    this.disarm();
    const pub = this.#table.pub;
    if (this.#table.phase !== 'betting' || !pub) return;
    const lead = Math.min(AUTO_SEND_LEAD_MS, pub.windowMs / 4);
    const wait = this.#table.left() - lead;
    if (wait < 0) return;
    this.#autoTimer = setTimeout(this.#autoSend, wait);
  }

  /** No auto-send (the bet went, or the window closed). */
  disarm(): void {
    clearTimeout(this.#autoTimer);
  }

  /** The table is left: no countdown, no auto-send. */
  stop(): void {
    clearInterval(this.#tick);
    this.#tick = undefined;
    this.disarm();
  }
}
