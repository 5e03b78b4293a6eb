import { useEffect, useRef } from 'react';
import { playStream } from '@frontdesk/media/devices';
import { useStream } from '../../app/servicesContext.ts';
import { LOCAL_STREAM } from '@frontdesk/media/streams';

type Props = {
  streamKey: string | undefined;
  label: string;
  /** Our own picture is muted (no echo) and mirrored, as people expect of a selfie view. */
  self?: boolean;
  fit: 'cover' | 'contain';
  volume?: number;
  testId: string;
};

/** A live stream in a `<video>`; the element keeps playing when the stream's tracks change. */
export function StreamVideo({ streamKey, label, self = false, fit, volume = 1, testId }: Props) {
  const stream = useStream(streamKey);
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    if (video.current) void playStream(video.current, stream, { volume });
  }, [stream, volume]);
  return (
    <video
      ref={video}
      className={`stream stream-${fit}${self ? ' stream-self' : ''}`}
      aria-label={label}
      data-testid={testId}
      autoPlay
      playsInline
      muted={self}
    />
  );
}

/** The guest's own camera, small, in a frame the screen places (waiting and call stages). */
export function SelfView({ className, label }: { className: string; label: string }) {
  return (
    <div className={className}>
      <StreamVideo streamKey={LOCAL_STREAM} label={label} self fit="cover" testId="local-video" />
    </div>
  );
}
