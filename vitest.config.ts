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
  },
});
