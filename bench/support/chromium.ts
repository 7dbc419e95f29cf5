import { CHROMIUM_FLAGS } from '../../e2e/support/chromium';

export { CHROMIUM_PATH } from '../../e2e/support/chromium';

/** The journeys' flags, headless also when chrome-launcher (Lighthouse) starts Chromium. */
export const CHROMIUM_ARGS = ['--headless', ...CHROMIUM_FLAGS];
