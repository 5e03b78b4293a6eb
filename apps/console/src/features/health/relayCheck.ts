import { parseTurnUrl, type IceServer, type TurnUrl } from '@frontdesk/protocol';

/** What gathering relay candidates over one transport came to. */
export type RelayResult = {
  via: TurnUrl['via'];
  url: string;
  ok: boolean;
  /** The relay's address when ok; why not otherwise, as the browser told it. */
  message: string;
};

/** Long enough for a TLS handshake and two Allocate round trips over a slow network. */
export const RELAY_CHECK_TIMEOUT_MS = 10_000;

type Options = {
  /** The browser's RTCPeerConnection; tests pass a stand-in. */
  createPeerConnection?: (config: RTCConfiguration) => RTCPeerConnection;
  timeoutMs?: number;
};

/**
 * Gathers candidates from one TURN URL alone with `iceTransportPolicy: 'relay'`, so the only
 * candidates are relayed ones: a relay candidate proves the browser reached the TURN server
 * over this transport and that its credentials were taken (an allocation was granted).
 */
function checkOne(
  server: IceServer,
  turn: TurnUrl,
  timeoutMs: number,
  { createPeerConnection = (config) => new RTCPeerConnection(config) }: Options,
): Promise<RelayResult> {
  const result = (ok: boolean, message: string): RelayResult => ({
    via: turn.via,
    url: turn.url,
    ok,
    message,
  });
  return new Promise((resolve) => {
    let pc: RTCPeerConnection;
    try {
      pc = createPeerConnection({
        iceServers: [{ urls: turn.url, username: server.username, credential: server.credential }],
        iceTransportPolicy: 'relay',
      });
    } catch (error) {
      resolve(result(false, error instanceof Error ? error.message : String(error)));
      return;
    }
    let lastError = '';
    const finish = (outcome: RelayResult) => {
      clearTimeout(timer);
      pc.close();
      resolve(outcome);
    };
    const timer = setTimeout(
      () => finish(result(false, lastError || `no relay candidate within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    pc.addEventListener('icecandidate', (event) => {
      const candidate = event.candidate;
      if (candidate?.type === 'relay') {
        finish(result(true, `${candidate.address ?? '?'}:${candidate.port ?? '?'}`));
      } else if (candidate === null) {
        finish(result(false, lastError || 'gathering ended without a relay candidate'));
      }
    });
    // 401: the credentials were refused; 701: the server could not be reached (W3C WebRTC).
    pc.addEventListener('icecandidateerror', (event) => {
      const { errorCode, errorText } = event as RTCPeerConnectionIceErrorEvent;
      lastError = `${errorCode} ${errorText}`.trim();
    });
    // A data channel gives the offer something to gather candidates for.
    pc.createDataChannel('relay-check');
    pc.createOffer()
      .then((offer) => pc.setLocalDescription(offer))
      .catch((error: unknown) =>
        finish(result(false, error instanceof Error ? error.message : String(error))),
      );
  });
}

/** One check per TURN URL the API gave for the check (UDP, TCP, TLS), side by side. */
export function checkRelays(
  iceServers: readonly IceServer[],
  options: Options = {},
): Promise<RelayResult[]> {
  const timeoutMs = options.timeoutMs ?? RELAY_CHECK_TIMEOUT_MS;
  return Promise.all(
    iceServers.flatMap((server) =>
      [server.urls].flat().flatMap((url) => {
        const turn = parseTurnUrl(url);
        return turn ? [checkOne(server, turn, timeoutMs, options)] : [];
      }),
    ),
  );
}
