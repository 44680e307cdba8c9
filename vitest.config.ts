import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'conformance/**/*.test.mjs'],
    // Tests start real processes and servers: give slow machines room, but never hang forever.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
