// The connectors page with thirty servers and about 400 tools, in real Chromium (playwright-core,
// the machine's own browser): how long the first keystroke in "Find a tool" takes to be answered
// (the page filtered and painted), the longest task while the page sits idle with two servers
// counting their connect time, and what that idle second costs the page's main thread. The
// servers are the six catalog servers of bench/fixtures (three times each), two pid servers with
// twenty tools each, the reference server, four that fail at start, three turned off and two that
// never finish connecting. `node bench/page.mjs` runs it alone; `npm run bench` includes it.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EVERYTHING_ENTRY, FIXTURE_SERVER } from '@epoch-agent/testkit';
import { chromium } from 'playwright-core';
import { scoped } from './scoped.mjs';

const CHROMIUM = process.env.EPOCH_CHROMIUM ?? '/usr/bin/chromium';
const CATALOGS = fileURLToPath(new URL('./fixtures/catalogs/', import.meta.url));
const CATALOG_SERVER = fileURLToPath(new URL('./fixtures/catalog-server.mjs', import.meta.url));
/** How long the idle page is watched. */
const IDLE_MS = 10_000;
/** Page loads, each with its own first keystroke. */
const LOADS = 5;
/** The first key typed in the finder: a letter most tool texts have, so most of the page changes. */
const FIRST_KEY = 's';

/** Thirty mcp.json entries; `dies` is a file that, while it exists, makes four of them exit at start. */
function thirtyServers(dies) {
  const node = process.execPath;
  const servers = {};
  for (const copy of [1, 2, 3]) {
    for (const catalog of ['github', 'slack', 'tracker', 'workspace', 'database', 'browser']) {
      servers[`${catalog}-${copy}`] = {
        command: node,
        args: [CATALOG_SERVER, join(CATALOGS, `${catalog}.json`)],
      };
    }
  }
  const twenty = Array.from({ length: 20 }, (_, i) => `--tool=task_${i + 1}`);
  servers['pid-1'] = { command: node, args: [FIXTURE_SERVER, ...twenty] };
  servers['pid-2'] = { command: node, args: [FIXTURE_SERVER, ...twenty] };
  servers.everything = { command: node, args: [EVERYTHING_ENTRY, 'stdio'] };
  for (const n of [1, 2, 3, 4]) {
    servers[`broken-${n}`] = {
      command: node,
      args: [FIXTURE_SERVER, `--exit-at-start-if=${dies}`],
    };
  }
  for (const n of [1, 2, 3]) {
    servers[`off-${n}`] = {
      command: node,
      args: [CATALOG_SERVER, join(CATALOGS, 'github.json')],
      enabled: false,
    };
  }
  for (const n of [1, 2]) {
    servers[`slow-${n}`] = {
      command: node,
      args: [FIXTURE_SERVER, '--never-start', `--tag=${n}`],
      connect_timeout: 3600,
    };
  }
  return servers;
}

export async function connectorsPage(signal) {
  if (!existsSync(CHROMIUM)) {
    console.error(
      `bench: no Chromium at ${CHROMIUM} (EPOCH_CHROMIUM names another): page rows skipped`,
    );
    return [];
  }
  return scoped(async (defer) => {
    const home = await mkdtemp(join(tmpdir(), 'epoch-bench-page-'));
    defer(() => rm(home, { recursive: true, force: true }));
    const before = process.env.EPOCH_HOME;
    process.env.EPOCH_HOME = home;
    defer(() => {
      if (before === undefined) delete process.env.EPOCH_HOME;
      else process.env.EPOCH_HOME = before;
    });
    const dies = join(home, 'dies');
    await writeFile(dies, '');
    await writeFile(join(home, 'mcp.json'), JSON.stringify({ servers: thirtyServers(dies) }));
    // Imported here: its module reads EPOCH_HOME when it starts a runtime, not when it loads.
    const { startWeb } = await import('@epoch-agent/web');
    const web = await startWeb({ approve: () => true, registry: { schemaCache: null }, signal });
    defer(() => web.close());
    const profile = await mkdtemp(join(tmpdir(), 'epoch-bench-chromium-'));
    defer(() => rm(profile, { recursive: true, force: true }));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--headless', '--disable-gpu', '--no-first-run'],
      viewport: { width: 1280, height: 900 },
    });
    defer(() => context.close());
    const page = await context.newPage();
    await page.goto(web.url);
    const tools = await settled(page, signal);

    const idle = await idleSecond(page, context);
    const keystrokes = [];
    for (let load = 0; load < LOADS; load++) {
      if (load > 0) {
        await page.reload();
        await settled(page, signal);
      }
      keystrokes.push(await firstKeystroke(page));
    }
    const size = `30 servers / ${tools} tools`;
    const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    return [
      {
        metric: `connectors page, ${size}: first keystroke in Find a tool, answered and painted (median of ${LOADS} loads)`,
        ours: median(keystrokes.map((k) => k.answered)),
        goal: { kind: 'absolute', max: 100 },
      },
      {
        metric: `connectors page, ${size}: the same, worst of ${LOADS}`,
        ours: Math.max(...keystrokes.map((k) => k.answered)),
        goal: { kind: 'info' },
      },
      {
        metric: `connectors page, ${size}: longest task over 50 ms while idle for ${IDLE_MS / 1000} s (0: none)`,
        ours: idle.longestTask,
        goal: { kind: 'absolute', max: 50 },
      },
      {
        metric: `connectors page, ${size}: main-thread time per idle second`,
        ours: idle.busyPerSecond,
        goal: { kind: 'info' },
      },
      {
        metric: `connectors page, ${size}: DOM nodes changed per idle second`,
        ours: idle.mutationsPerSecond,
        unit: 'nodes',
        goal: { kind: 'info' },
      },
    ];
  });
}

