import type { ReactNode } from 'react';

/**
 * The call screen's icons: a few strokes each, drawn here rather than loaded as an icon font, so
 * they cost bytes only in the call's own chunk. Decorative: the button around each names it.
 */
function Icon({ children }: { children: ReactNode }) {
  return (
    <svg
      className="icon"
      aria-hidden="true"
      focusable="false"
      width="24"
      height="24"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {children}
    </svg>
  );
}

const slash = <path d="M3 3l18 18" />;

export function MicIcon({ off = false }: { off?: boolean }) {
  return (
    <Icon>
      <rect x="9" y="3" width="6" height="11" rx="3" />
      <path d="M5 11a7 7 0 0 0 14 0M12 18v3M8 21h8" />
      {off && slash}
    </Icon>
  );
}

export function CameraIcon({ off = false }: { off?: boolean }) {
  return (
    <Icon>
      <rect x="2" y="6" width="14" height="12" rx="2" />
      <path d="M16 10l6-3v10l-6-3" />
      {off && slash}
    </Icon>
  );
}

export function SwitchCameraIcon() {
  return (
    <Icon>
      <path d="M4 8h2l2-3h8l2 3h2a1 1 0 0 1 1 1v9a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V9a1 1 0 0 1 1-1z" />
      <path d="M9 12.5a3 3 0 0 1 5.2-1.5M15 13.5a3 3 0 0 1-5.2 1.5" />
      <path d="M14.5 9.5v1.8h-1.8M9.5 16.5v-1.8h1.8" />
    </Icon>
  );
}

export function SettingsIcon() {
  return (
    <Icon>
      <path d="M4 6h9M17 6h3M4 12h3M11 12h9M4 18h11M19 18h1" />
      <circle cx="15" cy="6" r="2" />
      <circle cx="9" cy="12" r="2" />
      <circle cx="17" cy="18" r="2" />
    </Icon>
  );
}

export function ChatIcon() {
  return (
    <Icon>
      <path d="M21 12a8 8 0 0 1-11.6 7.1L4 20.5l1.4-4.6A8 8 0 1 1 21 12z" />
    </Icon>
  );
}

export function HangUpIcon() {
  return (
    <Icon>
      <path d="M3.5 14.5c-.8-.8-.7-2 .2-2.7C6 10 9 9 12 9s6 1 8.3 2.8c.9.7 1 1.9.2 2.7l-1.4 1.4a1.5 1.5 0 0 1-2 .1l-1.7-1.3a1.5 1.5 0 0 1-.6-1.2V12a11 11 0 0 0-5.6 0v1.5c0 .5-.2.9-.6 1.2L7 16a1.5 1.5 0 0 1-2-.1z" />
    </Icon>
  );
}

export function CloseIcon() {
  return (
    <Icon>
      <path d="M6 6l12 12M18 6L6 18" />
    </Icon>
  );
}

/** Fill the frame (crop) or show the whole picture (letterbox). */
export function FitIcon({ fill }: { fill: boolean }) {
  return (
    <Icon>
      {fill ? (
        <path d="M4 9V4h5M15 4h5v5M20 15v5h-5M9 20H4v-5" />
      ) : (
        <path d="M9 4v5H4M20 9h-5V4M15 20v-5h5M4 15h5v5" />
      )}
    </Icon>
  );
}

export function PersonIcon() {
  return (
    <Icon>
      <circle cx="12" cy="8" r="4" />
      <path d="M4 21a8 8 0 0 1 16 0" />
    </Icon>
  );
}

/** Signal bars, as many lit as the connection is good (3 good, 2 fair, 1 poor). */
export function SignalIcon({ bars }: { bars: 1 | 2 | 3 }) {
  return (
    <Icon>
      <path d="M6 20v-4" opacity={bars >= 1 ? 1 : 0.35} />
      <path d="M12 20v-9" opacity={bars >= 2 ? 1 : 0.35} />
      <path d="M18 20V5" opacity={bars >= 3 ? 1 : 0.35} />
    </Icon>
  );
}
