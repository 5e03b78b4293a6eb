import { useEffect, useRef } from 'react';
import { useServices, useStream } from '../../app/servicesContext.ts';

/** One stream of the call in a `<video>` (a voice call's video element just plays sound). */
export function MediaTile(props: {
  streamKey: string;
  label: string;
  muted?: boolean;
  testId: string;
}) {
  const { connections } = useServices();
  const stream = useStream(props.streamKey);
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    if (video.current) void connections.play?.(video.current, stream ?? null);
  }, [connections, stream]);
  return (
    <figure className="tile">
      <video
        ref={video}
        autoPlay
        playsInline
        muted={props.muted ?? false}
        aria-label={props.label}
        data-testid={props.testId}
        data-live={stream ? 'true' : 'false'}
      />
      <figcaption>{props.label}</figcaption>
    </figure>
  );
}
