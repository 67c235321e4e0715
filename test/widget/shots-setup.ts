/**
 * What a screenshot script starts with (table-shots.ts, squeeze-shots.ts): the folder it writes to
 * (its first argument, else test-results/shots), the built widget served with the fake Worker, and
 * Chromium.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../chromium.ts';
import { startDemoServer } from './demo-server.ts';

export async function startShots(): Promise<{
  outDir: string;
  server: Awaited<ReturnType<typeof startDemoServer>>;
  browser: Awaited<ReturnType<typeof launchChromium>>;
}> {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const outDir = path.resolve(process.argv[2] ?? path.join(root, 'test-results/shots'));
  await mkdir(outDir, { recursive: true });
  const server = await startDemoServer(path.join(root, 'dist'));
  return { outDir, server, browser: await launchChromium() };
}
