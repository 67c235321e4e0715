/**
 * Small helpers of the panel tests: mount a panel with properties, wait for its render, query its
 * shadow root, wait for a condition or an event.
 */
import '../../widget/panels/index.ts';
import type { LitElement } from 'lit';

const mounted: HTMLElement[] = [];

/** Creates `tag`, assigns `props`, appends it to the document and waits for its first render. */
export async function mount<T extends LitElement>(tag: string, props: Record<string, unknown> = {}, style = ''): Promise<T> {
  const el = document.createElement(tag) as T;
  Object.assign(el, props);
  if (style) el.setAttribute('style', style);
  document.body.append(el);
  mounted.push(el);
  await el.updateComplete;
  return el;
}

export function unmountAll(): void {
  for (const el of mounted.splice(0)) el.remove();
}

export function $<E extends Element = HTMLElement>(el: Element, selector: string): E {
  const found = el.shadowRoot!.querySelector<E>(selector);
  if (!found) throw new Error(`no ${selector} in <${el.localName}>`);
  return found;
}

export function $$<E extends Element = HTMLElement>(el: Element, selector: string): E[] {
  return [...el.shadowRoot!.querySelectorAll<E>(selector)];
}

/** Polls `check` until it returns a truthy value (or fails after `ms`). */
export async function until<T>(check: () => T | null | undefined | false, what: string, ms = 8_000): Promise<T> {
  const end = performance.now() + ms;
  for (;;) {
    const value = check();
    if (value) return value;
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The next `name` event from `target`. */
export function nextEvent<T>(target: EventTarget, name: string): Promise<CustomEvent<T>> {
  return new Promise((resolve) => target.addEventListener(name, (e) => resolve(e as CustomEvent<T>), { once: true }));
}

/** Types into an input or textarea as a person would (value, then an input event). */
export function type(input: HTMLInputElement | HTMLTextAreaElement, value: string, event: 'input' | 'change' = 'input'): void {
  input.value = value;
  input.dispatchEvent(new Event(event, { bubbles: true, composed: true }));
}
