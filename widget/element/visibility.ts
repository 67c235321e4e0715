/**
 * Runs the scene's ticker only while the table can be seen: its stage on screen
 * (IntersectionObserver) and its tab visible (`document.visibilityState`). An idle scene already
 * draws nothing; this also pauses an animation that plays off-screen or in a background tab, so a
 * page with many tables spends frames only on the ones in view. A reactive controller: the
 * document listener and the observer exist only while the element is connected.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** The part of the scene this controller drives. */
export interface Runnable {
  setRunning(running: boolean): void;
}

export class VisibilityController implements ReactiveController {
  #scene: () => Runnable | null;
  #observer: IntersectionObserver | null = null;
  /** Until the observer's first report the stage counts as on screen (the scene starts running). */
  #intersecting = true;
  #applied: { scene: Runnable; running: boolean } | null = null;
  #onVisibility = (): void => this.apply();

  /** `scene` returns the current scene (or null while there is none). */
  constructor(host: ReactiveControllerHost, scene: () => Runnable | null) {
    this.#scene = scene;
    host.addController(this);
  }

  /** Whether the table can be seen now. */
  get visible(): boolean {
    return this.#intersecting && document.visibilityState !== 'hidden';
  }

  /** Starts watching `stage` (once per connection). */
  observe(stage: Element): void {
    if (this.#observer) return;
    this.#observer = new IntersectionObserver((entries) => {
      const entry = entries[entries.length - 1];
      if (!entry) return;
      this.#intersecting = entry.isIntersecting;
      this.apply();
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

  hostConnected(): void {
    document.addEventListener('visibilitychange', this.#onVisibility);
  }

  hostDisconnected(): void {
    document.removeEventListener('visibilitychange', this.#onVisibility);
    this.#observer?.disconnect();
    this.#observer = null;
    this.#intersecting = true;
    this.#applied = null;
  }
}
