import { useEffect, useState } from 'react';
import { listDevices, type DeviceList } from '@frontdesk/media/devices';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { useT } from '../../i18n/useT.ts';
import { useStream } from '../../app/servicesContext.ts';
import {
  callVolumeChanged,
  cameraChosen,
  deviceConfigToggled,
  microphoneChosen,
} from './callSlice.ts';
import { LOCAL_STREAM } from '@frontdesk/media/streams';
import { DeviceSelect } from './DeviceSelect.tsx';

/** The device-configuration panel (spec §3 deviceConfigOpen): switch devices live, set volume. */
export function DevicePanel() {
  const t = useT();
  const dispatch = useAppDispatch();
  const open = useAppSelector((state) => state.call.deviceConfigOpen);
  const volume = useAppSelector((state) => state.call.callVolume);
  const video = useAppSelector((state) => state.call.callType === 'video');
  const local = useStream(LOCAL_STREAM);
  const [devices, setDevices] = useState<DeviceList | null>(null);
  useEffect(() => {
    if (open) void listDevices().then(setDevices);
  }, [open]);
  const current = (kind: 'audio' | 'video') =>
    local
      ?.getTracks()
      .find((track) => track.kind === kind)
      ?.getSettings().deviceId ?? '';

  return (
    <>
      <button
        type="button"
        aria-expanded={open}
        aria-controls="device-panel"
        onClick={() => dispatch(deviceConfigToggled())}
      >
        {t('devices')}
      </button>
      {open && (
        <div id="device-panel" className="device-panel">
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
        </div>
      )}
    </>
  );
}
