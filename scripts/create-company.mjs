import { runTypeScript } from './bootstrap.mjs';

await runTypeScript('infra/src/cli/create-company.ts');
