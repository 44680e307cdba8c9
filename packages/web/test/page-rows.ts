// Opening what the connectors page shows closed, for the page tests: a server's card (the button of
// its row) and the panels of the top bar (Add server, Add from JSON).
import type { Locator, Page } from 'playwright-core';

// Long enough for a server to appear on a loaded machine; a wait that runs out fails the test.
const WAIT = { timeout: 20_000 };

/** Server `name`'s card, opened (it stays open if it was); its article. */
export async function openCard(page: Page, name: string): Promise<Locator> {
  const card = page.locator(`article[data-server="${name}"]`);
  const row = card.locator('button.row');
  await row.waitFor(WAIT);
  if ((await row.getAttribute('aria-expanded')) !== 'true') await row.click();
  await card.locator('.body').waitFor(WAIT);
  return card;
}

/** The bar's panel of `label`, opened; its element. */
export async function openPanel(
  page: Page,
  label: 'Add server' | 'Add from JSON',
): Promise<Locator> {
  const button = page.locator('.bar-actions button', { hasText: label });
  await button.waitFor(WAIT);
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
  const panel = page.locator(`#${await button.getAttribute('aria-controls')}`);
  await panel.waitFor({ state: 'visible', ...WAIT });
  return panel;
}
