import { defineConfig } from 'vitest/config';

// One run over every workspace that has unit or integration tests; e2e/ runs under Playwright.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*', 'infra'],
  },
});
