// What "no late handler ran" is checked after in a real Chromium page, instead of a sleep.
import type { Page } from 'playwright-core';

/**
 * Resolves once the page has loaded and every image in it has loaded or failed, and the task turns that deliver their
 * load and error events have passed: an injected handler (onerror of a broken image) would have run by then.
 */
export async function imagesSettled(page: Page): Promise<void> {
  await page.waitForFunction(() => document.readyState === 'complete' && Array.from(document.images).every((image) => image.complete));
  await page.evaluate(() => new Promise((resolve) => setTimeout(() => setTimeout(resolve, 0), 0)));
}
