/**
 * `npm run bench`: prints the performance figures, one section per part. Each section is a module in
 * this folder exporting `run(): Promise<void>` that prints its own lines. Figures only: nothing here
 * passes or fails on time.
 */
const SECTIONS: Array<[string, string]> = [
  ['engine', './engine.ts'],
  ['fairness', './fairness.ts'],
  ['beacon', './beacon.ts'],
  ['worker', './worker.ts'],
  ['wallet', './wallet.ts'],
  ['shared-table', './shared-table.ts'],
  ['widget', './widget.ts'],
];

const only = process.argv.slice(2);
for (const [name, path] of SECTIONS) {
  if (only.length > 0 && !only.includes(name)) continue;
  console.log(`\n== ${name} ==`);
  let section: { run(): Promise<void> };
  try {
    section = await import(path);
  } catch (err) {
    console.log(`(not available: ${(err as Error).message.split('\n')[0]})`);
    continue;
  }
  await section.run();
}
export {};
