/**
 * A table's scene through its life: made once the page's WebGL budget gives a slot (gl-budget.ts),
 * run only while the table can be seen (visibility.ts), given back after the grace out of view,
 * rebuilt when the browser takes its context. It lives in the lazy parts chunk: nothing here is
 * needed before the table boots, so none of it weighs on the loader.
 */
import type { LitElement } from 'lit';
import type { TableScene } from '../scene/types.ts';
import { type GlClaim, glBudget } from './gl-budget.ts';
import { VisibilityController } from './visibility.ts';

/** A context the browser takes again this soon after the last is rebuilt later and later (up to 30 s). */
const LOSS_WINDOW_MS = 10_000;

/** What the slot needs of its table. */
export interface SceneLink {
  /** What makes a scene now (the table's factory, else the default, with its options and size); null: none. */
  maker(): (() => Promise<TableScene>) | null;
  /** Puts on a new scene, now in the page, everything the table knows (size, texts, round, bets, shoe). */
  restore(scene: TableScene): void;
  /** No scene could be made (no WebGL, or the chunk failed): the table plays on without the drawing. */
  unavailable(error: unknown): void;
}

export class SceneSlot {
  readonly #host: LitElement;
  readonly #link: SceneLink;
  #scene: TableScene | null = null;
  #loading: Promise<void> | null = null;
  readonly #visibility: VisibilityController;
  /** Set once boot mounts the scene: from then on the table wants one whenever it is seen. */
  #wanted = false;
  /** Gives the scene back when the table stays out of view for the budget's grace. */
  #parkTimer: ReturnType<typeof setTimeout> | undefined;
  /** A rebuild after the browser took the context, and the back-off between such losses. */
  #rebuildTimer: ReturnType<typeof setTimeout> | undefined;
  #lastLoss = Number.NEGATIVE_INFINITY;
  #lossDelay = 0;
  /** This table's place in the page's WebGL budget. */
  readonly #claim: GlClaim = {
    seen: () => this.#visibility.seen,
    lastSeen: () => this.#visibility.lastSeen,
    evict: () => {
      if (!this.#scene) return false; // still being made: its slot cannot be handed over yet
      this.destroy();
      return true;
    },
    grant: () => {
      void this.mount();
      // Granted to a table that cannot make its scene now: the slot goes straight back.
      if (!this.#scene && !this.#loading) glBudget.release(this.#claim);
    },
  };

  /** Made once the parts arrive, maybe after connection: the visibility controller starts at once then. */
  constructor(host: LitElement, link: SceneLink) {
    this.#host = host;
    this.#link = link;
    this.#visibility = new VisibilityController(
      host,
      () => this.#scene,
      () => this.#sync(),
    );
  }

  /** The mounted scene (null while being made, given back, or without WebGL). */
  get scene(): TableScene | null {
    return this.#scene;
  }

  /** Starts watching the stage's visibility (once per connection). */
  observe(stage: Element): void {
    this.#visibility.observe(stage);
  }

