/**
 * web-test-runner middleware (Node side) for the embedding tests: serves the host pages of
 * test/widget/embed/ with a strict Content-Security-Policy header, and answers the API of the
 * BUILT widget (dist/) with the fake Worker. The pages load `/dist/punto-banco-table.js` without
 * an `endpoint`, so their tables talk to `/dist/api/…`: the default endpoint is the folder the
 * script came from, which these requests prove.
 */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { FakeWorker } from './fake-worker.ts';

/** The policy the issue asks a strict host to set: no 'unsafe-eval', no 'unsafe-inline'. */
export const STRICT_CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'";

const PAGES = '/test/widget/embed/';
const API = '/dist/api/';
/** The fairness panel fetches the keys from the same Worker (the script's folder). */
const JWKS = '/dist/.well-known/jwks.json';

/** The subset of Koa's context the middleware uses. */
interface Context {
  path: string;
  method: string;
  req: IncomingMessage;
  status: number;
  body: unknown;
  type: string;
  set(name: string, value: string): void;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Koa middleware: `/test/widget/embed/*.html` with the CSP header, `/dist/api/*` and the JWKS from a fake Worker. */
export function embedHost(root: string, worker: FakeWorker = new FakeWorker()) {
  return async (ctx: Context, next: () => Promise<void>): Promise<void> => {
    if (ctx.path.startsWith(API) || ctx.path === JWKS) {
      const raw = await readBody(ctx.req);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(ctx.req.headers)) if (typeof v === 'string') headers[k] = v;
      const answer = await worker.handle({ method: ctx.method, path: ctx.path.slice('/dist'.length), headers, body: raw ? JSON.parse(raw) : null });
      ctx.status = answer.status;
      ctx.type = 'application/json';
      ctx.set('cache-control', 'no-store');
      ctx.body = JSON.stringify(answer.body);
      return;
    }
    if (ctx.path.startsWith(PAGES) && ctx.path.endsWith('.html')) {
      const file = path.join(root, path.normalize(ctx.path));
      if (!file.startsWith(path.join(root, PAGES))) return next();
      // Served here, not by the dev server: its HTML transforms would inject an inline script.
      ctx.status = 200;
      ctx.type = 'text/html; charset=utf-8';
      ctx.set('content-security-policy', STRICT_CSP);
      ctx.set('cache-control', 'no-store');
      ctx.body = await readFile(file, 'utf8');
      return;
    }
    return next();
  };
}
