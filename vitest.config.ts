import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'packaging/*.test.ts', 'conformance/**/*.test.mjs'],
    // The tests run the built packages: the build is brought up to date once, before them.
    globalSetup: ['test-setup/build.ts'],
    // Every test file gets a temp EPOCH_HOME of its own: no test touches the real ~/.epoch.
    setupFiles: ['test-setup/epoch-home.ts'],
    // Tests start real processes and servers: give slow machines room, but never hang forever.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // A test file mostly waits on the processes, servers and browsers it starts. vitest's default,
    // one worker fewer than the cores, is a single worker on a 2-core machine (CI's), which leaves
    // a core idle while the suite waits: two files at a time at least. The tests' time bounds are
    // made for a machine much busier than a second worker makes it.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
