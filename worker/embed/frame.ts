/**
 * `GET /embed`: the iframe alternative to the script tag (API.md "The embed frame"). A full page
 * on the Worker's own origin that shows one `<punto-banco-table>` filling the frame:
 * `<iframe src="https://worker.example/embed?affiliate=acme&room=hall-1&lang=it&currency=EUR&mode=reshuffle">`,
 * or a shared table: `…/embed?table=hall-1/a`, or a launched player in wallet mode:
 * `…/embed?launch=<launch token>` (the URL `POST /api/operator/launch` answers).
 *
 * Inside the frame the table calls the API from the Worker's own origin, which the CORS check
 * always lets through; what keeps the table off sites the operator did not allow is the page's
 * `frame-ancestors`: the affiliate's origins and the `"*"` ones from EMBED_ORIGINS (http/cors.ts), plus
 * loopback in DEV. The page runs no inline script; its one inline style is allowed by its hash.
 *
 * The frame talks to its parent (widget/embed/frame.ts, `/embed-frame.js`): it posts the table's
 * events and height to the parent's origin, and the helper `/embed.js` on the host page sizes the
 * iframe and re-dispatches the events there (EMBED.md "The iframe alternative").
 */
import * as v from 'valibot';
import { LANGUAGES } from '../../shared/languages.ts';
import { type Answer, failure } from '../http/answers.ts';
import { embedPolicy } from '../http/cors.ts';
import { type Env, isDev } from '../config/env.ts';
import { CreateSessionBody, parseBody } from '../http/bodies.ts';
import { parseTableId, TABLE_ID_RULE } from '../shared-table/settings.ts';
import { LAUNCH_TOKEN_FORM } from '../http/tokens.ts';

/**
 * The query, every field optional (absent: the element's default). Room and affiliate are the
 * session body's own rules, so the frame accepts exactly what session creation accepts.
 */
export const EmbedQuery = v.strictObject({
  room: v.optional(CreateSessionBody.entries.room),
  affiliate: CreateSessionBody.entries.affiliate,
  lang: v.optional(v.pipe(v.string(), v.toLowerCase(), v.picklist(LANGUAGES, `lang must be ${LANGUAGES.map((l) => `"${l}"`).join(', ')}`))),
  currency: v.optional(v.pipe(v.string(), v.toUpperCase(), v.regex(/^[A-Z]{3}$/, 'currency must be a three-letter ISO 4217 code such as "EUR"'))),
  // The table mode the session is created in (the session body's own rule), and the animation speed.
  mode: CreateSessionBody.entries.mode,
  speed: v.optional(v.picklist(['normal', 'fast'], 'speed must be "normal" or "fast"')),
  // The squeeze, off unless asked for: the element's boolean attribute, written as squeeze="on".
  squeeze: v.optional(v.picklist(['on'], 'squeeze must be "on" (absent: off)')),
  // A shared table to join (API.md "Shared tables"): its id, e.g. hall-1/a.
  table: v.optional(v.pipe(v.string(), v.check(isTableId, TABLE_ID_RULE))),
  // Wallet mode: a launch token (`POST /api/operator/launch` answers this URL), passed on to the
  // element as its `launch-token` attribute, which redeems it for the launched player's session.
  launch: v.optional(v.pipe(v.string(), v.regex(LAUNCH_TOKEN_FORM, "launch must be a launch token, as the operator's launch answered it"))),
});

function isTableId(id: string): boolean {
  const slash = id.indexOf('/');
  return slash > 0 && parseTableId(id.slice(0, slash), id.slice(slash + 1)) !== null;
}
export type EmbedQuery = v.InferOutput<typeof EmbedQuery>;

/** The query's parameters, in the order their attributes are written. */
const ATTRIBUTES = ['room', 'lang', 'affiliate', 'currency', 'mode', 'speed', 'squeeze', 'table', 'launch'] as const;

