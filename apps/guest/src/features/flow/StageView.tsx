import { useAppSelector } from '../../app/hooks.ts';
import { useT } from '../../i18n/useT.ts';
import { WelcomePage } from '../forms/WelcomePage.tsx';
import { NoticePage } from '../refusals/NoticePage.tsx';
import { SchedulePage } from '../schedule/SchedulePage.tsx';
import { SelectionPage } from '../selection/SelectionPage.tsx';

/** The screen of the current stage (spec §2). */
export function StageView() {
  const stage = useAppSelector((state) => state.flow.stage);
  const t = useT();
  switch (stage) {
    case 'welcome':
      return <WelcomePage />;
    case 'selection':
      return <SelectionPage />;
    case 'schedule':
      return <SchedulePage />;
    case 'inactive':
    case 'outOfQuota':
    case 'blocked':
    case 'bot':
    case 'unsupported':
    case 'outofzone':
    case 'abandoned':
    case 'failed':
      return <NoticePage kind={stage} />;
    default:
      return (
        <div className="loading" role="status" data-testid={`stage-${stage}`}>
          <span className="spinner" aria-hidden="true" />
          {t('loading')}
        </div>
      );
  }
}
