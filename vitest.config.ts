import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'conformance/**/*.test.mjs'],
    // Every test file gets a temp EPOCH_HOME of its own: no test touches the real ~/.epoch.
    setupFiles: ['test-setup/epoch-home.ts'],
    // Tests start real processes and servers: give slow machines room, but never hang forever.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
