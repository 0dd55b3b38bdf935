import { test as base } from '@playwright/test';
import { serverUrl } from './servers';

export { expect } from '@playwright/test';
export type { APIRequestContext, Locator, Page } from '@playwright/test';

/** Playwright's test, aimed at this worker's own server (pages and the request fixture alike). */
export const test = base.extend({
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, provide, testInfo) => {
    await provide(serverUrl(testInfo.parallelIndex));
  },
});
