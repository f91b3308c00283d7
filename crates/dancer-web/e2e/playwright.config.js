// Playwright's configuration for the browser tests of `dancer serve`.
//
// The server: when DANCER_URL is set (the Rust test
// crates/dancer-cli/tests/browser.rs sets it, after starting
// `dancer serve --port 0` itself), the tests use that server and start
// none. Otherwise Playwright starts `$DANCER_BIN serve` on a fixed port
// (DANCER_BIN defaults to the workspace's target/debug/dancer; set
// DANCER_ASSETS to a folder to serve the page's files from disk, e.g.
// ../assets while editing them) and stops it at the end.
//
// The browser: Debian's Chromium (/usr/bin/chromium, or $CHROMIUM), never
// one that Playwright downloads.
// @ts-check
const { defineConfig, devices } = require('@playwright/test');
const path = require('node:path');

const PORT = Number(process.env.DANCER_PORT || 47813);
const external = process.env.DANCER_URL;
const baseURL = (external || `http://127.0.0.1:${PORT}`).replace(/\/?$/, '/');
const bin = process.env.DANCER_BIN || path.resolve(__dirname, '../../../target/debug/dancer');
const assets = process.env.DANCER_ASSETS ? ` --assets ${JSON.stringify(path.resolve(process.env.DANCER_ASSETS))}` : '';

module.exports = defineConfig({
  testDir: './tests',
  // screenshots that tests take go to screenshots/ (see helpers.js);
  // Playwright's own output (failure screenshots) to test-results/
  outputDir: './test-results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: Number(process.env.DANCER_E2E_WORKERS || 2),
  reporter: 'list',
  use: {
    baseURL,
    trace: 'off',
    screenshot: 'only-on-failure',
    video: 'off',
    // the page's jobs and hints should never take this long on loopback
    actionTimeout: 15_000,
    navigationTimeout: 20_000,
    serviceWorkers: 'block',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
          args: [
            '--headless',
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        },
      },
    },
  ],
  webServer: external
    ? undefined
    : {
        command: `${JSON.stringify(bin)} serve --port ${PORT}${assets}`,
        url: `${baseURL}api/health`,
        reuseExistingServer: !process.env.CI,
        timeout: 30_000,
        stdout: 'pipe',
        stderr: 'pipe',
      },
});
