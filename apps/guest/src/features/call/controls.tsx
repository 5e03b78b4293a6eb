import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useT } from '../../i18n/useT.ts';
import { SelfView } from './StreamVideo.tsx';

/**
 * A round button of the call's control row: an icon, its name for screen readers and, on hover
 * or keyboard focus, the same name as a tooltip. `off` marks a muted microphone or a camera
 * turned off (drawn light, as the call apps people know do).
 */
export function ControlButton(props: {
  label: string;
  icon: ReactNode;
  onClick: () => void;
  testId?: string;
  id?: string;
  off?: boolean;
  danger?: boolean;
  expanded?: boolean;
  controls?: string;
  children?: ReactNode;
}) {
  return (
    <button
      type="button"
      id={props.id}
      className={`control${props.off ? ' control-off' : ''}${props.danger ? ' control-end' : ''}`}
      aria-label={props.label}
      aria-expanded={props.expanded}
      aria-controls={props.controls}
      onClick={props.onClick}
      data-testid={props.testId}
    >
      {props.icon}
      {props.children}
      <span className="control-tip" aria-hidden="true">
        {props.label}
      </span>
    </button>
  );
}

/** Minutes and seconds (hours once there are any), in digits people read in either direction. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0
    ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}`
    : `${String(minutes).padStart(2, '0')}:${seconds}`;
}

/** How long the call has lasted since `since` (when its screen opened: the agent answered). */
export function CallTimer({ since }: { since: number }) {
  const t = useT();
  // From now, not from `since`: a timer shown mid-call (after a hold) never reads 00:00 first.
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <span className="call-timer" data-testid="call-timer">
      <span className="visually-hidden">{t('callDuration')} </span>
      <bdi>{formatDuration(now - since)}</bdi>
    </span>
  );
}

type Corner = { top: boolean; start: boolean };

/**
 * The guest's own picture over the agent's: small, in a corner, and moved by dragging it
 * anywhere, where it settles into the nearest corner (as in Meet or WhatsApp) so it never hides
 * what the guest is looking at. It starts in the bottom corner at the end of the line.
 */
export function MovableSelfView({ label }: { label: string }) {
  const frame = useRef<HTMLDivElement>(null);
  const origin = useRef<{ x: number; y: number } | null>(null);
  const [corner, setCorner] = useState<Corner>({ top: false, start: false });
  const [offset, setOffset] = useState<{ x: number; y: number } | null>(null);

  function settle() {
    const element = frame.current;
    const stage = element?.parentElement;
    origin.current = null;
    if (!element || !stage) return setOffset(null);
    const box = element.getBoundingClientRect();
    const area = stage.getBoundingClientRect();
    const left = box.left + box.width / 2 < area.left + area.width / 2;
    const rtl = getComputedStyle(stage).direction === 'rtl';
    setCorner({
      top: box.top + box.height / 2 < area.top + area.height / 2,
      start: rtl ? !left : left,
    });
    setOffset(null);
  }

  return (
    <div
      ref={frame}
      className={`call-self-frame${offset ? ' dragging' : ''}`}
      data-corner={`${corner.top ? 'top' : 'bottom'}-${corner.start ? 'start' : 'end'}`}
      data-testid="self-view"
      style={offset ? { transform: `translate(${offset.x}px, ${offset.y}px)` } : undefined}
      onPointerDown={(event) => {
        event.currentTarget.setPointerCapture(event.pointerId);
        origin.current = { x: event.clientX, y: event.clientY };
      }}
      onPointerMove={(event) => {
        if (!origin.current) return;
        setOffset({ x: event.clientX - origin.current.x, y: event.clientY - origin.current.y });
      }}
      onPointerUp={settle}
      onPointerCancel={settle}
    >
      <SelfView className="call-self" label={label} />
    </div>
  );
}
