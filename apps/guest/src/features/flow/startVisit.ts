import {
  ApiRequestError,
  CALL_REFUSAL_STAGES,
  routes,
  type CompanyDetails,
  type GuestRegistration,
  type GuestStage,
} from '@frontdesk/protocol';
import { createAppThunk } from '../../app/hooks.ts';
import type { GuestServices } from '../../app/services.ts';
import { browserChecked } from '../browserCheck/browserCheckSlice.ts';
import { companyLoaded } from '../company/companySlice.ts';
import { geofenceChecked } from '../geofence/geofenceSlice.ts';
import { guestRegistered, guestSignedIn, locationFound } from '../guestAuth/guestAuthSlice.ts';
import { browserUsername, keepRegistration, keptRegistration } from '../guestAuth/identity.ts';
import { keptTicket } from '../guestAuth/resumeTicket.ts';
import { callResumeFound, serviceFailed, stageReached, type FailureReason } from './flowSlice.ts';
import { languageOf, loadLanguage } from '../../i18n/messages.ts';

/** Why the service failed, in terms the failure page explains (spec §8 leaves wording open). */
function failureOf(error: unknown): FailureReason {
  if (error instanceof ApiRequestError) {
    if (error.status === 0) return 'unreachable';
    if (error.status === 404) return 'notFound';
  }
  return 'unavailable';
}

/**
 * Logs the guest in with the registration this browser kept for the company, or, when there is
 * none or the API no longer knows it (401), registers anew and keeps that (decision 0006).
 * Where the company asks for consent (decision 0030) and the guest has not given it (`consent`
 * false), nothing is computed or sent: it answers `undefined`, and the page asks. A kept guest
 * that never consented is replaced by a new one once the guest accepts.
 */
async function signIn(extra: GuestServices, company: CompanyDetails, consent: boolean) {
  const { api, storage } = extra;
  const companyId = company.id;
  const login = (registration: GuestRegistration) =>
    api(routes.guestLogin, { body: { credential: registration.credential, companyId } });
  const kept = keptRegistration(storage, companyId);
  if (kept) {
    try {
      const keptLogin = (await login(kept)).data;
      if (!company.consentRequired || keptLogin.consentGivenAt !== null) {
        return { registration: kept, login: keptLogin };
      }
      if (!consent) return undefined;
    } catch (error) {
      if (!(error instanceof ApiRequestError && error.status === 401)) throw error;
    }
    keepRegistration(storage, companyId, undefined);
  }
  if (company.consentRequired && !consent) return undefined;
  const username = browserUsername(await extra.computeFingerprint(), storage);
  // spec §8: a registration that is not 201 stops here; the client throws on any non-2xx.
  const { data: registration } = await api(routes.registerGuest, {
    body: { username, companyId, ...(consent ? { consent: true as const } : {}) },
  });
  keepRegistration(storage, companyId, registration);
  return { registration, login: (await login(registration)).data };
}

/** The stage that explains the API's refusal of a new call, when the refusal is one of its rules. */
export function refusalStage(error: unknown) {
  if (!(error instanceof ApiRequestError) || error.status !== 403) return undefined;
  return Object.entries(CALL_REFUSAL_STAGES).find(([code]) => code === error.code)?.[1];
}

/**
 * The stage that refuses the guest's call before it starts (`call-report/admission`): blocked or
 * out of quota, or one of the company's rules the API holds (not the welcome form, which comes
 * next anyway). None when the call would go through or the check itself failed:
 * `call-report/add` decides again when the call starts.
 */
async function admissionRefusal(
  extra: GuestServices,
  token: string,
  companyId: number,
): Promise<GuestStage | undefined> {
  try {
    const { data } = await extra.api(routes.callAdmission, { token, body: { company: companyId } });
    return data.status === 'ok' ? undefined : data.status;
  } catch (error) {
    const stage = refusalStage(error);
    return stage === 'welcome' ? undefined : stage;
  }
}

/** The stage after the welcome form: the preview when the company shows one, else selection. */
export const stageAfterWelcome = (company: CompanyDetails) =>
  company.previewScreen ? 'preview' : 'selection';

