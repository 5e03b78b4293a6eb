import type { MediaDevice } from '@frontdesk/media/devices';
import { useT } from '../../i18n/useT.ts';

/**
 * A labelled choice of camera or microphone. Before access is granted browsers hide device
 * names, so an unnamed device is called by its kind and number.
 */
export function DeviceSelect(props: {
  id: string;
  kind: 'camera' | 'microphone';
  devices: readonly MediaDevice[] | undefined;
  value: string;
  onChoose: (deviceId: string) => void;
}) {
  const t = useT();
  return (
    <div className="field">
      <label htmlFor={props.id}>{t(props.kind)}</label>
      <select id={props.id} value={props.value} onChange={(e) => props.onChoose(e.target.value)}>
        {props.devices?.map((device, index) => (
          <option key={device.deviceId} value={device.deviceId}>
            {device.label || `${t(props.kind)} ${index + 1}`}
          </option>
        ))}
      </select>
    </div>
  );
}
