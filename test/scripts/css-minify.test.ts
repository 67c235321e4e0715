import { expect, test } from 'vitest';
import { minifyCssTemplates, minifyCssText } from '../../scripts/css-minify.ts';

test('comments and indentation go; selectors, values and !important keep their meaning', () => {
  const css = `
  /* the box */
  :host([data-plain]) .box:hover,
  .box > .plain {
    box-shadow: inset 0 0 0 1px rgb(216 180 90 / 55%);
    font: 700 12px / 1.2 Georgia, serif !important;
  }
  .a :is(.b) { content: ''; }
`;
  expect(minifyCssText(css)).toBe(
    " :host([data-plain]) .box:hover,.box > .plain{box-shadow:inset 0 0 0 1px rgb(216 180 90 / 55%);font:700 12px / 1.2 Georgia,serif!important}.a :is(.b){content:''}",
  );
});

test('only css`…` templates change, and their interpolations stay as written', () => {
  const source = 'const a = `  keep   me  `;\nconst s = css`\n  .x {\n    width: ${ columns  * 2 }px;\n  }\n`;';
  expect(minifyCssTemplates(source)).toBe('const a = `  keep   me  `;\nconst s = css` .x{width:${ columns  * 2 }px}`;');
});
