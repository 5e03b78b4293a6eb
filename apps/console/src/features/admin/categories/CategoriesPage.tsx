import { useId, useRef, useState } from 'react';
import {
  type AdminCategory,
  adminRoutes,
  categoryCreateBodySchema,
  type StaffAdminEntry,
} from '@frontdesk/protocol';
import { useAppSelector } from '../../../app/hooks.ts';
import { t } from '../../../i18n/messages.ts';
import { EmptyState } from '../../../ui/ListState.tsx';
import { ConfirmDialog } from '../../../ui/Dialog.tsx';
import { AdminPage } from '../listPage/AdminPage.tsx';
import { fieldError, useAdminResource, type AdminRequest } from '../listPage/useAdminResource.ts';
import { CategoryDialog } from './CategoryDialog.tsx';

type Categories = { categories: AdminCategory[]; staff: StaffAdminEntry[] };

const loadCategories = async ({ api, params, token }: AdminRequest): Promise<Categories> => {
  const [categories, staff] = await Promise.all([
    api(adminRoutes.companyCategories, { params, token }),
    api(adminRoutes.companyStaff, { params, token }),
  ]);
  return { categories: categories.data, staff: staff.data };
};

/** The guest app's own button colours (apps/guest/src/app/global.css), where the company has none. */
const GUEST_BUTTON = { background: '#1f5fd6', text: '#ffffff' };

/** The ids in their new order after moving `id` by `step` (-1 up, +1 down). */
export function moved(ids: readonly number[], id: number, step: -1 | 1): number[] {
  const from = ids.indexOf(id);
  const to = from + step;
  if (from < 0 || to < 0 || to >= ids.length) return [...ids];
  const order = [...ids];
  order.splice(from, 1);
  order.splice(to, 0, id);
  return order;
}

/** `POST /company/:id/categories` with a name: the new category goes last. */
function AddCategory(props: {
  busy: boolean;
  onAdd: (name: string) => Promise<string | undefined>;
}) {
  const id = useId();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  return (
    <form
      className="admin-form card inline-form"
      aria-labelledby={`${id}-title`}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const parsed = categoryCreateBodySchema.shape.name.safeParse(name);
        if (!parsed.success) {
          setError(parsed.error.issues[0]?.message);
          return;
        }
        setError(undefined);
        void props.onAdd(parsed.data).then((refused) => {
          setError(refused);
          if (!refused) setName('');
        });
      }}
    >
      <h3 id={`${id}-title`}>{t('addCategory')}</h3>
      <div className="form-row">
        <div className="field">
          <label htmlFor={`${id}-name`}>{t('categoryName')}</label>
          <input
            id={`${id}-name`}
            type="text"
            value={name}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(event) => setName(event.target.value)}
          />
          {error && (
            <p id={`${id}-error`} className="field-error">
              {error}
            </p>
          )}
        </div>
        <button type="submit" disabled={props.busy}>
          {props.busy ? t('adding') : t('addCategory')}
        </button>
      </div>
    </form>
  );
}

type Asking = { kind: 'edit' | 'delete'; category: AdminCategory };

/**
 * The categories (`/console/admin/categories`), in the order guests see them: moved up or down
 * by buttons (the focus stays on the moved one), added, edited (name, colours, agents), deleted.
 */
