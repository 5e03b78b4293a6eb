import { useEffect, useRef, useState, type ReactElement } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { t, type MessageKey } from '../../i18n/messages.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import {
  CameraIcon,
  EndCallIcon,
  MicIcon,
  MoreIcon,
  PauseIcon,
  PlayIcon,
  TransferIcon,
} from '../../ui/icons.tsx';
import { Menu } from '../../ui/Menu.tsx';
import { Tooltip } from '../../ui/Tooltip.tsx';
import { endClicked, holdClicked, muteToggled, resumeClicked } from './callSlice.ts';
import { SHORTCUT_KEYS, shortcutOf, type CallShortcut } from './shortcuts.ts';
import { TransferForm } from './TransferForm.tsx';
import './controls.css';

const HELP_ROWS: { shortcut: CallShortcut; label: MessageKey }[] = [
  { shortcut: 'mute', label: 'shortcutMute' },
  { shortcut: 'camera', label: 'shortcutCamera' },
  { shortcut: 'hold', label: 'shortcutHold' },
  { shortcut: 'transfer', label: 'shortcutTransfer' },
  { shortcut: 'end', label: 'shortcutEnd' },
  { shortcut: 'help', label: 'shortcutHelp' },
];

/** The help overlay `?` opens: every shortcut of the call, with its key. */
export function ShortcutsHelp({ onClose }: { onClose: () => void }) {
  return (
    <Dialog title={t('shortcutsTitle')} onCancel={onClose} testId="shortcuts-help">
      <p>{t('shortcutsIntro')}</p>
      <dl className="shortcuts">
        {HELP_ROWS.map((row) => (
          <div key={row.shortcut}>
            <dt>
              <kbd>{SHORTCUT_KEYS[row.shortcut].label}</kbd>
            </dt>
            <dd>{t(row.label)}</dd>
          </div>
        ))}
      </dl>
      <div className="actions">
        <button type="button" onClick={onClose}>
          {t('close')}
        </button>
      </div>
    </Dialog>
  );
}

/** An icon button with its name in a tooltip, beside the key that does the same. */
function IconButton(props: {
  label: string;
  shortcut: CallShortcut;
  icon: ReactElement;
  pressed?: boolean;
  /** Shown in colour without being a toggle (Hold while the call is held). */
  active?: boolean;
  /** A visible word beside the icon, for the control that must not be mistaken (End). */
  text?: string;
  tone?: 'danger' | 'neutral';
  disabled?: boolean;
  onClick: () => void;
  testId?: string;
}) {
  const key = SHORTCUT_KEYS[props.shortcut];
  return (
    <Tooltip
      label={
        <>
          {props.label} <kbd>{key.label}</kbd>
        </>
      }
    >
      <button
        type="button"
        className={`icon-button ${props.tone ?? 'neutral'}`}
        aria-label={props.label}
        aria-pressed={props.pressed}
        aria-keyshortcuts={key.aria}
        disabled={props.disabled}
        data-active={props.active}
        data-testid={props.testId}
        onClick={props.onClick}
      >
        {props.icon}
        {props.text && <span aria-hidden="true">{props.text}</span>}
      </button>
    </Tooltip>
  );
}

/**
 * The call's control row (issue 19 item 3): microphone and camera as toggles (pressed while
 * off), hold/resume, transfer, and End set apart in red; each on a key (shortcuts.ts) listed by
 * `?`, and what a key changed is said in a live region, since the agent's eyes may be elsewhere.
 */
export function CallControls({ label }: { label: string }) {
  const dispatch = useAppDispatch();
  const { call, media, onHold, pending } = useAppSelector((state) => state.call);
  const [transferring, setTransferring] = useState(false);
  const [help, setHelp] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const row = useRef<HTMLDivElement>(null);
  const audioMuted = media?.local.audioMuted ?? false;
  const videoMuted = media?.local.videoMuted ?? false;
  const voice = call?.callType === 'voice';
  const busy = pending !== null;

  // What the keys did, said once the state really changed (the media answers asynchronously).
  const said = useRef({ audioMuted, videoMuted, onHold });
  useEffect(() => {
    const before = said.current;
    said.current = { audioMuted, videoMuted, onHold };
    if (before.audioMuted !== audioMuted)
      setAnnouncement(t(audioMuted ? 'announceMuted' : 'announceUnmuted'));
    else if (before.videoMuted !== videoMuted)
      setAnnouncement(t(videoMuted ? 'announceCameraOff' : 'announceCameraOn'));
    else if (before.onHold !== onHold)
      setAnnouncement(t(onHold ? 'announceHeld' : 'announceResumed'));
  }, [audioMuted, videoMuted, onHold]);

  const actions: Record<CallShortcut, () => void> = {
    mute: () => dispatch(muteToggled('audio')),
    camera: () => !voice && dispatch(muteToggled('video')),
    hold: () => !busy && dispatch(onHold ? resumeClicked() : holdClicked()),
    transfer: () => !busy && setTransferring(true),
    end: () => !busy && dispatch(endClicked()),
    help: () => setHelp(true),
  };
  // Listened to again after each drawing, so a key acts on the call as it is now.
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented) return;
      const shortcut = shortcutOf(event);
      if (!shortcut) return;
      event.preventDefault();
      actions[shortcut]();
    }
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  });

  // The transfer form takes the focus it was opened for, by key or by click.
  useEffect(() => {
    if (transferring)
      row.current?.parentElement?.querySelector<HTMLElement>('.transfer select')?.focus();
  }, [transferring]);

  if (!call) return null;
  return (
    <>
      <div className="controls" role="group" aria-label={label} ref={row}>
        <IconButton
          label={t('muteMicrophone')}
          shortcut="mute"
          icon={<MicIcon off={audioMuted} />}
          pressed={audioMuted}
          onClick={actions.mute}
          testId="control-mute"
        />
        {!voice && (
          <IconButton
            label={t('stopCamera')}
            shortcut="camera"
            icon={<CameraIcon off={videoMuted} />}
            pressed={videoMuted}
            onClick={actions.camera}
            testId="control-camera"
          />
        )}
        {/* An action rather than a toggle: its name says what it will do (Hold, then Resume). */}
        <IconButton
          label={onHold ? t('resume') : t('hold')}
          shortcut="hold"
          icon={onHold ? <PlayIcon /> : <PauseIcon />}
          active={onHold}
          disabled={busy}
          onClick={actions.hold}
          testId="control-hold"
        />
        <IconButton
          label={t('transfer')}
          shortcut="transfer"
          icon={<TransferIcon />}
          disabled={busy}
          onClick={actions.transfer}
          testId="control-transfer"
        />
        <Menu
          label={t('moreCallOptions')}
          trigger={
            <button type="button" className="icon-button neutral" aria-label={t('moreCallOptions')}>
              <MoreIcon />
            </button>
          }
          items={[
            {
              label: t('shortcutsTitle'),
              hint: SHORTCUT_KEYS.help.label,
              onSelect: () => setHelp(true),
              testId: 'open-shortcuts',
            },
          ]}
        />
        <IconButton
          label={pending === 'end' ? t('ending') : t('endCall')}
          shortcut="end"
          icon={<EndCallIcon />}
          text={t('endShort')}
          tone="danger"
          disabled={busy}
          onClick={actions.end}
          testId="control-end"
        />
      </div>
      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
      {transferring && <TransferForm onCancel={() => setTransferring(false)} />}
      {help && <ShortcutsHelp onClose={() => setHelp(false)} />}
    </>
  );
}
