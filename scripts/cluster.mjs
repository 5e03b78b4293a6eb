import { runTypeScript } from './bootstrap.mjs';

await runTypeScript('infra/src/cluster/cli.ts');
