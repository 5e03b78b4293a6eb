import { expect, test } from '@playwright/test';
import { clientConfigSchema, envelope } from '@frontdesk/protocol';

type Probe = { url: string; subprotocol: string; frame: string };

/** Opens a WebSocket from the page, sends one frame, and returns the first frame received. */
function firstAnswer({ url, subprotocol, frame }: Probe): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, subprotocol);
    socket.onopen = () => socket.send(frame);
    socket.onmessage = (event) => {
      resolve(String(event.data));
      socket.close();
    };
    socket.onerror = () => reject(new Error(`WebSocket ${url} failed`));
  });
}

test('the page reaches the XMPP server and Janus through its own origin', async ({
  page,
  request,
}) => {
  const { data: config } = envelope(clientConfigSchema).parse(
    await (await request.get('/api/config')).json(),
  );
  await page.goto('/');

  const xmppAnswer = await page.evaluate(firstAnswer, {
    url: config.xmppWebsocketUrl,
    subprotocol: 'xmpp',
    frame: `<open xmlns="urn:ietf:params:xml:ns:xmpp-framing" to="${config.xmppDomain}" version="1.0"/>`,
  });
  expect(xmppAnswer).toContain(`from='${config.xmppDomain}'`);

  const janusAnswer = JSON.parse(
    await page.evaluate(firstAnswer, {
      url: config.janusWebsocketUrl,
      subprotocol: 'janus-protocol',
      frame: JSON.stringify({ janus: 'info', transaction: 'gateway-check' }),
    }),
  );
  expect(janusAnswer).toMatchObject({ janus: 'server_info', transaction: 'gateway-check' });
});
