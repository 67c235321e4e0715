/**
 * The CDN entry, built to `dist/punto-banco-table.js`: widget/index.ts, except that a table whose
 * page gives no `endpoint` talks to the Worker that served this script (its folder, taken from
 * `import.meta.url`), so one tag from another origin is enough:
 * `<script type="module" src="https://worker.example/punto-banco-table.js"></script>`.
 * The lazy chunks (`./chunks/*.js`) resolve against this module's URL the same way.
 */
import './element/script-endpoint.ts'; // first: tables already in the page upgrade when index.ts defines the element
export * from './index.ts';
