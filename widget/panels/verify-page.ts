/**
 * The standalone verify page's entry (bundled into one self-contained verify.html by
 * scripts/verify-page.ts): defines <pb-verify-page> and mounts one when the page has none.
 */
import { PbVerifyPage } from './verify-page-element.ts';

export { PbVerifyPage };

if (typeof document !== 'undefined' && !document.querySelector('pb-verify-page')) {
  document.body.append(document.createElement('pb-verify-page'));
}
