/** Whether this browser can take a WebRTC call at all (spec §2 "browser supported"). */
export function browserSupportsCalls(): boolean {
  return (
    typeof RTCPeerConnection === 'function' &&
    typeof navigator.mediaDevices?.getUserMedia === 'function' &&
    typeof WebSocket === 'function'
  );
}

/** BotD runs in the page only; nothing is sent anywhere. */
export async function detectBot(): Promise<boolean> {
  const { load } = await import('@fingerprintjs/botd');
  const detector = await load();
  return detector.detect().bot;
}
