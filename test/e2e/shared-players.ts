/**
 * Players at a shared table over real WebSockets, for the end-to-end tests: a session created by
 * HTTP, a ticket, the socket, every message kept with the time it came.
 */
import assert from 'node:assert/strict';
import { generateSigningKey, type SigningKey } from '../../shared/index.ts';
import { playerKeyOf } from '../../shared/fairness/pb-fair-2/records.ts';
import type { RunningServer } from './server.ts';

export interface Seat {
  id: string;
  token: string;
  start: number;
  key: SigningKey;
  player: string;
  ws: WebSocket;
  messages: { at: number; m: any }[];
  sent: number;
}

export async function call(
  server: RunningServer,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; body: any; text: string }> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (method === 'POST') headers['Idempotency-Key'] = crypto.randomUUID();
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(`${server.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, text };
}

export async function until<T>(what: string, get: () => T | null | undefined | false | Promise<T | null | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await get();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function seat(server: RunningServer, table: string, statuses: number[]): Promise<Seat> {
  const key = (await generateSigningKey()).key;
  const created = await call(server, 'POST', '/api/sessions', { room: 'hall-1', playerKey: playerKeyOf(key) });
  statuses.push(created.status);
  assert.equal(created.status, 201, created.text);
  const ticket = await call(server, 'POST', `/api/tables/${table}/ticket`, {}, created.body.token);
  statuses.push(ticket.status);
  assert.equal(ticket.status, 200, ticket.text);
  const ws = new WebSocket(`${server.url.replace('http', 'ws')}/api/tables/${table}/ws?ticket=${encodeURIComponent(ticket.body.ticket)}`);
  const messages: Seat['messages'] = [];
  ws.addEventListener('message', (e) => messages.push({ at: Date.now(), m: JSON.parse(String(e.data)) }));
  await new Promise((resolve, reject) => {
    ws.addEventListener('open', resolve, { once: true });
    ws.addEventListener('error', reject, { once: true });
  });
  return { id: created.body.sessionId, token: created.body.token, start: created.body.balance, key, player: playerKeyOf(key), ws, messages, sent: 0 };
}

export const send = (s: Seat, frame: string | object) => {
  s.sent++;
  s.ws.send(typeof frame === 'string' ? frame : JSON.stringify({ v: 1, ...frame }));
};

/** The first message of `type` at or after index `from` satisfying `test`. */
export const seen = (s: Seat, type: string, test: (m: any) => boolean = () => true) => s.messages.find((x) => x.m.type === type && test(x.m));
