// Loaded first by the embed test pages (a same-origin script, as their CSP allows): records every
// CSP violation and every pb-* event of the page, for the test that drives the page from outside.
window.pbViolations = [];
window.pbEvents = [];
document.addEventListener(
  'securitypolicyviolation',
  (e) => window.pbViolations.push({ directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample, source: e.sourceFile, line: e.lineNumber }),
  true,
);
for (const type of ['pb-ready', 'pb-bet-change', 'pb-round-settled', 'pb-error']) {
  document.addEventListener(type, (e) => window.pbEvents.push({ type, table: e.target.id, detail: e.detail }), true);
}
