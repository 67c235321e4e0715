import { defineConfig } from 'vitest/config';

// One config, one project per part: the pure engine runs in Node; the Worker runs inside workerd
// (see test/worker/vitest.config.ts).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'shared',
          include: ['test/shared/**/*.test.ts', 'test/cli/**/*.test.ts', 'test/scripts/**/*.test.ts'],
          environment: 'node',
          // CLI tests spawn Node processes: generous on a loaded 2-core machine. Nothing asserts time.
          testTimeout: 30_000,
        },
      },
      'test/worker/vitest.config.ts',
    ],
  },
});
