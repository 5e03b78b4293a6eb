import { runTypeScript } from './bootstrap.mjs';

await runTypeScript('infra/src/cli/create-operator.ts');
