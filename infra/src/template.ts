import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Folder holding `ejabberd/` and `janus/` configuration templates. */
export const TEMPLATES_DIR = fileURLToPath(new URL('../templates/', import.meta.url));

/** Values for `{{NAME}}` placeholders; `undefined` only makes sense for `{{?NAME}}` lines. */
export type TemplateVars = Readonly<Record<string, string | number | undefined>>;

/** Rendering options. */
export interface RenderOptions {
  /** Variables inserted as they are (the caller formatted and checked them), e.g. a quoted list. */
  readonly raw?: readonly string[];
}

const PLACEHOLDER = /\{\{([A-Z0-9_]+)\}\}/g;
const CONDITIONAL_LINE = /^([ \t]*)\{\{\?([A-Z0-9_]+)\}\}/;
// What a YAML formatter makes of an unquoted placeholder (a nested flow map).
const MANGLED_PLACEHOLDER = /\{ \{ ?\??[A-Z0-9_]+ ?\} \}/;
// Values end up inside quoted strings of YAML and libconfig files and in a
// sourced shell file: refuse anything that could end a string or a line.
const UNSAFE_VALUE = /["'\\`$\s]/;

/**
 * Fills a template. `{{NAME}}` is replaced by `vars.NAME` (an error if it is
 * missing, so a typo cannot produce a silently broken config); a line that
 * starts with `{{?NAME}}` is dropped when `vars.NAME` is undefined or empty and
 * kept without the marker otherwise.
 */
export function renderTemplate(
  template: string,
  vars: TemplateVars,
  options: RenderOptions = {},
): string {
  if (MANGLED_PLACEHOLDER.test(template)) {
    throw new Error(
      'template has a "{ {NAME} }" placeholder: was it reformatted (e.g. by prettier)?',
    );
  }
  const lines: string[] = [];
  for (const line of template.split('\n')) {
    const conditional = CONDITIONAL_LINE.exec(line);
    if (conditional) {
      const value = vars[conditional[2] as string];
      if (value === undefined || value === '') continue;
      lines.push((conditional[1] as string) + line.slice(conditional[0].length));
    } else {
      lines.push(line);
    }
  }
  return lines.join('\n').replace(PLACEHOLDER, (_match, name: string) => {
    const value = vars[name];
    if (value === undefined) throw new Error(`template variable {{${name}}} has no value`);
    const text = String(value);
    if (!options.raw?.includes(name) && UNSAFE_VALUE.test(text)) {
      throw new Error(`template variable {{${name}}} contains a quote, backslash or newline`);
    }
    return text;
  });
}

/** Renders `TEMPLATES_DIR/<group>/<name>` into `<dir>/<name>` and returns the written path. */
export async function renderTemplateFile(
  group: 'coturn' | 'ejabberd' | 'haproxy' | 'janus',
  name: string,
  dir: string,
  vars: TemplateVars,
  options: RenderOptions = {},
): Promise<string> {
  const template = await readFile(join(TEMPLATES_DIR, group, name), 'utf8');
  const target = join(dir, name);
  // The configs hold secrets: owner-only.
  await writeFile(target, renderTemplate(template, vars, options), { mode: 0o600 });
  return target;
}
