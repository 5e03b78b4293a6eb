import { t } from '../../i18n/messages.ts';
import { SettingsFieldControl } from './fields.tsx';
import type { SettingsGroup } from './settingsGroups.ts';

/** One group's fields (a route of the admin area); the form around them is SettingsEditor's. */
export function SettingsGroupFields({ group }: { group: SettingsGroup }) {
  return (
    <section className="settings-group" aria-labelledby={`group-${group.path}`}>
      <h2 id={`group-${group.path}`}>{t(`group_${group.path}`)}</h2>
      {group.fields.map((spec) => (
        <SettingsFieldControl key={spec.name} spec={spec} />
      ))}
    </section>
  );
}
