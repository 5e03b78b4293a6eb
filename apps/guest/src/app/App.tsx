import type { ReactNode } from 'react';
import { Shell } from '../features/company/Shell.tsx';
import { ErrorBoundary } from './ErrorBoundary.tsx';
import { StageView } from './StageView.tsx';
import { useAppSelector } from './hooks.ts';

/**
 * The guest widget: the branded frame around the current stage. The admin's live preview hands
 * in its own `page` where the stage's screen needs live devices (livePreview/PreviewPage.tsx).
 * A stage that crashes is replaced by the crash page inside the frame; a frame that crashes, by
 * the crash page alone (issue 18: never a white page).
 */
export function App({ page = <StageView /> }: { page?: ReactNode }) {
  const stage = useAppSelector((state) => state.flow.stage);
  return (
    <div data-testid="guest-page" data-stage={stage}>
      <ErrorBoundary>
        <Shell>
          <ErrorBoundary>{page}</ErrorBoundary>
        </Shell>
      </ErrorBoundary>
    </div>
  );
}
