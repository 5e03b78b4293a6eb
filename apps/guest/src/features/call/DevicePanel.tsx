import { useEffect, useRef, useState } from 'react';
import { listDevices, type DeviceList } from '@frontdesk/media/devices';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { useT } from '../../i18n/useT.ts';
import { useStream } from '../../app/servicesContext.ts';
import { CloseIcon } from '../../ui/icons.tsx';
import { useEscapeWithin } from '../../ui/useEscapeWithin.ts';
import {
  callVolumeChanged,
  cameraChosen,
  deviceConfigToggled,
  microphoneChosen,
} from './callSlice.ts';
import { LOCAL_STREAM } from '@frontdesk/media/streams';
import { DeviceSelect } from './DeviceSelect.tsx';
import '../../ui/sheet.css';

/** The control row's button opens the panel; the panel gives the focus back to it on closing. */
export const DEVICES_BUTTON_ID = 'devices-toggle';

/**
 * The device-configuration panel (spec §3 deviceConfigOpen): switch camera and microphone live,
 * set the call's volume. It opens over the call, above the control row; Escape or its close
 * button closes it.
 */
export function DevicePanel() {
  const t = useT();
  const dispatch = useAppDispatch();
  const open = useAppSelector((state) => state.call.deviceConfigOpen);
  const volume = useAppSelector((state) => state.call.callVolume);
  const video = useAppSelector((state) => state.call.callType === 'video');
  const local = useStream(LOCAL_STREAM);
  const [devices, setDevices] = useState<DeviceList | null>(null);
  const panel = useRef<HTMLElement>(null);
  useEffect(() => {
    if (open) void listDevices().then(setDevices);
  }, [open]);
  const close = () => {
    dispatch(deviceConfigToggled());
    document.getElementById(DEVICES_BUTTON_ID)?.focus();
  };
  useEscapeWithin(panel, close);
  if (!open) return null;
  const current = (kind: 'audio' | 'video') =>
    local
      ?.getTracks()
      .find((track) => track.kind === kind)
      ?.getSettings().deviceId ?? '';

  return (
    <section
      id="device-panel"
      ref={panel}
      className="device-panel"
      aria-labelledby="device-panel-title"
    >
      <header className="sheet-header">
        <h2 id="device-panel-title">{t('devices')}</h2>
        <button
          type="button"
          className="sheet-close"
          aria-label={t('closeDevices')}
          onClick={close}
        >
          <CloseIcon />
        </button>
      </header>
      {video && (
        <DeviceSelect
          id="camera-select"
          kind="camera"
          devices={devices?.cameras}
          value={current('video')}
          onChoose={(deviceId) => dispatch(cameraChosen(deviceId))}
        />
      )}
      <DeviceSelect
        id="microphone-select"
        kind="microphone"
        devices={devices?.microphones}
        value={current('audio')}
        onChoose={(deviceId) => dispatch(microphoneChosen(deviceId))}
      />
      <div className="field">
        <label htmlFor="volume-range">{t('volume')}</label>
        <input
          id="volume-range"
          type="range"
          min={0}
          max={1}
          step={0.05}
          value={volume}
          onChange={(e) => dispatch(callVolumeChanged(Number(e.target.value)))}
        />
      </div>
    </section>
  );
}
