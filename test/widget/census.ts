/**
 * A census of what the page's code makes and undoes, for the teardown tests: WebGL contexts,
 * listeners on window / document / media queries, Intersection- and ResizeObservers, and pending
 * timeouts, intervals and animation frames (only those asked for by code bundled in the test file,
 * that is the widget's, not the test runner's).
 */
type GL = WebGLRenderingContext | WebGL2RenderingContext;

/** Real waits that the census does not see. */
const nativeSetTimeout = window.setTimeout.bind(window);
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => nativeSetTimeout(resolve, ms));

/**
 * The URL path of the running test file: web-test-runner.config.js serves each test file as ONE
 * esbuild bundle (this module, the widget and Pixi included), so a call made by the widget has
 * this path in its stack, and the test runner's own calls do not.
 */
const OWN_BUNDLE = new URL(import.meta.url).pathname;
function fromOurCode(): boolean {
  // Frame 0 is "Error", frame 1 the wrapper itself; the callers follow.
  return (new Error().stack ?? '')
    .split('\n')
    .slice(2)
    .some((line) => line.includes(OWN_BUNDLE));
}

/**
 * Wraps getContext, add/removeEventListener on window, document and media queries, the observers,
 * and setTimeout/setInterval/requestAnimationFrame, recording what is made and what is undone.
 * `restore()` puts the originals back.
 */
export function census() {
  const restorers: (() => void)[] = [];
  const patch = <T extends object, K extends keyof T>(obj: T, key: K, make: (original: T[K]) => T[K]): void => {
    const original = obj[key];
    obj[key] = make(original);
    restorers.push(() => (obj[key] = original));
  };

  const contexts: GL[] = [];
  patch(
    HTMLCanvasElement.prototype,
    'getContext',
    (original) =>
      function (this: HTMLCanvasElement, type: string, ...rest: unknown[]) {
        const ctx = (original as (...a: unknown[]) => unknown).call(this, type, ...rest);
        if (ctx && /webgl/.test(type) && !contexts.includes(ctx as GL)) contexts.push(ctx as GL);
        return ctx;
      } as HTMLCanvasElement['getContext'],
  );

  // Listeners on the long-lived targets (an element's own listeners die with the element).
  const listeners: { target: EventTarget; type: string; listener: unknown; capture: boolean }[] = [];
  const tracked = (t: EventTarget): boolean => t === window || t === document || t instanceof MediaQueryList;
  const captureOf = (o: unknown): boolean => (typeof o === 'boolean' ? o : Boolean((o as AddEventListenerOptions | undefined)?.capture));
  patch(
    EventTarget.prototype,
    'addEventListener',
    (original) =>
      function (this: EventTarget, type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions) {
        const capture = captureOf(options);
        if (listener && tracked(this) && !listeners.some((l) => l.target === this && l.type === type && l.listener === listener && l.capture === capture)) {
          const record = { target: this, type, listener, capture };
          listeners.push(record);
          // A once-listener goes when it fires: a second once-listener on the same dispatch drops the record.
          if (typeof options === 'object' && options.once) {
            original.call(this, type, () => listeners.includes(record) && listeners.splice(listeners.indexOf(record), 1), { once: true, capture });
          }
        }
        return original.call(this, type, listener, options);
      },
  );
  patch(
    EventTarget.prototype,
    'removeEventListener',
    (original) =>
      function (this: EventTarget, type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | EventListenerOptions) {
        const capture = captureOf(options);
        const i = listeners.findIndex((l) => l.target === this && l.type === type && l.listener === listener && l.capture === capture);
        if (i >= 0) listeners.splice(i, 1);
        return original.call(this, type, listener, options);
      },
  );

  // Observers: each one made must end disconnected (or never observing).
  const observers = new Map<object, { kind: string; observing: number }>();
  for (const kind of ['IntersectionObserver', 'ResizeObserver'] as const) {
    const proto = window[kind].prototype;
    patch(
      proto,
      'observe',
      (original) =>
        function (this: object, target: Element) {
          const entry = observers.get(this) ?? { kind, observing: 0 };
          entry.observing++;
          observers.set(this, entry);
          return original.call(this, target);
        },
    );
    patch(
      proto,
      'unobserve',
      (original) =>
        function (this: object, target: Element) {
          const entry = observers.get(this);
          if (entry) entry.observing = Math.max(0, entry.observing - 1);
          return original.call(this, target);
        },
    );
    patch(
      proto,
      'disconnect',
      (original) =>
        function (this: object) {
          const entry = observers.get(this);
          if (entry) entry.observing = 0;
          return original.call(this);
        },
    );
  }

  // Timers and frames our code asked for that have neither run nor been cancelled.
  const pending = new Map<string, string>();
  const w = window as unknown as Record<string, (...a: unknown[]) => number>;
  const schedule = (setName: string, clearName: string, kind: string, repeats: boolean): void => {
    patch(w, setName, (original) => (callback: unknown, ...rest: unknown[]) => {
      const own = fromOurCode();
      let id = 0;
      const run =
        typeof callback === 'function'
          ? (...args: unknown[]) => {
              if (!repeats) pending.delete(`${kind}:${id}`);
              return (callback as (...a: unknown[]) => unknown)(...args);
            }
          : callback;
      id = original.call(window, run, ...rest);
      if (own) pending.set(`${kind}:${id}`, (new Error().stack ?? '').split('\n').slice(2, 6).join(' | '));
      return id;
    });
    patch(w, clearName, (original) => (id: unknown) => {
      pending.delete(`${kind}:${id}`);
      return original.call(window, id);
    });
  };
  schedule('setTimeout', 'clearTimeout', 'timeout', false);
  schedule('setInterval', 'clearInterval', 'interval', true);
  schedule('requestAnimationFrame', 'cancelAnimationFrame', 'frame', false);

  return {
    contexts,
    listeners,
    pending,
    liveObservers: () => [...observers.values()].filter((o) => o.observing > 0).map((o) => o.kind),
    restore: () => restorers.reverse().forEach((r) => r()),
  };
}
