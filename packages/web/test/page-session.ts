// One connectors page for a test file: the user's mcp.json written, epoch web started over real
// HTTP on 127.0.0.1, and the page opened in real Chromium (chromium.ts); close() ends them all.
// A start that fails part way ends what it had started before it throws.
import { writeFile } from 'node:fs/promises';
import { mcpConfigPath } from '@epoch-agent/infra';
import type { StartWebOptions } from '@epoch-agent/web';
import type { Page } from 'playwright-core';
import { type Chromium, launchChromium } from './chromium.js';
import { startTestWeb, type TestWeb } from './web-helpers.js';

export interface PageSession {
  readonly web: TestWeb;
  readonly page: Page;
  close(): Promise<void>;
}

/**
 * `config` as the user's mcp.json (an object, written as JSON; or the file's text, as a person
 * wrote it), then epoch web on it (with `options`) and the page opened.
 */
export async function openPage(
  config: object | string,
  options: StartWebOptions = {},
): Promise<PageSession> {
  await writeFile(mcpConfigPath(), typeof config === 'string' ? config : JSON.stringify(config));
  const [launched, started] = await Promise.allSettled([launchChromium(), startTestWeb(options)]);
  const chromium: Chromium | undefined =
    launched.status === 'fulfilled' ? launched.value : undefined;
  const web: TestWeb | undefined = started.status === 'fulfilled' ? started.value : undefined;
  const closeAll = async (): Promise<void> => {
    await chromium?.close();
    await web?.close();
  };
  if (chromium === undefined || web === undefined) {
    await closeAll();
    throw launched.status === 'rejected'
      ? launched.reason
      : (started as PromiseRejectedResult).reason;
  }
  try {
    const page = await chromium.context.newPage();
    await page.goto(web.url);
    return {
      web,
      page,
      close: async () => {
        await page.close();
        await closeAll();
      },
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
