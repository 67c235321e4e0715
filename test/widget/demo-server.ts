/**
 * A local stand-in for `npm start` without workerd: serves dist/ (the demo page and the widget
 * bundle) and answers /api/* and /.well-known/* (the JWKS) with the fake Worker. Used by the widget bench and the demo
 * screenshots. Node only; listens on 127.0.0.1.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { FakeWorker } from './fake-worker.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

export interface DemoServer {
  url: string;
  worker: FakeWorker;
  /** Bytes served per path (as sent, uncompressed). */
  served: Map<string, number>;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Starts the server on a free port of 127.0.0.1. */
export async function startDemoServer(dist: string, worker: FakeWorker = new FakeWorker()): Promise<DemoServer> {
  const served = new Map<string, number>();
  const server: Server = createServer((req, res) => void handle(req, res));
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    try {
      if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/.well-known/')) {
        const raw = await readBody(req);
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
        const answer = await worker.handle({ method: req.method ?? 'GET', path: url.pathname, headers, body: raw ? JSON.parse(raw) : null });
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer.body));
        return;
      }
      const file = path.join(dist, path.normalize(url.pathname === '/' ? '/index.html' : url.pathname));
      if (!file.startsWith(dist)) throw new Error('outside dist');
      const body = await readFile(file);
      served.set(url.pathname, body.length);
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/`,
    worker,
    served,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
