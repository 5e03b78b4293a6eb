import { describe, expect, it } from 'vitest';
import { PLAIN_TEXT, sniffContentType } from './content-type.ts';

const png = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1,
  0, 0, 0, 1, 8, 6, 0, 0, 0,
]);
const pdf = new TextEncoder().encode('%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
const exe = new Uint8Array([
  0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0xff, 0xff,
]);

describe('sniffContentType', () => {
  it('reads the type from the bytes', async () => {
    expect(await sniffContentType('image', png)).toBe('image/png');
    expect(await sniffContentType('document', pdf)).toBe('application/pdf');
  });

  it('refuses bytes of another type than the one claimed', async () => {
    expect(await sniffContentType('document', png)).toBeUndefined();
    expect(await sniffContentType('image', pdf)).toBeUndefined();
    expect(await sniffContentType('video', png)).toBeUndefined();
  });

  it('takes clean UTF-8 text as a document only', async () => {
    const text = new TextEncoder().encode('Order 1234: café ✓\n');
    expect(await sniffContentType('document', text)).toBe(PLAIN_TEXT);
    expect(await sniffContentType('image', text)).toBeUndefined();
  });

  it('refuses executables, SVG images, binary junk and empty files', async () => {
    expect(await sniffContentType('document', exe)).toBeUndefined();
    const svg = new TextEncoder().encode(
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    );
    expect(await sniffContentType('image', svg)).toBeUndefined();
    expect(
      await sniffContentType('document', new Uint8Array([0xff, 0xfe, 0x00, 0x41])),
    ).toBeUndefined();
    expect(await sniffContentType('document', new Uint8Array())).toBeUndefined();
  });
});
