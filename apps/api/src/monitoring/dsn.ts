/** A Sentry-style DSN: `<scheme>://<public key>@<host>[/<path>]/<project id>`. */
export type Dsn = { publicKey: string; host: string; projectId: string; envelopeUrl: string };

export function parseDsn(text: string): Dsn | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  const segments = url.pathname.split('/');
  const projectId = segments.pop() ?? '';
  if (!/^https?:$/.test(url.protocol) || url.username === '' || !/^\d+$/.test(projectId)) {
    return undefined;
  }
  const path = segments.join('/');
  return {
    publicKey: url.username,
    host: url.host,
    projectId,
    envelopeUrl: `${url.protocol}//${url.host}${path}/api/${projectId}/envelope/`,
  };
}

/** Whether two DSNs name the same project with the same key (the scheme may differ). */
export function sameDsn(a: Dsn, b: Dsn): boolean {
  return a.publicKey === b.publicKey && a.host === b.host && a.projectId === b.projectId;
}

/** The DSN an envelope names in its header, the JSON object on its first line. */
export function envelopeDsn(envelope: Uint8Array): string | undefined {
  const end = envelope.indexOf(0x0a);
  const header = new TextDecoder().decode(end < 0 ? envelope : envelope.subarray(0, end));
  try {
    const parsed: unknown = JSON.parse(header);
    if (
      typeof parsed === 'object' &&
      parsed !== null &&
      'dsn' in parsed &&
      typeof parsed.dsn === 'string'
    ) {
      return parsed.dsn;
    }
  } catch {
    // Not JSON: no DSN.
  }
  return undefined;
}
