/**
 * Whether the table can be seen: its stage on screen (IntersectionObserver) and its tab visible
 * (`document.visibilityState`). Runs the scene's ticker only while it can: an idle scene already
 * draws nothing; this also pauses an animation that plays off-screen or in a background tab, so a
 * page with many tables spends frames only on the ones in view. It also reports each change (the
 * element then keeps or gives back its WebGL slot, gl-budget.ts) and when the table was last seen.
 * A reactive controller: the document listener and the observer exist only while the element is
 * connected.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** The part of the scene this controller drives. */
export interface Runnable {
  setRunning(running: boolean): void;
}

export class VisibilityController implements ReactiveController {
  #scene: () => Runnable | null;
  #onChange: (seen: boolean | null) => void;
  #observer: IntersectionObserver | null = null;
  /** The observer's last report; null before its first. */
  #intersecting: boolean | null = null;
  #applied: { scene: Runnable; running: boolean } | null = null;
  /** The last state reported to `onChange`, and when the table was last in view (never: -∞). */
  #reported: boolean | null = null;
  #reportedHidden = false;
  #seenAt = Number.NEGATIVE_INFINITY;
  #onVisibility = (): void => this.#update();

  /** `scene` returns the current scene (or null while there is none); `onChange` hears each change of `seen`. */
  constructor(host: ReactiveControllerHost, scene: () => Runnable | null, onChange: (seen: boolean | null) => void = () => {}) {
    this.#scene = scene;
    this.#onChange = onChange;
    host.addController(this);
  }

  /**
   * Whether the table is in view: false in a hidden tab, null while the observer has not reported
   * yet (on a busy page its first report can come late: that is "not known", not "in view").
   */
  get seen(): boolean | null {
    return document.visibilityState === 'hidden' ? false : this.#intersecting;
  }

  /** Whether the scene should run: until known to be out of view, it counts as seen. */
  get visible(): boolean {
    return this.seen !== false;
  }

  /** When the table was last in view (performance.now() units): now while it is, -∞ if never. */
  get lastSeen(): number {
    return this.seen ? performance.now() : this.#seenAt;
  }

  /** Starts watching `stage` (once per connection). */
  observe(stage: Element): void {
    if (this.#observer) return;
    this.#observer = new IntersectionObserver((entries) => {
      const entry = entries[entries.length - 1];
      if (!entry) return;
      this.#intersecting = entry.isIntersecting;
      this.#update();
    });
    this.#observer.observe(stage);
  }

  /** Tells the scene whether to run; call it again when a new scene is mounted. Repeats nothing. */
  apply(): void {
    const scene = this.#scene();
    if (!scene) return;
    const running = this.visible;
    // A new scene starts running: it needs a call only to stop.
    const current = this.#applied?.scene === scene ? this.#applied.running : true;
    if (current === running) return;
    this.#applied = { scene, running };
    scene.setRunning(running);
  }

  #update(): void {
    this.apply();
    const seen = this.seen;
    // A tab shown again is reported even when the table stays out of view: what the listener does
    // off-screen depends on whether the tab is hidden (scene-slot.ts parks only in a visible tab).
    const hidden = document.visibilityState === 'hidden';
    if (seen === this.#reported && hidden === this.#reportedHidden) return;
    if (this.#reported === true) this.#seenAt = performance.now();
    this.#reported = seen;
    this.#reportedHidden = hidden;
    this.#onChange(seen);
  }

  hostConnected(): void {
    document.addEventListener('visibilitychange', this.#onVisibility);
  }

  hostDisconnected(): void {
    document.removeEventListener('visibilitychange', this.#onVisibility);
    this.#observer?.disconnect();
    this.#observer = null;
    this.#intersecting = null;
    this.#applied = null;
    this.#reported = null;
  }
}
