/**
 * Sets inline style properties through the CSSOM (`style.setProperty`) on every render. Lit's
 * `styleMap` writes a `style` attribute on its first render, which a strict Content-Security-Policy
 * (no 'unsafe-inline' for style attributes) blocks; CSSOM writes are always allowed.
 * Usage, as an element binding: html`<div ${cssProps({ left: '4px', '--size': '40px' })}></div>`.
 */
import { noChange } from 'lit';
import { Directive, directive, type ElementPart } from 'lit/directive.js';

class CssProps extends Directive {
  render(_props: Readonly<Record<string, string>>): typeof noChange {
    return noChange;
  }

  override update(part: ElementPart, [props]: [Readonly<Record<string, string>>]): typeof noChange {
    const style = (part.element as HTMLElement).style;
    for (const [name, value] of Object.entries(props)) {
      if (style.getPropertyValue(name) !== value) style.setProperty(name, value);
    }
    return noChange;
  }
}

export const cssProps = directive(CssProps);
