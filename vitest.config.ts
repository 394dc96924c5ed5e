import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'research/test/**/*.test.ts'],
    // Graph experiments and crawls against local servers take seconds, not milliseconds.
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