/** The element's attribute for a parameter, where the names differ. */
const ATTRIBUTE_NAME: Partial<Record<(typeof ATTRIBUTES)[number], string>> = { launch: 'launch-token' };

/**
 * Reads the query: an unknown or repeated parameter, or a bad value, is a 400 `bad_query`. An
 * empty value counts as absent, as in the embed check (`?affiliate=` from a template with no id).
 */
export function parseEmbedQuery(params: URLSearchParams): { ok: true; value: EmbedQuery } | { ok: false; answer: Answer<never> } {
  // No prototype: a parameter named "__proto__" is a field like any other (and unknown).
  const fields: Record<string, string> = Object.create(null);
  for (const [key, value] of params) {
    if (Object.hasOwn(fields, key)) return { ok: false, answer: failure(400, 'bad_query', `"${key}" is given more than once`) };
    fields[key] = value;
  }
  for (const key of ATTRIBUTES) if (fields[key] === '') delete fields[key];
  const parsed = parseBody(EmbedQuery, fields);
  if (!parsed.ok) return { ok: false, answer: failure(400, 'bad_query', parsed.message.replace(/^unknown field/, 'unknown parameter')) };
  return { ok: true, value: parsed.value };
}

export { FRAME_STYLE, FRAME_STYLE_HASH } from './frame-style.ts';
import { FRAME_STYLE, FRAME_STYLE_HASH } from './frame-style.ts';

/** Text safe inside an HTML attribute value or element. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** The HTML of the frame. The values are checked already; they are escaped all the same. */
export function framePage(query: EmbedQuery): string {
  const attributes = ATTRIBUTES.map((name) => (query[name] === undefined ? '' : ` ${ATTRIBUTE_NAME[name] ?? name}="${escapeHtml(query[name])}"`)).join('');
  return `<!doctype html>
<html lang="${escapeHtml(query.lang ?? 'en')}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Punto Banco</title>
<link rel="icon" href="data:,">
<style>${FRAME_STYLE}</style>
<script type="module" src="/punto-banco-table.js"></script>
<script type="module" src="/embed-frame.js"></script>
</head>
<body>
<punto-banco-table${attributes}></punto-banco-table>
</body>
</html>
`;
}

/**
 * The `frame-ancestors` sources for a table of `affiliate` (null: none): its own origins and the
 * `"*"` ones, in CSP host-source form (`https://*.acme.example` is already one), and in DEV any
 * port of localhost and 127.0.0.1 (an http source also matches https). `'none'` when nothing is
 * allowed. IPv6 literals have no host-source form: they are left out, so such a site cannot frame.
 */
export function frameAncestors(affiliate: string | null, env: Env): string {
  const policy = embedPolicy(env);
  const own = affiliate === null ? undefined : policy.byAffiliate.get(affiliate);
  const sources = new Set<string>(isDev(env) ? ['http://localhost:*', 'http://127.0.0.1:*'] : []);
  for (const list of own === undefined ? [policy.everyone] : [policy.everyone, own]) {
    for (const origin of list.exact) sources.add(origin);
    for (const { prefix, suffix } of list.wildcard) sources.add(`${prefix}*${suffix}`);
  }
  const usable = [...sources].filter((s) => !s.includes('['));
  return usable.length === 0 ? "'none'" : usable.join(' ');
}

/** The frame's Content-Security-Policy: only the Worker's own scripts, styles, images and API. */
export function frameCsp(affiliate: string | null, env: Env): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self' ${FRAME_STYLE_HASH}`,
    "img-src 'self' data: blob:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${frameAncestors(affiliate, env)}`,
  ].join('; ');
}

/** The frame for a checked query. */
export function frameResponse(query: EmbedQuery, env: Env): Response {
  return new Response(framePage(query), {
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': frameCsp(query.affiliate ?? null, env),
      // The policy follows EMBED_ORIGINS: a change must reach the next load, not a cached copy.
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    },
  });
}
