/**
 * `punto-banco`: the engine on the command line. Each command is one module in `commands/` that
 * exports `run(args: string[]): Promise<number>` (the exit code) and `help: string`.
 * Usage errors print one line to stderr and exit 2 (see `args.ts`).
 */
import { UsageError } from './args.ts';

type Command = { run(args: string[]): Promise<number>; help: string; summary: string };

const COMMANDS: Record<string, () => Promise<Command>> = {
  odds: () => import('./commands/odds.ts'),
  round: () => import('./commands/round.ts'),
  simulate: () => import('./commands/simulate.ts'),
  shoe: () => import('./commands/shoe.ts'),
  verify: () => import('./commands/verify.ts'),
  play: () => import('./commands/play.ts'),
  roads: () => import('./commands/roads.ts'),
  wallet: () => import('./commands/wallet.ts'),
  launch: () => import('./commands/launch.ts'),
};

async function usage(): Promise<string> {
  const lines = ['usage: punto-banco <command> [options]', '', 'commands:'];
  for (const [name, load] of Object.entries(COMMANDS)) {
    const summary = await load().then(
      (c) => c.summary,
      () => '(not available)',
    );
    lines.push(`  ${name.padEnd(10)}${summary}`);
  }
  lines.push('', "run 'punto-banco <command> --help' for a command's options");
  return lines.join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(await usage());
    return name === undefined ? 2 : 0;
  }
  const load = COMMANDS[name];
  if (!load) {
    console.error(`punto-banco: unknown command "${name}" (try --help)`);
    return 2;
  }
  const command = await load();
  if (args.includes('--help') || args.includes('-h')) {
    console.log(command.help);
    return 0;
  }
  try {
    return await command.run(args);
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`punto-banco ${name}: ${err.message}`);
      return 2;
    }
    throw err;
  }
}

process.exitCode = await main(process.argv.slice(2));
