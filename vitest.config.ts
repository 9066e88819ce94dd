import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.{ts,tsx}'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/integration/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Servers, ffmpeg and large files, but most of a file's time is real timers (settle windows, retries):
          // three files at a time kept each file's time and took CI's from 290 s to 200 s on two cores.
          maxWorkers: 3,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 90_000,
          // A daemon, a reference server and Chromium per file, two files at a time: most of a file's time is the
          // daemon's real timers (a minute between two notifications of a kind), not CPU (450 s one at a time, 250 s
          // so). Three made each file 10-20 % slower, Chromium and the daemons contending, for 50 s less in all.
          maxWorkers: 2,
        },
      },
    ],
  },
});
