/** node:sqlite, loaded without its "experimental feature" warning on stderr (the wallet's help says it needs Node 22.5+). */
export async function loadSqlite(): Promise<typeof import('node:sqlite')> {
  const emit = process.emitWarning.bind(process);
  process.emitWarning = (warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (/SQLite/i.test(text)) return;
    (emit as (...a: unknown[]) => void)(warning, ...rest);
  };
  try {
    return await import('node:sqlite');
  } finally {
    process.emitWarning = emit;
  }
}
