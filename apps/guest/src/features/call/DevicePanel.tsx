import { useEffect, useState } from 'react';
import { listDevices, type DeviceList } from '@frontdesk/media/devices';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { useT } from '../../i18n/useT.ts';
import { callVolumeChanged, deviceConfigToggled, devicesChanged } from './callSlice.ts';
import { liveCall } from './connections.ts';
import { LOCAL_STREAM, useStream } from './streams.ts';

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
            <div className="field">
              <label htmlFor="camera-select">{t('camera')}</label>
              <select
                id="camera-select"
                value={current('video')}
                onChange={(e) => {
                  void liveCall()?.media.switchCamera({ deviceId: e.target.value });
                  dispatch(devicesChanged());
                }}
              >
                {devices?.cameras.map((d, i) => (
                  <option key={d.deviceId} value={d.deviceId}>
                    {d.label || `${t('camera')} ${i + 1}`}
                  </option>
                ))}
              </select>
            </div>
          )}
          <div className="field">
            <label htmlFor="microphone-select">{t('microphone')}</label>
            <select
              id="microphone-select"
              value={current('audio')}
              onChange={(e) => {
                void liveCall()?.media.switchMicrophone(e.target.value);
                dispatch(devicesChanged());
              }}
            >
              {devices?.microphones.map((d, i) => (
                <option key={d.deviceId} value={d.deviceId}>
                  {d.label || `${t('microphone')} ${i + 1}`}
                </option>
              ))}
            </select>
          </div>
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