  /**
   * Makes the scene once the page's WebGL budget gives a slot. Without one it returns at once: a
   * table in view waits for `grant`, one out of view asks again when it is seen; either way the
   * table plays on the plain felt meanwhile.
   */
  mount(): Promise<void> {
    this.#wanted = true;
    if (this.#scene) return Promise.resolve();
    if (this.#loading) return this.#loading;
    const host = this.#host;
    const make = this.#link.maker();
    if (!make || !host.isConnected || this.#rebuildTimer !== undefined || !glBudget.acquire(this.#claim)) {
      this.#markPlain();
      return Promise.resolve();
    }
    this.#loading = (async () => {
      let kept = false;
      try {
        const scene = await make();
        if (!host.isConnected) {
          scene.destroy();
          return;
        }
        kept = true;
        this.#scene = scene;
        this.#visibility.apply(); // mounted off-screen or in a hidden tab: stopped at once
        host.toggleAttribute('data-scene', true);
        scene.canvas.setAttribute('aria-hidden', 'true');
        scene.canvas.setAttribute('part', 'canvas');
        scene.canvas.addEventListener('webglcontextlost', this.#onContextLost);
        await host.updateComplete;
        if (scene !== this.#scene) return; // given back (removed, evicted, context lost) meanwhile
        host.renderRoot.querySelector('.canvas-host')?.replaceChildren(scene.canvas);
        this.#link.restore(scene);
      } catch (err) {
        // No WebGL (or the chunk failed): the table still plays, without the drawing. Asked again on reconnection only.
        this.#wanted = false;
        this.#link.unavailable(err);
      } finally {
        this.#loading = null;
        // A scene that was not kept is destroyed: its slot is free again (a kept one's goes with it, destroy()).
        if (!kept) glBudget.release(this.#claim);
        else this.#sync(); // arrived out of view: the grace starts; or a table in view waits for this slot
        this.#markPlain();
      }
    })();
    return this.#loading;
  }

  /**
   * Keeps the scene in step with visibility: in view, make it (through the budget); out of view,
   * leave the queue and give the scene back after the grace, keeping all the table knows.
   */
  #sync(): void {
    const seen = this.#visibility.seen;
    if (seen !== false) {
      clearTimeout(this.#parkTimer);
      this.#parkTimer = undefined;
      // Not known yet (null): the observer's first report comes back here.
      if (seen && this.#wanted && this.#host.isConnected) void this.mount();
    } else {
      if (glBudget.isWaiting(this.#claim)) glBudget.release(this.#claim);
      // A hidden tab only stops the ticker: the player comes back to the felt as they left it, and
      // the budget can still take the slot if a table in view needs it. Parking is for tables
      // scrolled away on a page in use.
      const hidden = document.visibilityState === 'hidden';
      if (hidden) {
        clearTimeout(this.#parkTimer);
        this.#parkTimer = undefined;
      } else if ((this.#scene || this.#loading) && this.#parkTimer === undefined) {
        this.#parkTimer = setTimeout(() => {
          this.#parkTimer = undefined;
          // Still being made: its arrival comes back here and starts the grace again.
          if (this.#visibility.seen === false && this.#scene) this.destroy();
        }, glBudget.graceMs);
      }
    }
    // Someone in view may be waiting for the slot this table no longer needs.
    glBudget.rebalance();
  }

  /** The table left the page: no rebuild pending, and the scene goes. */
  disconnect(): void {
    clearTimeout(this.#rebuildTimer);
    this.#rebuildTimer = undefined;
    this.destroy();
  }

  /** The scene goes (its WebGL context with it) and its slot returns to the budget; the table's state stays. */
  destroy(): void {
    clearTimeout(this.#parkTimer);
    this.#parkTimer = undefined;
    const scene = this.#scene;
    this.#scene = null;
    if (scene) {
      this.#host.removeAttribute('data-scene');
      scene.canvas.removeEventListener('webglcontextlost', this.#onContextLost);
      scene.canvas.remove();
      scene.destroy();
    }
    // A scene still being made keeps its slot until it arrives (and is destroyed, or kept on reconnection).
    if (scene || !this.#loading) glBudget.release(this.#claim);
    this.#markPlain();
  }

  /**
   * `data-plain` on the host while the table has no scene and none is being made (no WebGL, waiting
   * for a slot, given back): the DOM boxes then show their names and bets themselves. Not while a
   * scene loads, so a normal start does not flash the plain felt.
   */
  #markPlain(): void {
    this.#host.toggleAttribute('data-plain', !this.#scene && !this.#loading && this.#host.isConnected);
  }

  /**
   * The browser took the context anyway (GPU reset, a page with too many contexts): the felt is
   * dead. Rebuild it through the budget; a context lost again soon after waits longer each time,
   * so a page fighting over contexts does not spin.
   */
  #onContextLost = (e: Event): void => {
    if (!this.#scene || e.target !== this.#scene.canvas) return;
    const now = performance.now();
    this.#lossDelay = now - this.#lastLoss < LOSS_WINDOW_MS ? Math.min(30_000, Math.max(250, this.#lossDelay * 2)) : 0;
    this.#lastLoss = now;
    this.destroy();
    clearTimeout(this.#rebuildTimer);
    this.#rebuildTimer = setTimeout(() => {
      this.#rebuildTimer = undefined;
      this.#sync(); // in view: a new scene now; out of view: when it is seen
    }, this.#lossDelay);
  };
}
