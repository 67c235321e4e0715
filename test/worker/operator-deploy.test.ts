/**
 * Deploys fail closed (wallet mode's item of it): on a public host shared tables need a real
 * BEACON_URL, even with a BEACON_SECRET_KEY for the local beacon; on a development host the local
 * beacon keeps serving them.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { expect, test } from 'vitest';
import { generateSigningKey } from '../../shared/index.ts';
import type { Env } from '../../worker/config/env.ts';
import worker from '../../worker/index.ts';
import { BASE, CLIENT_IP } from './helpers.ts';

async function get(vars: Partial<Env>, url: string) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(url, { headers: { 'CF-Connecting-IP': CLIENT_IP } }), { ...env, ...vars }, ctx);
  await waitOnExecutionContext(ctx);
  return { status: res.status, body: await res.json<{ error?: { code: string; setting?: string; message: string } }>() };
}

test('a public host without BEACON_URL: shared tables answer 503 misconfigured naming BEACON_URL, whatever BEACON_SECRET_KEY says', async () => {
  const production = {
    SIGNING_KEY: JSON.stringify((await generateSigningKey('pb-operator-deploy-test')).privateJwk),
    BEACON_URL: '',
    BEACON_SECRET_KEY: '1'.padStart(64, '0'),
  };
  const r = await get(production, 'https://tables.casino.com/api/tables/hall-1/a');
  expect([r.status, r.body.error?.code, r.body.error?.setting]).toEqual([503, 'misconfigured', 'BEACON_URL']);
  expect(r.body.error?.message).toContain('tables.casino.com');
  // Private tables and the keys still answer there.
  expect((await get(production, 'https://tables.casino.com/.well-known/jwks.json')).status).toBe(200);
  // A development host keeps its local beacon.
  expect((await get(production, `${BASE}/api/tables/hall-1/configured`)).status).toBe(200);
});
