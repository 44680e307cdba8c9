// What every state the page shows is checked for, in one call: no serious or critical
// accessibility violation (axe-core, evaluated from node_modules, no network), no sideways scroll
// on a phone, and screenshots at a desktop and a phone width under test/output/ (a CI artifact),
// named after the state, so a reviewer sees each state without running anything.
import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

const OUTPUT = fileURLToPath(new URL('./output/', import.meta.url));
const WIDTHS = { desktop: 1280, phone: 390 } as const;
const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

let axeSource: Promise<string> | undefined;

interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: readonly {
    readonly target: readonly unknown[];
    readonly failureSummary?: string;
  }[];
}

/**
 * Checks `page` as it is now and saves `<state>-1280.png` and `<state>-390.png`. Fails listing
 * every serious or critical axe violation, or when the page is wider than a 390 px phone. The
 * viewport is put back as it was; whatever media the test emulates (a dark scheme) is kept.
 */
export async function checkPage(page: Page, state: string): Promise<void> {
  const viewport = page.viewportSize();
  await mkdir(OUTPUT, { recursive: true });
  try {
    await page.setViewportSize({ width: WIDTHS.desktop, height: viewport?.height ?? 900 });
    const violations = await axeViolations(page);
    expect(violations, `accessibility of "${state}"`).toEqual([]);
    await page.screenshot({ path: join(OUTPUT, `${state}-${WIDTHS.desktop}.png`), fullPage: true });

    await page.setViewportSize({ width: WIDTHS.phone, height: 844 });
    const width = await page.locator('html').evaluate((html) => html.scrollWidth);
    expect(width, `"${state}" at ${WIDTHS.phone} px scrolls sideways`).toBeLessThanOrEqual(
      WIDTHS.phone,
    );
    await page.screenshot({ path: join(OUTPUT, `${state}-${WIDTHS.phone}.png`), fullPage: true });
  } finally {
    if (viewport !== null) await page.setViewportSize(viewport);
  }
}

/** The serious and critical violations axe finds, one line each: rule, help, where. */
async function axeViolations(page: Page): Promise<string[]> {
  axeSource ??= readFile(AXE_SOURCE, 'utf8');
  const html = page.locator('html');
  if (!(await html.evaluate((root) => 'axe' in (root.ownerDocument.defaultView ?? {})))) {
    // Evaluated rather than added as a <script>: the page's Content-Security-Policy (rightly)
    // refuses inline scripts, and a test must not weaken it to look at the page.
    await page.evaluate(await axeSource);
  }
  const violations = await html.evaluate(async (root) => {
    const { axe } = root.ownerDocument.defaultView as unknown as {
      axe: { run(context: unknown): Promise<{ violations: AxeViolation[] }> };
    };
    return (await axe.run(root.ownerDocument)).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes.map(
        (node) =>
          `${v.impact} ${v.id}: ${v.help} at ${JSON.stringify(node.target)}${
            node.failureSummary === undefined
              ? ''
              : ` (${node.failureSummary.replace(/\s+/g, ' ')})`
          }`,
      ),
    );
}