export function CategoriesPage() {
  const resource = useAdminResource(loadCategories);
  const { write, busy } = resource;
  const company = useAppSelector((state) => state.auth.company);
  const [asking, setAsking] = useState<Asking | null>(null);
  const list = useRef<HTMLOListElement>(null);
  const buttonColours = {
    background: company?.categoryBackgroundColor ?? GUEST_BUTTON.background,
    text: company?.categoryTextColor ?? GUEST_BUTTON.text,
  };

  async function move(categories: readonly AdminCategory[], category: AdminCategory, step: -1 | 1) {
    const categoryIds = moved(
      categories.map((c) => c.id),
      category.id,
      step,
    );
    const result = await write(
      ({ api, params, token }, ifMatch) =>
        api(adminRoutes.reorderCategories, { params, body: { categoryIds }, token, ifMatch }),
      () =>
        t('movedOutcome', {
          name: category.name,
          position: String(categoryIds.indexOf(category.id) + 1),
          count: String(categoryIds.length),
        }),
    );
    if (!result.ok) return;
    // The same button of the moved category keeps the focus; at an end, the other one.
    const row = list.current?.querySelector(`[data-category="${category.id}"]`);
    const buttons = [...(row?.querySelectorAll<HTMLButtonElement>('.move button') ?? [])];
    const same = buttons[step === -1 ? 0 : 1];
    (same && !same.disabled ? same : buttons.find((button) => !button.disabled))?.focus();
  }

  async function add(name: string): Promise<string | undefined> {
    const result = await write(
      ({ api, params, token }, ifMatch) =>
        api(adminRoutes.createCategory, { params, body: { name }, token, ifMatch }),
      () => t('categoryAddedOutcome', { name }),
    );
    return result.ok ? undefined : fieldError(result, 'name');
  }

  async function remove(category: AdminCategory) {
    await write(
      ({ api, token, companyId }, ifMatch) =>
        api(adminRoutes.deleteCategory, {
          params: { id: String(companyId), categoryId: String(category.id) },
          token,
          ifMatch,
        }),
      () => t('categoryDeletedOutcome', { name: category.name }),
    );
    setAsking(null);
  }

  return (
    <AdminPage
      title={t('group_categories')}
      intro={<p>{t('categoriesIntro')}</p>}
      resource={resource}
      testId="categories-page"
    >
      {({ categories, staff }) => {
        const names = new Map(staff.map((member) => [member.id, member.name]));
        return (
          <>
            {categories.length === 0 && (
              <EmptyState title={t('noCategoriesYet')} hint={t('categoriesEmptyHint')} />
            )}
            <ol className="category-list" ref={list}>
              {categories.map((category, index) => (
                <li key={category.id} data-category={category.id} data-testid="category-row">
                  <span
                    className="category-sample"
                    style={{
                      color: category.textColor ?? buttonColours.text,
                      backgroundColor: category.backgroundColor ?? buttonColours.background,
                    }}
                  >
                    {category.name}
                  </span>
                  <span className="category-agents">
                    <span className="visually-hidden">{t('categoryAgents')}: </span>
                    {category.agentIds.length === 0
                      ? t('categoryAgentsAll')
                      : category.agentIds.map((id) => names.get(id) ?? String(id)).join(', ')}
                  </span>
                  <span className="move">
                    <button
                      type="button"
                      className="secondary icon"
                      aria-label={t('moveUp', { name: category.name })}
                      disabled={index === 0 || busy}
                      onClick={() => void move(categories, category, -1)}
                    >
                      <span aria-hidden="true">↑</span>
                    </button>
                    <button
                      type="button"
                      className="secondary icon"
                      aria-label={t('moveDown', { name: category.name })}
                      disabled={index === categories.length - 1 || busy}
                      onClick={() => void move(categories, category, 1)}
                    >
                      <span aria-hidden="true">↓</span>
                    </button>
                  </span>
                  <span className="row-actions">
                    <button
                      type="button"
                      className="secondary"
                      aria-label={t('editCategoryLabel', { name: category.name })}
                      onClick={() => setAsking({ kind: 'edit', category })}
                    >
                      {t('editMember')}
                    </button>
                    <button
                      type="button"
                      className="secondary danger-text"
                      aria-label={t('deleteCategoryLabel', { name: category.name })}
                      onClick={() => setAsking({ kind: 'delete', category })}
                    >
                      {t('deleteCategory')}
                    </button>
                  </span>
                </li>
              ))}
            </ol>
            <AddCategory busy={busy} onAdd={add} />
            {asking?.kind === 'edit' && (
              <CategoryDialog
                category={asking.category}
                staff={staff}
                buttonColours={buttonColours}
                busy={busy}
                onSave={(body) =>
                  write(
                    ({ api, token, companyId }, ifMatch) =>
                      api(adminRoutes.updateCategory, {
                        params: { id: String(companyId), categoryId: String(asking.category.id) },
                        body,
                        token,
                        ifMatch,
                      }),
                    ({ data }) => t('categorySavedOutcome', { name: data.name }),
                    'caller',
                  )
                }
                onReload={() => void resource.reload()}
                onClose={() => setAsking(null)}
              />
            )}
            {asking?.kind === 'delete' && (
              <ConfirmDialog
                title={t('deleteCategoryTitle', { name: asking.category.name })}
                description={<p>{t('deleteCategoryText')}</p>}
                confirmLabel={t('deleteCategory')}
                cancelLabel={t('cancel')}
                danger
                busy={busy}
                onConfirm={() => void remove(asking.category)}
                onCancel={() => setAsking(null)}
                testId="confirm-delete-category"
              />
            )}
          </>
        );
      }}
    </AdminPage>
  );
}
