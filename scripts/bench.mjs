import { runTypeScript } from './bootstrap.mjs';

await runTypeScript('bench/src/cli.ts');
