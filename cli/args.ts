/** A tiny, strict option parser for the CLI: unknown options and malformed values are usage errors (exit 2). */

export class UsageError extends Error {}

export interface OptionSpec {
  /** Options that take a value, e.g. `decks` for `--decks N`. */
  values?: readonly string[];
  /** Options that are flags, e.g. `json` for `--json`. */
  flags?: readonly string[];
  /** How many positional arguments are allowed. */
  positionals?: number;
}

export interface ParsedArgs {
  values: Record<string, string>;
  flags: Set<string>;
  positionals: string[];
}

export function parseArgs(args: readonly string[], spec: OptionSpec): ParsedArgs {
  const values: Record<string, string> = {};
  const flags = new Set<string>();
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
      if (spec.flags?.includes(name)) {
        if (inline !== undefined) throw new UsageError(`--${name} takes no value`);
        flags.add(name);
      } else if (spec.values?.includes(name)) {
        const value = inline ?? args[++i];
        if (value === undefined) throw new UsageError(`--${name} needs a value`);
        values[name] = value;
      } else {
        throw new UsageError(`unknown option ${arg}`);
      }
    } else {
      positionals.push(arg);
    }
  }
  if (positionals.length > (spec.positionals ?? 0)) throw new UsageError(`unexpected argument "${positionals[spec.positionals ?? 0]}"`);
  return { values, flags, positionals };
}

/** An integer option within [min, max], or the default when absent. */
export function intOption(parsed: ParsedArgs, name: string, min: number, max: number, fallback: number): number {
  const raw = parsed.values[name];
  if (raw === undefined) return fallback;
  if (!/^-?\d+$/.test(raw)) throw new UsageError(`--${name} must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new UsageError(`--${name} must be from ${min} to ${max}, got ${n}`);
  return n;
}
