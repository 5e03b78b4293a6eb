import { Shell } from '../features/company/Shell.tsx';
import { StageView } from './StageView.tsx';
import { useAppSelector } from './hooks.ts';

/** The guest widget: the branded frame around the current stage. */
export function App() {
  const stage = useAppSelector((state) => state.flow.stage);
  return (
    <div data-testid="guest-page" data-stage={stage}>
      <Shell>
        <StageView />
      </Shell>
    </div>
  );
}
