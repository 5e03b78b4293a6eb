import { useEffect, useRef, type ReactNode } from 'react';
import { useServices, useStream } from '../../app/servicesContext.ts';
import { t } from '../../i18n/messages.ts';
import { guestLabel } from '../chat/guestLabel.ts';
import { useGuestName } from '../guestContext/useGuestContext.ts';

/** The guest's sound in an `<audio>`: a voice call has no picture to show. */
function RemoteAudio({ streamKey }: { streamKey: string }) {
  const { connections } = useServices();
  const stream = useStream(streamKey);
  const audio = useRef<HTMLAudioElement>(null);
  useEffect(() => {
    if (audio.current) void connections.play?.(audio.current, stream ?? null);
  }, [connections, stream]);
  return (
    <audio
      ref={audio}
      autoPlay
      aria-label={t('guestAudio')}
      data-testid="remote-audio"
      data-live={stream ? 'true' : 'false'}
    />
  );
}

/** Up to two initials of a name ("Grace Hopper" → "GH"); a single letter otherwise. */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words.at(-1)] : words.slice(0, 1);
  return letters
    .map((word) => Array.from(word ?? '')[0] ?? '')
    .join('')
    .toUpperCase();
}

/**
 * A voice call's stage (issue 19 item 3): the guest's initials in a large circle, their name and
 * the call's time, instead of two black video tiles; the guest's voice plays from hidden audio.
 */
export function VoiceStage(props: {
  callId: string;
  guestNick: string;
  feeds: readonly { janusId: string }[];
  timer: ReactNode;
}) {
  const guest = useGuestName(props.callId, guestLabel(props.guestNick));
  return (
    <div
      className="voice-stage"
      role="group"
      aria-label={t('voiceCallLabel', { guest })}
      data-testid="voice-stage"
    >
      <div className="voice-avatar" aria-hidden="true">
        {initialsOf(guest)}
      </div>
      <p className="voice-name">{guest}</p>
      {props.timer}
      {props.feeds.map((feed) => (
        <RemoteAudio key={feed.janusId} streamKey={feed.janusId} />
      ))}
    </div>
  );
}
