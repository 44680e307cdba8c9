// Real Chromium for the page tests: Debian's `chromium` (installed by .ci/run, never downloaded by
// a test), driven by playwright-core, headless, with a fresh profile that is removed afterwards.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, errors } from 'playwright-core';

// Debian's by default; EPOCH_CHROMIUM names another Chromium or Chrome (the GitHub workflow's, on
// runners where the browser comes from an action, not from apt).
const EXECUTABLE = process.env.EPOCH_CHROMIUM ?? '/usr/bin/chromium';
// Chromium starts in about a second here. A start that hangs (seen once in CI, at the suite's
// 30 s hook timeout, which says nothing about why) fails with Playwright's log of it, the
// browser's own output included, and is tried once more: two of these fit in one hook or test.
const LAUNCH_TIMEOUT_MS = 12_000;
const ARGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface Chromium {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<Chromium> {
  if (!existsSync(EXECUTABLE)) {
    throw new Error(
      `These tests drive Chromium at ${EXECUTABLE}, which is missing: install it with \`apt-get install -y chromium\` (as .ci/run does).`,
    );
  }
  try {
    return await launchOnce();
  } catch (error) {
    if (!(error instanceof errors.TimeoutError)) throw error;
    process.stderr.write(`Chromium did not start; trying once more. ${error.message}\n`);
    return await launchOnce();
  }
}

async function launchOnce(): Promise<Chromium> {
  // The profile directory is Chromium's --user-data-dir: a fresh one per launch.
  const profile = await mkdtemp(join(tmpdir(), 'epoch-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: EXECUTABLE,
      headless: true,
      args: ARGS,
      timeout: LAUNCH_TIMEOUT_MS,
      viewport: { width: 1100, height: 900 },
    });
    return {
      context,
      close: async () => {
        await context.close();
        await rm(profile, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
}
