import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';

/**
 * zod's classic schemas carry JSON Schema generation (`toJSONSchema`, and the per-type
 * processors it calls) in every bundle that validates anything: about 6 KB gzipped that the
 * guest page never runs, as it only parses. These two modules are built in as stand-ins that
 * export the same names; calling any of them throws. Kept apart from the app's code so that a
 * new zod that renames them fails this build instead of shipping a stand-in that lacks a name.
 */
const LEFT_OUT = /[\\/]zod[\\/]v4[\\/]core[\\/](json-schema-processors|to-json-schema)\.js$/;

const EXPORTED_NAME = /^export (?:const|function|class) (\w+)|^export \{ \w+ as (\w+) \}/gm;

export function zodWithoutJsonSchema(): Plugin {
  return {
    name: 'frontdesk:zod-without-json-schema',
    enforce: 'pre',
    load(id) {
      if (!LEFT_OUT.test(id)) return null;
      const names = [...readFileSync(id, 'utf8').matchAll(EXPORTED_NAME)].map(
        (match) => match[1] ?? match[2],
      );
      if (names.length === 0) throw new Error(`${id}: no exports found to stand in for`);
      // The factories (`createToJSONSchemaMethod`, …) are called as schemas are made: each
      // stand-in returns a function, which throws only when JSON Schema is asked for.
      return [
        "const unavailable = () => { throw new Error('JSON Schema is not built into this page'); };",
        ...names.map((name) => `export const ${name} = () => unavailable;`),
      ].join('\n');
    },
  };
}
