/**
 * The arguments `npm start` (scripts/dev.ts) gives `wrangler dev`: the port is 8787 unless the
 * command line says `--port N` (or `--port=N`) or the environment says `PORT=N`, the command line
 * winning; it is passed exactly once (wrangler refuses `--port` twice). Everything else on the
 * command line goes to wrangler as it came.
 */
export const DEFAULT_PORT = 8787;

/** A usable TCP port, or an error that says what is wrong with it. */
function port(value: string | undefined, from: string): number {
  const n = Number(value);
  if (!value || !Number.isInteger(n) || n < 1 || n > 65_535) throw new Error(`${from}: "${value ?? ''}" is not a port (1–65535)`);
  return n;
}

export function wranglerDevArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): string[] {
  const rest: string[] = [];
  let chosen: number | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--port') {
      chosen = port(argv[++i], '--port');
    } else if (arg.startsWith('--port=')) {
      chosen = port(arg.slice('--port='.length), '--port');
    } else {
      rest.push(arg);
    }
  }
  const fromEnv = env.PORT === undefined || env.PORT === '' ? null : port(env.PORT, 'PORT');
  return ['dev', '--port', String(chosen ?? fromEnv ?? DEFAULT_PORT), ...rest];
}
