import { useOutletContext } from 'react-router';
import { t } from '../../i18n/messages.ts';
import { AllowedOriginsEditor } from './AllowedOriginsEditor.tsx';
import { SettingsFieldControl } from './fields.tsx';
import type { SettingsGroup } from './settingsGroups.ts';

/** What the settings form tells its groups' routes (react-router's outlet context). */
export type SettingsOutletContext = {
  companyId: number;
  version: number;
  /** Loads the company again under the draft (after a change saved by its own route). */
  reload: () => void;
};

/** One group's fields (a route of the admin area); the form around them is SettingsEditor's. */
export function SettingsGroupFields({ group }: { group: SettingsGroup }) {
  const settings = useOutletContext<SettingsOutletContext>();
  return (
    <section className="settings-group" aria-labelledby={`group-${group.path}`}>
      <h2 id={`group-${group.path}`}>{t(`group_${group.path}`)}</h2>
      {group.fields.map((spec) => (
        <SettingsFieldControl key={spec.name} spec={spec} />
      ))}
      {group.path === 'website' && (
        <AllowedOriginsEditor
          companyId={settings.companyId}
          version={settings.version}
          onSaved={settings.reload}
        />
      )}
    </section>
  );
}
