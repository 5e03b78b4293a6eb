/** Whether this browser can take a WebRTC call at all (spec §2 "browser supported"). */
export function browserSupportsCalls(): boolean {
  return (
    typeof RTCPeerConnection === 'function' &&
    typeof navigator.mediaDevices?.getUserMedia === 'function' &&
    typeof WebSocket === 'function'
  );
}

/**
 * BotD runs in the page only; nothing is sent anywhere. Its usage beacon (on by default, sent to
 * some visits at random) is switched off: our policy refuses it, and a guest's visit is nobody
 * else's business.
 */
export async function detectBot(): Promise<boolean> {
  const { load } = await import('@fingerprintjs/botd');
  const detector = await load({ monitoring: false });
  return detector.detect().bot;
}
