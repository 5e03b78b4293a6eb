import { useState, type FormEvent } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import type { RootState } from '../../app/store.ts';
import { t } from '../../i18n/messages.ts';
import { transferSubmitted } from './callSlice.ts';

/**
 * Agents who could take the guest: in the company room, not this one, and not in a call of
 * their own (a call presence in any category room).
 */
function selectTransferAgents(state: RootState): string[] {
  const rooms = Object.values(state.queue.rooms);
  const company = rooms.find((room) => room.kind === 'company');
  const busy = new Set(
    rooms
      .filter((room) => room.kind === 'category')
      .flatMap((room) => room.occupants)
      .filter((occupant) => occupant.status?.callId !== undefined)
      .map((occupant) => occupant.nick),
  );
  return (company?.occupants ?? [])
    .filter((occupant) => !occupant.self && !busy.has(occupant.nick))
    .map((occupant) => occupant.nick);
}

/** Transfer to another agent or to another category (docs/protocol.md step 7). */
export function TransferForm({ onCancel }: { onCancel: () => void }) {
  const dispatch = useAppDispatch();
  const agents = useAppSelector(selectTransferAgents);
  const categories = useAppSelector((state) => state.auth.company?.categories ?? []);
  const current = useAppSelector((state) => state.call.call?.categoryId ?? null);
  const pending = useAppSelector((state) => state.call.pending === 'transfer');
  const others = categories.filter((category) => category.id !== current);
  const [target, setTarget] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const [kind, value] = target.split(':');
    if (!value) return;
    dispatch(
      transferSubmitted(
        kind === 'agent' ? { toAgentJabberUsername: value } : { toCategoryId: Number(value) },
      ),
    );
  };

  return (
    <form className="transfer card" aria-labelledby="transfer-title" onSubmit={submit}>
      <h3 id="transfer-title">{t('transferTitle')}</h3>
      <label>
        {t('transferTitle')}
        <select value={target} onChange={(event) => setTarget(event.target.value)} required>
          <option value="" />
          <optgroup label={t('transferToAgent')}>
            {agents.map((agent) => (
              <option key={agent} value={`agent:${agent}`}>
                {agent}
              </option>
            ))}
          </optgroup>
          <optgroup label={t('transferToCategory')}>
            {others.map((category) => (
              <option key={category.id} value={`category:${category.id}`}>
                {category.name}
              </option>
            ))}
          </optgroup>
        </select>
      </label>
      {agents.length === 0 && <p>{t('transferNobody')}</p>}
      <div className="actions">
        <button type="submit" disabled={pending || !target}>
          {pending ? t('transferring') : t('transferSubmit')}
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          {t('cancel')}
        </button>
      </div>
    </form>
  );
}
