import type { ReactNode } from 'react';
import { Shell } from '../features/company/Shell.tsx';
import { StageView } from './StageView.tsx';
import { useAppSelector } from './hooks.ts';

/**
 * The guest widget: the branded frame around the current stage. The admin's live preview hands
 * in its own `page` where the stage's screen needs live devices (livePreview/PreviewPage.tsx).
 */
export function App({ page = <StageView /> }: { page?: ReactNode }) {
  const stage = useAppSelector((state) => state.flow.stage);
  return (
    <div data-testid="guest-page" data-stage={stage}>
      <Shell>{page}</Shell>
    </div>
  );
}
