import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { t } from '../../i18n/messages.ts';
import {
  AVAILABILITIES,
  availabilityChosen,
  selectInCall,
  type Availability,
} from './availabilitySlice.ts';

/**
 * Available, away or busy; while a call is under way it reads "busy" and cannot change. The
 * choice names itself in the top bar; its label is for screen readers.
 */
export function AvailabilityPicker() {
  const dispatch = useAppDispatch();
  const chosen = useAppSelector((state) => state.availability.chosen);
  const inCall = useAppSelector(selectInCall);
  if (inCall) {
    return (
      <p className="availability" data-availability="busy">
        {t('busyInCall')}
      </p>
    );
  }
  return (
    <label className="availability" data-availability={chosen}>
      <span className="visually-hidden">{t('availability')}</span>
      <select
        value={chosen}
        onChange={(event) => dispatch(availabilityChosen(event.target.value as Availability))}
      >
        {AVAILABILITIES.map((availability) => (
          <option key={availability} value={availability}>
            {t(`availability_${availability}`)}
          </option>
        ))}
      </select>
    </label>
  );
}
