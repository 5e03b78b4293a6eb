/** A name safe to show and store: no folders, no control characters, at most 200 characters. */
export function cleanFileName(name: string | undefined, fallback: string): string {
  const base = (name ?? '').split(/[/\\]/).pop() ?? '';
  const clean = base
    .replace(/[\p{Cc}"]/gu, '')
    .trim()
    .slice(0, 200);
  return clean === '' || clean === '.' || clean === '..' ? fallback : clean;
}

/**
 * `Content-Disposition` (RFC 6266): media the browser can show opens in place, anything else is
 * downloaded. The name goes as ASCII for old clients and as UTF-8 in `filename*` (RFC 8187).
 */
export function contentDisposition(contentType: string, fileName: string): string {
  const inline = /^(image|audio|video)\//.test(contentType);
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/[\\;]/g, '_');
  const utf8 = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${utf8}`;
}
