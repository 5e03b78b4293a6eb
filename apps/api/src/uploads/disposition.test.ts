import { describe, expect, it } from 'vitest';
import { cleanFileName, contentDisposition } from './disposition.ts';

describe('cleanFileName', () => {
  it('keeps the last path segment without control characters or quotes', () => {
    expect(cleanFileName('C:\\Users\\ada\\report "final".pdf', 'document')).toBe(
      'report final.pdf',
    );
    expect(cleanFileName('../../etc/passwd', 'document')).toBe('passwd');
    expect(cleanFileName('a\u0000b\nc.txt', 'document')).toBe('abc.txt');
  });

  it('falls back when nothing is left', () => {
    expect(cleanFileName(undefined, 'image')).toBe('image');
    expect(cleanFileName('..', 'image')).toBe('image');
    expect(cleanFileName('dir/', 'image')).toBe('image');
  });
});

describe('contentDisposition', () => {
  it('shows media in place and downloads anything else', () => {
    expect(contentDisposition('image/png', 'a.png')).toBe(
      `inline; filename="a.png"; filename*=UTF-8''a.png`,
    );
    expect(contentDisposition('application/pdf', 'a.pdf')).toMatch(/^attachment;/);
    expect(contentDisposition('text/plain; charset=utf-8', 'a.txt')).toMatch(/^attachment;/);
  });

  it('writes a non-ASCII name twice: replaced in filename, encoded in filename*', () => {
    expect(contentDisposition('application/pdf', 'تقرير (1).pdf')).toBe(
      `attachment; filename="_____ (1).pdf"; filename*=UTF-8''%D8%AA%D9%82%D8%B1%D9%8A%D8%B1%20%281%29.pdf`,
    );
  });
});
