/**
 * What a consumer of the npm package sees of Lit. Lit is bundled into dist/ and is not a
 * dependency, so the package's declarations may not import it: `npm run build`
 * (scripts/public-types.ts) points their `'lit'` imports here instead. It declares the base class
 * of <punto-banco-table> with Lit's public lifecycle, and the three types the element's declaration
 * names. Everything here is a subset of Lit 3's own declarations, so the element's declaration
 * (written against the real Lit) conforms to it.
 */
export interface CSSResult {
  readonly cssText: string;
  readonly styleSheet: CSSStyleSheet | undefined;
  toString(): string;
}

/** The properties changed in an update, by name, with their previous values. */
export type PropertyValues<_T = unknown> = Map<PropertyKey, unknown>;

/** A rendered Lit template (opaque to a host page). */
export interface TemplateResult {
  readonly strings: TemplateStringsArray;
  readonly values: unknown[];
}

/** Lit's reactive element: an HTMLElement that renders into its shadow root when its properties change. */
export declare class LitElement extends HTMLElement {
  static get observedAttributes(): string[];
  readonly renderRoot: HTMLElement | DocumentFragment;
  readonly isUpdatePending: boolean;
  readonly hasUpdated: boolean;
  /** Resolves (true when no further update is pending) after the element has rendered its latest changes. */
  readonly updateComplete: Promise<boolean>;
  requestUpdate(name?: PropertyKey, oldValue?: unknown): void;
  connectedCallback(): void;
  disconnectedCallback(): void;
  attributeChangedCallback(name: string, old: string | null, value: string | null): void;
  protected createRenderRoot(): HTMLElement | DocumentFragment;
  protected shouldUpdate(changed: PropertyValues): boolean;
  protected willUpdate(changed: PropertyValues): void;
  protected update(changed: PropertyValues): void;
  protected firstUpdated(changed: PropertyValues): void;
  protected updated(changed: PropertyValues): void;
  protected render(): unknown;
}
