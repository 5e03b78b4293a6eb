/**
 * The gate's WebSocket for one server of the API's Janus pool: `?server=<name>` (decision 0039).
 * An HTTP (long-poll) address is left as it is: janus.js appends the session to its path.
 */
export function onServer(url: string, server: string): string {
  if (!/^wss?:/i.test(url)) return url;
  const withServer = new URL(url);
  withServer.searchParams.set('server', server);
  return withServer.toString();
}