/**
 * The visit from page load to the first screen the guest acts on (docs/architecture.md, steps
 * 1–2): company and branding, bot and browser checks, then {@link continueVisit}.
 */
export const startVisit = createAppThunk(
  'flow/startVisit',
  async (_arg: undefined, { dispatch, getState, extra }) => {
    const { api } = extra;
    const { companyId } = getState().page;
    try {
      // The bot check loads and runs its own code: it goes on while the company's look is put
      // on the page, which must not wait for it.
      const botCheck = extra.detectBot().catch(() => false);
      const { data: company } = await api(routes.company, { params: { id: String(companyId) } });
      // The company's sentences before its first screen (main.tsx started fetching them).
      await loadLanguage(languageOf(getState().page.language ?? company.language));
      extra.applyBranding(company, getState().page.language);
      dispatch(companyLoaded(company));

      if (await botCheck) return void dispatch(stageReached('bot'));
      const browserSupported = extra.browserSupportsCalls();
      const internetSupported = extra.isOnline();
      dispatch(browserChecked({ browserSupported, internetSupported }));
      if (!browserSupported || !internetSupported)
        return void dispatch(stageReached('unsupported'));
      if (!company.activated) return void dispatch(stageReached('inactive'));
    } catch (error) {
      return void dispatch(serviceFailed(failureOf(error)));
    }
    await dispatch(continueVisit({ consent: false }));
  },
);

/**
 * The visit from the guest's identity on: sign-in (or the consent stage first, where the company
 * asks and `consent` is false: decision 0030), then the company's checks — schedule, geofence,
 * welcome form — each of which may stop at its stage. The consent stage's acceptance dispatches
 * it again with `consent` true.
 */
export const continueVisit = createAppThunk(
  'flow/continueVisit',
  async ({ consent }: { consent: boolean }, { dispatch, getState, extra }) => {
    const { api } = extra;
    const { companyId, serviceType } = getState().page;
    const company = getState().company.details;
    if (!company) throw new Error('the company is not loaded');
    try {
      const signedIn = await signIn(extra, company, consent);
      if (!signedIn) return void dispatch(stageReached('consent'));
      const { registration, login } = signedIn;
      dispatch(guestRegistered(registration));
      dispatch(guestSignedIn(login));
      // decision 0025: a reload in the middle of a call takes the same call up again.
      const ticket = keptTicket(extra.tabStorage, companyId, login.username);
      if (ticket) return void dispatch(callResumeFound(ticket));

      if (company.schedule && !company.schedule.openNow)
        return void dispatch(stageReached('schedule'));

      if (company.requestLocation) {
        let location;
        try {
          location = await extra.readLocation();
          dispatch(locationFound(location));
        } catch {
          // spec §4 counts this as outside; the page says what the guest can do about it.
          dispatch(geofenceChecked({ inside: false, reason: 'noLocation' }));
          return void dispatch(stageReached('outofzone'));
        }
        const inside = await api(routes.geofenceCheck, {
          token: login.access_token,
          body: {
            lat: location.latitude,
            lng: location.longitude,
            accuracy: location.accuracy,
            companyID: companyId,
          },
        }).then(
          () => true,
          // spec §4: any failure of the check means outside.
          () => false,
        );
        dispatch(geofenceChecked(inside ? { inside } : { inside, reason: 'outside' }));
        if (!inside) return void dispatch(stageReached('outofzone'));
      }

      // The company's verdict on a call (blocked, out of quota) comes with the welcome-form
      // lookup, so it is known before the form and the camera (issue 18).
      const [refusal, submitted] = await Promise.all([
        admissionRefusal(extra, login.access_token, companyId),
        company.welcomeForm
          ? // spec §5: the form is required when the lookup answers {} or fails.
            api(routes.latestWelcomeSubmission, {
              token: login.access_token,
              body: { companyId, guestUsername: login.username, serviceType },
            })
              .then(({ data }) => 'id' in data)
              .catch(() => false)
          : true,
      ]);
      if (refusal) return void dispatch(stageReached(refusal));
      if (!submitted) return void dispatch(stageReached('welcome'));
      dispatch(stageReached(stageAfterWelcome(company)));
    } catch (error) {
      dispatch(serviceFailed(failureOf(error)));
    }
  },
);
