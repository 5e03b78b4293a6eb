import type { CompanySettingsPatchField } from '@frontdesk/protocol';
import type { MessageKey } from '../../i18n/messages.ts';
import type { SettingsValues } from './settingsDraft.ts';

/** The company fields an admin edits in the settings form: the patchable settings and the name. */
export type SettingsField = CompanySettingsPatchField | 'name';

/**
 * How a field is edited. `image`: one of our uploads or an https: address, with a picture of how
 * it fits (`fit` names the place it shows in); `link`: an https: address; `text`/`longText`: a
 * line or a paragraph; `colour`: `#rrggbb`; `switch` and `choice`: the schema's boolean or enum.
 */
export type FieldKind =
  | { kind: 'text' }
  | { kind: 'longText' }
  | { kind: 'link' }
  | { kind: 'image'; fit: ImageFit }
  | { kind: 'colour' }
  | { kind: 'switch' }
  | { kind: 'choice'; caveat?: Caveat }
  | { kind: 'assignmentGroups' };

/**
 * What a field's value comes to with the rest of the draft when that is not what it says: the
 * warning shown beside it as the admin edits, or null.
 */
export type Caveat = (draft: SettingsValues) => MessageKey | null;

/**
 * Peer to peer chosen while calls are recorded: the API puts every recorded call through the
 * media server whatever the company chose (decision 0045), so with recording optional only the
 * calls a guest takes unrecorded are peer to peer, and with it not optional none are. The draft's
 * own `callMethod`, `recordCalls` and `recordingOptional` decide the warning; no call is at hand.
 */
export const callMethodCaveat: Caveat = (draft) => {
  if (draft.callMethod !== 'p2p' || !draft.recordCalls) return null;
  return draft.recordingOptional ? 'callMethodRecordedMostly' : 'callMethodRecordedAll';
};

/** Where an image shows on the guest's pages, which decides its fit preview. */
export type ImageFit = 'logo' | 'icon' | 'cover' | 'picture';

export type SettingsFieldSpec = { name: SettingsField } & FieldKind;

/** A settings group: one page of the admin area, at `/console/admin/<path>`. */
export type SettingsGroup = {
  path: 'brand' | 'pages' | 'call' | 'consent' | 'location' | 'website';
  fields: readonly SettingsFieldSpec[];
  /** The guest stage the preview turns to when the group opens. */
  stage: 'selection' | 'waiting' | 'rating' | 'outofzone' | 'welcome' | 'consent';
};

const text = (name: SettingsField): SettingsFieldSpec => ({ name, kind: 'text' });
const longText = (name: SettingsField): SettingsFieldSpec => ({ name, kind: 'longText' });
const image = (name: SettingsField, fit: ImageFit): SettingsFieldSpec => ({
  name,
  kind: 'image',
  fit,
});
const colour = (name: SettingsField): SettingsFieldSpec => ({ name, kind: 'colour' });
const toggle = (name: SettingsField): SettingsFieldSpec => ({ name, kind: 'switch' });
const choice = (name: SettingsField): SettingsFieldSpec => ({ name, kind: 'choice' });

/**
 * The settings as a company thinks of them (issue 16): every field of `PATCH /company/:id`
 * appears in exactly one group (settingsGroups.test.ts checks it).
 */
export const SETTINGS_GROUPS: readonly SettingsGroup[] = [
  {
    path: 'brand',
    stage: 'selection',
    fields: [
      text('name'),
      image('logoImageUrl', 'logo'),
      image('faviconUrl', 'icon'),
      colour('backgroundColor'),
      colour('textColor'),
      colour('categoryBackgroundColor'),
      colour('categoryTextColor'),
      text('fontFamily'),
      image('backgroundImgUrl', 'cover'),
      choice('language'),
      choice('pageDirection'),
      image('waterMarkLogo', 'logo'),
      choice('streamWatermark'),
      toggle('poweredByLogo'),
    ],
  },
  {
    path: 'pages',
    stage: 'welcome',
    fields: [
      longText('welcomeMsg'),
      text('welcomeButtonText'),
      longText('waitingMsg'),
      image('waitingImageUrl', 'picture'),
      longText('outOfHoursMsg'),
      toggle('hideTimetable'),
      image('holdPageImage', 'picture'),
      longText('holdPageText'),
      longText('videoOnHoldText'),
      longText('audioOnHoldText'),
      longText('ratingPageMsg'),
      image('ratingPageImage', 'picture'),
      text('ratingSubmitMsg'),
      longText('ratingThanksMsg'),
      longText('thanksMsg'),
    ],
  },
  {
    path: 'call',
    stage: 'selection',
    fields: [
      choice('callType'),
      { name: 'callMethod', kind: 'choice', caveat: callMethodCaveat },
      toggle('previewScreen'),
      toggle('flipCamera'),
      toggle('recordCalls'),
      longText('recordAlertText'),
      toggle('recordingOptional'),
      toggle('roundRobin'),
      toggle('keepIpAddresses'),
      choice('categoryStyle'),
      toggle('showRatingPage'),
      choice('ratingStyle'),
      toggle('advanceRating'),
      toggle('assignments'),
      { name: 'assignmentGroups', kind: 'assignmentGroups' },
    ],
  },
  {
    // decision 0030: what the guest is asked before anything about them is stored.
    path: 'consent',
    stage: 'consent',
    fields: [
      toggle('consentRequired'),
      longText('consentText'),
      { name: 'privacyNoticeUrl', kind: 'link' },
    ],
  },
  {
    path: 'location',
    stage: 'outofzone',
    fields: [toggle('requestLocation'), longText('locationOfService'), longText('outOfZoneMsg')],
  },
  {
    path: 'website',
    stage: 'selection',
    fields: [{ name: 'websiteUrl', kind: 'link' }, text('websiteTitle'), longText('details')],
  },
];

/** Every field the form edits, in the order of the groups. */
export const SETTINGS_FIELDS: readonly SettingsFieldSpec[] = SETTINGS_GROUPS.flatMap(
  (group) => group.fields,
);
