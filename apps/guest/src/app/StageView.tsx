import { lazy, Suspense, type ReactNode } from 'react';
import { useAppDispatch, useAppSelector } from './hooks.ts';
import { useT } from '../i18n/useT.ts';
import { WelcomePage } from '../features/forms/WelcomePage.tsx';
import { voiceCallChosen } from '../features/browserCheck/browserCheckSlice.ts';
import { stageReached } from '../features/flow/flowSlice.ts';
import { continueVisit } from '../features/flow/startVisit.ts';
import { ConsentDeclinedPage, ConsentPage } from '../features/consent/ConsentPage.tsx';
import { NoticePage, type NoticeKind } from '../features/refusals/NoticePage.tsx';
import { loadSchedulePage, loadSelectionPage } from './stagePages.ts';
import './stages.css';

// The call screens load with the call code (issue 6: not before the guest starts a call).
const PreviewPage = lazy(() =>
  import('../features/preview/PreviewPage.tsx').then((m) => ({ default: m.PreviewPage })),
);
const WaitingPage = lazy(() =>
  import('../features/call/WaitingPage.tsx').then((m) => ({ default: m.WaitingPage })),
);
const CallPage = lazy(() =>
  import('../features/call/CallPage.tsx').then((m) => ({ default: m.CallPage })),
);
// Not the first screen of most visits: fetched ahead once the visit knows they come (stagePages.ts).
const SchedulePage = lazy(() => loadSchedulePage().then((m) => ({ default: m.SchedulePage })));
const SelectionPage = lazy(() => loadSelectionPage().then((m) => ({ default: m.SelectionPage })));
const RatingPage = lazy(() =>
  import('../features/rating/RatingPage.tsx').then((m) => ({ default: m.RatingPage })),
);

function Loading({ testId }: { testId: string }) {
  const t = useT();
  return (
    <div className="loading" role="status" data-testid={testId}>
      <span className="spinner" aria-hidden="true" />
      {t('loading')}
    </div>
  );
}

function Lazy({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Loading testId="stage-loading-code" />}>{children}</Suspense>;
}

/**
 * A stage where no call can start, with the flow's ways forward: ask for the camera again, or
 * go on in a voice call (to the preview when the company shows one, else to the selection).
 */
function Notice({ kind }: { kind: NoticeKind }) {
  const dispatch = useAppDispatch();
  const preview = useAppSelector((state) => state.company.details?.previewScreen === true);
  const cameraStage = preview ? 'preview' : 'selection';
  return (
    <NoticePage
      kind={kind}
      onRetryMedia={() => dispatch(stageReached(cameraStage))}
      onVoiceCall={() => {
        dispatch(voiceCallChosen());
        dispatch(stageReached(cameraStage));
      }}
    />
  );
}

/** The consent step and the page after a decline (decision 0030), with the flow's ways on. */
function Consent({ declined }: { declined: boolean }) {
  const dispatch = useAppDispatch();
  const company = useAppSelector((state) => state.company.details);
  if (!company) return null;
  return declined ? (
    <ConsentDeclinedPage company={company} onReconsider={() => dispatch(stageReached('consent'))} />
  ) : (
    <ConsentPage
      company={company}
      onAccept={() => dispatch(continueVisit({ consent: true }))}
      onDecline={() => dispatch(stageReached('consentDeclined'))}
    />
  );
}

/** The screen of the current stage (spec §2). */
export function StageView() {
  const stage = useAppSelector((state) => state.flow.stage);
  switch (stage) {
    case 'consent':
    case 'consentDeclined':
      return <Consent declined={stage === 'consentDeclined'} />;
    case 'preview':
      return (
        <Lazy>
          <PreviewPage />
        </Lazy>
      );
    case 'waiting':
      return (
        <Lazy>
          <WaitingPage />
        </Lazy>
      );
    case 'ongoing':
      return (
        <Lazy>
          <CallPage />
        </Lazy>
      );
    case 'rating':
      return (
        <Lazy>
          <RatingPage />
        </Lazy>
      );
    case 'welcome':
      return <WelcomePage />;
    case 'selection':
      return (
        <Lazy>
          <SelectionPage />
        </Lazy>
      );
    case 'schedule':
      return (
        <Lazy>
          <SchedulePage />
        </Lazy>
      );
    case 'inactive':
    case 'outOfQuota':
    case 'blocked':
    case 'bot':
    case 'unsupported':
    case 'outofzone':
    case 'abandoned':
    case 'failed':
    case 'elsewhere':
      return <Notice kind={stage} />;
    case 'loading':
      return <Loading testId="stage-loading" />;
  }
}
