import { useEffect, useRef, useState } from 'react';
import { Provider } from 'react-redux';
import { playStream } from '@frontdesk/media/devices';
import { LOCAL_STREAM } from '@frontdesk/media/streams';
import type { PreviewRequest, PreviewScreen } from '@frontdesk/protocol';
import { App } from '../app/App.tsx';
import { useAppSelector } from '../app/hooks.ts';
import type { GuestServices } from '../app/services.ts';
import { ServicesContext, useStream } from '../app/servicesContext.ts';
import { StageView } from '../app/StageView.tsx';
import { createStore, type AppStore } from '../app/store.ts';
import { CameraCheck } from '../features/preview/CameraCheck.tsx';
import { Thanks } from '../features/rating/RatingPage.tsx';
import { SchedulePage } from '../features/schedule/SchedulePage.tsx';
import { SelectionPage } from '../features/selection/SelectionPage.tsx';
import { announceReady, listenForPreviewRequests } from './messages.ts';
import { previewStore } from './previewStore.ts';

const ignore = () => undefined;

/**
 * The camera check as a guest sees it once the camera works, with no camera: the sample
 * picture, the names browsers give devices before access, a good connection.
 */
function SampleCameraCheck() {
  const voiceOnly = useAppSelector((state) => state.company.details?.callType === 'voice');
  const picture = useStream(LOCAL_STREAM);
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    if (video.current) void playStream(video.current, picture);
  }, [picture, voiceOnly]);
  return (
    <CameraCheck
      withVideo={!voiceOnly}
      video={video}
      level={0.4}
      devices={{
        cameras: [{ deviceId: 'sample-camera', label: '' }],
        microphones: [{ deviceId: 'sample-microphone', label: '' }],
        speakers: [],
      }}
      cameraId="sample-camera"
      microphoneId="sample-microphone"
      onChooseCamera={ignore}
      onChooseMicrophone={ignore}
      latency={40}
      ready
      onContinue={ignore}
    />
  );
}

/** The guest's own page of the stage, but for the screens that need live devices or a past step. */
function PreviewedPage({ screen }: { screen: PreviewScreen | undefined }) {
  const stage = useAppSelector((state) => state.flow.stage);
  if (stage === 'preview') return <SampleCameraCheck />;
  if (stage === 'rating' && screen === 'thanks') return <Thanks />;
  // The guest page loads these with their stage; the preview shows each draft at once.
  if (stage === 'selection') return <SelectionPage />;
  if (stage === 'schedule') return <SchedulePage />;
  return <StageView />;
}

type Shown = { store: AppStore; screen: PreviewScreen | undefined; key: number };

/**
 * The admin's live preview (issue 16): the guest app's own pages, wearing the draft company the
 * console sends, at the stage it names. Each draft gets a fresh store and a fresh tree, so every
 * screen shows as a guest arriving at it would see it. The page is inert: nothing in it can be
 * clicked or take the focus from the console's form.
 */
export function LivePreview({ services }: { services: GuestServices }) {
  const drafts = useRef(0);
  const [shown, setShown] = useState<Shown>(() => ({
    store: createStore(
      { companyId: 0, serviceType: 'Talk', webview: false, parentOrigin: null },
      services,
    ),
    screen: undefined,
    key: 0,
  }));

  useEffect(() => {
    const stop = listenForPreviewRequests(window, (request: PreviewRequest) => {
      // Before the render, as the guest page does, so the draft's look never lags its texts.
      services.applyBranding(request.company);
      drafts.current += 1;
      setShown({
        store: previewStore(request, services),
        screen: request.screen,
        key: drafts.current,
      });
    });
    announceReady(window);
    return stop;
  }, [services]);

  useEffect(() => {
    if (shown.key > 0) announceReady(window);
  }, [shown]);

  return (
    <Provider store={shown.store} key={shown.key}>
      <ServicesContext value={services}>
        <div inert data-testid="live-preview">
          <App page={<PreviewedPage screen={shown.screen} />} />
        </div>
      </ServicesContext>
    </Provider>
  );
}
