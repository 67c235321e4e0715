/**
 * The example apps in examples/: where each one's build lands and how it is served. One list for the
 * runner (install, build, sizes) and the browser test (serve, play).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const EXAMPLES_DIR = path.join(ROOT, 'examples');
/** Where the runner puts `npm pack`'s tarball; every example depends on `file:../.pack/punto-banco.tgz`. */
export const TARBALL = path.join(EXAMPLES_DIR, '.pack', 'punto-banco.tgz');

export interface Example {
  name: string;
  /** The build's output folders, relative to the example: what its sizes are measured over. */
  outputs: { label: string; dir: string }[];
  /** The command that serves the built app on loopback `port` (run in the example's folder). */
  serve(port: number): { args: string[]; env?: Record<string, string> };
  /** Server-rendered: the page's HTML names the endpoint before any script runs. */
  ssr?: boolean;
}

const vitePreview = (port: number) => ({ args: ['run', 'preview', '--', '--host', '127.0.0.1', '--port', String(port), '--strictPort'] });

export const EXAMPLES: Example[] = [
  { name: 'react', outputs: [{ label: 'dist', dir: 'dist' }], serve: vitePreview },
  { name: 'vue', outputs: [{ label: 'dist', dir: 'dist' }], serve: vitePreview },
  { name: 'svelte', outputs: [{ label: 'dist', dir: 'dist' }], serve: vitePreview },
  { name: 'plain-html', outputs: [{ label: 'dist', dir: 'dist' }], serve: (port) => ({ args: ['start', '--', '--port', String(port)] }) },
  {
    name: 'astro',
    outputs: [
      { label: 'dist/client (browser)', dir: 'dist/client' },
      { label: 'dist/server (Node)', dir: 'dist/server' },
    ],
    serve: (port) => ({ args: ['start'], env: { HOST: '127.0.0.1', PORT: String(port) } }),
    ssr: true,
  },
];

/** The examples named on the command line (or in PB_EXAMPLES, comma-separated), else all. */
export function chosenExamples(names: string[]): Example[] {
  if (names.length === 0) return EXAMPLES;
  return names.map((n) => {
    const found = EXAMPLES.find((e) => e.name === n);
    if (!found) throw new Error(`no example "${n}" (there are: ${EXAMPLES.map((e) => e.name).join(', ')})`);
    return found;
  });
}
