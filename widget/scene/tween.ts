/**
 * A tiny tween engine driven by whoever owns time: the Pixi ticker in the page, a test calling
 * `update(ms)` directly. No Pixi import. Allocation happens when a tween is created; `update` itself
 * allocates nothing, so an idle or steadily animating table makes no garbage per frame.
 */

export type Ease = (t: number) => number;

export const linear: Ease = (t) => t;
export const easeOutCubic: Ease = (t) => 1 - (1 - t) ** 3;
export const easeInCubic: Ease = (t) => t * t * t;
export const easeInOutCubic: Ease = (t) => (t < 0.5 ? 4 * t * t * t : 1 - (-2 * t + 2) ** 3 / 2);
export const easeOutBack: Ease = (t) => {
  const c1 = 1.70158;
  const c3 = c1 + 1;
  return 1 + c3 * (t - 1) ** 3 + c1 * (t - 1) ** 2;
};

export interface TweenSpec {
  /** Milliseconds at speed 1. */
  duration: number;
  /** Milliseconds to wait before starting. */
  delay?: number;
  ease?: Ease;
  /** Called once when the tween starts (after its delay): capture the from-values here. */
  start?: () => void;
  /** Called with the eased progress 0..1 on every frame, and with 1 at the end. */
  update: (p: number) => void;
}

interface Tween {
  spec: TweenSpec;
  elapsed: number;
  started: boolean;
  resolve: () => void;
}

/** Something with numeric properties, like a Pixi display object or its `scale` point. */
export type Numeric = Record<string, unknown>;

export class Animator {
  private readonly active: Tween[] = [];
  /** Durations are divided by this; 0 makes every tween instant (reduced motion). */
  private speedValue = 1;

  /** 1 = normal; 2 = twice as fast; 0 = instant. */
  get speed(): number {
    return this.speedValue;
  }

  set speed(value: number) {
    this.speedValue = Math.max(0, value);
    if (this.speedValue === 0) this.finishAll();
  }

  /** True while at least one tween is waiting or running. */
  get busy(): boolean {
    return this.active.length > 0;
  }

  /** Runs one tween; resolves when it has applied its final value. Instant when speed is 0. */
  tween(spec: TweenSpec): Promise<void> {
    const scaled = this.scaled(spec.duration) + this.scaled(spec.delay ?? 0);
    if (scaled <= 0) {
      spec.start?.();
      spec.update(1);
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      this.active.push({ spec, elapsed: 0, started: false, resolve });
    });
  }

  /** Tweens numeric properties of `target` (e.g. x, y, alpha, rotation) to `to`. */
  to(target: Numeric, to: Readonly<Record<string, number>>, duration: number, opts: { delay?: number; ease?: Ease } = {}): Promise<void> {
    const keys = Object.keys(to);
    const from = new Float64Array(keys.length);
    const dest = Float64Array.from(keys, (k) => to[k]!);
    return this.tween({
      duration,
      delay: opts.delay ?? 0,
      ease: opts.ease ?? easeOutCubic,
      start: () => {
        for (let i = 0; i < keys.length; i++) from[i] = Number(target[keys[i]!]);
      },
      update: (p) => {
        for (let i = 0; i < keys.length; i++) target[keys[i]!] = from[i]! + (dest[i]! - from[i]!) * p;
      },
    });
  }

  /** Resolves after `ms` (at the current speed). */
  wait(ms: number): Promise<void> {
    return this.tween({ duration: ms, update: noop });
  }

  /** Advances time by `ms` milliseconds. */
  update(ms: number): void {
    const list = this.active;
    if (list.length === 0) return;
    const dt = this.speedValue === 0 ? Number.POSITIVE_INFINITY : ms * this.speedValue;
    let kept = 0;
    const n = list.length;
    for (let i = 0; i < n; i++) {
      const tw = list[i]!;
      if (this.step(tw, dt)) {
        list[kept++] = tw;
      } else {
        tw.resolve();
      }
    }
    // Tweens started from a resolve() land after n; keep them.
    for (let i = n; i < list.length; i++) list[kept++] = list[i]!;
    list.length = kept;
  }

  /** Jumps every tween to its end and resolves it. */
  finishAll(): void {
    while (this.active.length > 0) this.update(Number.POSITIVE_INFINITY);
  }

  /** Advances one tween; false when it has finished. */
  private step(tw: Tween, dt: number): boolean {
    const { spec } = tw;
    const delay = spec.delay ?? 0;
    tw.elapsed += dt;
    if (tw.elapsed < delay) return true;
    if (!tw.started) {
      tw.started = true;
      spec.start?.();
    }
    const t = spec.duration <= 0 ? 1 : Math.min(1, (tw.elapsed - delay) / spec.duration);
    spec.update(t >= 1 ? 1 : (spec.ease ?? linear)(t));
    return t < 1;
  }

  private scaled(ms: number): number {
    return this.speedValue === 0 ? 0 : ms / this.speedValue;
  }
}

function noop(): void {}
