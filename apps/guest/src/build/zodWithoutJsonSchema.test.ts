// @vitest-environment node
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Plugin } from 'vite';
import { zodWithoutJsonSchema } from '../../zod-without-json-schema.ts';

const zodCore = join(
  dirname(createRequire(import.meta.url).resolve('zod/package.json')),
  'v4/core',
);

/** The stand-in the build puts in place of a zod module, as a module of its own. */
async function standIn(file: string): Promise<Record<string, unknown>> {
  const load = zodWithoutJsonSchema().load as Exclude<Plugin['load'], undefined>;
  const code = (typeof load === 'function' ? load : load.handler).call(
    {} as never,
    join(zodCore, file),
  ) as string;
  return import(`data:text/javascript,${encodeURIComponent(code)}`);
}

describe('zod without JSON Schema in the guest build', () => {
  it.each(['json-schema-processors.js', 'to-json-schema.js'])(
    'stands in for every name %s exports, and throws only when JSON Schema is made',
    async (file) => {
      const real: Record<string, unknown> = await import(join(zodCore, file));
      const stand = await standIn(file);
      expect(Object.keys(stand).sort()).toEqual(Object.keys(real).sort());
      const factory = stand.createToJSONSchemaMethod ?? stand.stringProcessor;
      expect(factory).toBeTypeOf('function');
      const method = (factory as () => () => unknown)();
      expect(method).toThrow('JSON Schema is not built into this page');
    },
  );

  it('leaves every other module to zod', () => {
    const load = zodWithoutJsonSchema().load as (id: string) => unknown;
    expect(load.call({}, join(zodCore, 'schemas.js'))).toBeNull();
  });
});
