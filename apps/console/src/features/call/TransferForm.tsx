import { createSelector } from '@reduxjs/toolkit';
import { useState, type FormEvent } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import type { RootState } from '../../app/store.ts';
import { t } from '../../i18n/messages.ts';
import { availabilityOf } from '../availability/availabilitySlice.ts';
import { transferSubmitted } from './callSlice.ts';

/**
 * Agents who could take the guest: in the company room, not this one, and available by their
 * `show` (busy in a call of their own), with their names when the API gave them.
 */
const selectTransferAgents = createSelector(
  [
    (state: RootState) =>
      Object.values(state.queue.rooms).find((room) => room.kind === 'company')?.occupants,
    (state: RootState) => state.availability.colleagues,
  ],
  (occupants = [], colleagues) =>
    occupants
      .filter((occupant) => !occupant.self && availabilityOf(occupant.show) === 'available')
      .map(({ nick }) => ({
        nick,
        name: colleagues.find((c) => c.jabberUsername === nick)?.name ?? nick,
      })),
);

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
              <option key={agent.nick} value={`agent:${agent.nick}`}>
                {agent.name}
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
