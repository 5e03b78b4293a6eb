import { runTypeScript } from './bootstrap.mjs';

await runTypeScript('infra/src/cli/media-servers.ts');
