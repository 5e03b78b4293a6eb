import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { renderTemplate, TEMPLATES_DIR } from './template.ts';

/** Where `npm run install-service` writes the unit by default. */
export const SYSTEMD_UNIT_PATH = '/etc/systemd/system/frontdesk.service';

// systemd splits ExecStart= on spaces and expands `%` and `$` in it; paths with none of these
// need no quoting, and the unit stays readable.
const PLAIN_PATH = /^\/[A-Za-z0-9._/+@-]*$/;

/**
 * The systemd unit that runs this clone's supervisor (`scripts/start.mjs`) with this Node.js.
 * Throws for a path the unit could not name as it is.
 */
export function renderServiceUnit(repoRoot: string, nodePath = process.execPath): string {
  for (const path of [repoRoot, nodePath]) {
    if (!PLAIN_PATH.test(path)) {
      throw new Error(
        `${path}: a systemd unit cannot name this path as it is (spaces, quotes, % or $); ` +
          'move the clone or Node.js to a plain path',
      );
    }
  }
  const template = readFileSync(join(TEMPLATES_DIR, 'systemd', 'frontdesk.service'), 'utf8');
  return renderTemplate(template, {
    REPO: repoRoot,
    NODE: nodePath,
    // npm, which the first start runs to install packages, sits beside node.
    NODE_DIR: dirname(nodePath),
  });
}