/**
 * Waits until every server but the two that never finish has settled on the page (the view says
 * so), and returns how many tools the page lists.
 */
async function settled(page, signal) {
  await page.waitForFunction(
    () => {
      const count = document.querySelector('#tool-filter-count')?.textContent ?? '';
      const states = [...document.querySelectorAll('[data-server]')].map((el) =>
        el.getAttribute('data-state'),
      );
      return (
        states.length === 30 &&
        states.filter((state) => state === 'connecting').length === 2 &&
        /^\d+ tools on 30 servers$/.test(count)
      );
    },
    undefined,
    { timeout: 120_000, polling: 250 },
  );
  signal.throwIfAborted();
  const count = await page.locator('#tool-filter-count').textContent();
  return Number(count?.split(' ')[0]);
}

/** The longest task, the main thread's busy time and the DOM nodes changed, per idle second. */
async function idleSecond(page, context) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const taskTime = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    return metrics.find((metric) => metric.name === 'TaskDuration')?.value ?? 0;
  };
  const busyBefore = await taskTime();
  const watched = await page.evaluate(async (ms) => {
    let longest = 0;
    const tasks = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) longest = Math.max(longest, entry.duration);
    });
    tasks.observe({ type: 'longtask' });
    let nodes = 0;
    const mutations = new MutationObserver((records) => {
      for (const record of records) {
        nodes +=
          record.type === 'childList' ? record.addedNodes.length + record.removedNodes.length : 1;
      }
    });
    mutations.observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    });
    await new Promise((resolve) => setTimeout(resolve, ms));
    tasks.disconnect();
    mutations.disconnect();
    return { longest, nodes };
  }, IDLE_MS);
  const busy = (await taskTime()) - busyBefore;
  await cdp.detach();
  return {
    longestTask: Math.round(watched.longest),
    // TaskDuration is in seconds; the window is what the page waited plus the round trips.
    busyPerSecond: Math.round((busy * 1000) / (IDLE_MS / 1000)),
    mutationsPerSecond: Math.round(watched.nodes / (IDLE_MS / 1000)),
  };
}

/**
 * The first key typed in the finder after a load: from its keydown to the first frame painted after
 * the page's count of matches changed (a rAF, then a task: the frame has been drawn by then).
 */
async function firstKeystroke(page) {
  const input = page.locator('#tool-filter');
  await input.focus();
  await page.evaluate(() => {
    const count = document.querySelector('#tool-filter-count');
    const before = count?.textContent;
    window.__answered = new Promise((resolve) => {
      let typedAt;
      window.addEventListener(
        'keydown',
        (event) => {
          typedAt ??= event.timeStamp;
        },
        { capture: true, once: true },
      );
      const seen = new MutationObserver(() => {
        if (typedAt === undefined || count?.textContent === before) return;
        seen.disconnect();
        requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - typedAt)));
      });
      seen.observe(count, { subtree: true, childList: true, characterData: true });
    });
  });
  await page.keyboard.press(FIRST_KEY);
  const answered = await page.evaluate(() => window.__answered);
  await page.keyboard.press('Escape');
  return { answered: Math.round(answered) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { formatTable } = await import('./report.mjs');
  const rows = await connectorsPage(AbortSignal.timeout(300_000));
  console.log(formatTable(rows));
}
