import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { mintJanusToken } from '../src/janus-token.ts';
import { renderTemplate } from '../src/template.ts';

describe('renderTemplate', () => {
  it('fills placeholders and keeps conditional lines only when set', () => {
    const template = 'a = "{{A}}"\n\t{{?B}}b = "{{B}}"\nport = {{PORT}}';
    expect(renderTemplate(template, { A: 'x', PORT: 5 })).toBe('a = "x"\nport = 5');
    expect(renderTemplate(template, { A: 'x', B: 'y', PORT: 5 })).toBe(
      'a = "x"\n\tb = "y"\nport = 5',
    );
  });

  it('refuses missing variables and values that could break out of a string', () => {
    expect(() => renderTemplate('{{MISSING}}', {})).toThrow(/MISSING/);
    expect(() => renderTemplate('"{{S}}"', { S: 'a"b' })).toThrow(/quote/);
    expect(() => renderTemplate('"{{S}}"', { S: 'a\nb' })).toThrow();
    expect(renderTemplate('[{{L}}]', { L: '"/a", "/b"' }, { raw: ['L'] })).toBe('["/a", "/b"]');
  });

  it('notices placeholders mangled by a YAML formatter', () => {
    expect(() => renderTemplate('port: { { PORT } }', { PORT: 1 })).toThrow(/reformatted/);
  });
});

describe('mintJanusToken', () => {
  it('follows the Janus 1.1.2 signed-token format', () => {
    const before = Math.floor(Date.now() / 1000);
    const token = mintJanusToken('s3cret', 3600, [
      'janus.plugin.videoroom',
      'janus.plugin.textroom',
    ]);
    const [data, signature] = token.split(':') as [string, string];
    const [expiry, realm, ...plugins] = data.split(',');
    expect(Number(expiry)).toBeGreaterThanOrEqual(before + 3600);
    expect(Number(expiry)).toBeLessThanOrEqual(before + 3601);
    expect(realm).toBe('janus');
    expect(plugins).toEqual(['janus.plugin.videoroom', 'janus.plugin.textroom']);
    expect(signature).toBe(createHmac('sha1', 's3cret').update(data).digest('base64'));
  });

  it('defaults to the videoroom plugin and refuses nonsense', () => {
    expect(mintJanusToken('s', 10).split(':')[0]).toMatch(/^\d+,janus,janus\.plugin\.videoroom$/);
    expect(() => mintJanusToken('s', 0)).toThrow();
    expect(() => mintJanusToken('s', 10, ['a,b'])).toThrow();
  });
});
