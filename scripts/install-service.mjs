import { runTypeScript } from './bootstrap.mjs';

await runTypeScript('infra/src/cli/install-service.ts');
