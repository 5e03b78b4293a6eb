import type { ColumnType } from 'kysely';

// What PostgreSQL cannot tell the type generator about a column: how the API writes it. The
// overrides of codegen.ts name these; nullability and defaults still come from the database.

/** The database's own `now()` at insert: no statement of the API may set it. */
export type CreatedAt = ColumnType<Date, never, never>;

/** Stamped by a later update, never at insert (the row starts with `null`). */
export type StampedLater = ColumnType<Date, never, Date>;

/** The kinds of company form, as the `forms.kind` check constraint allows them. */
export type FormKind = 'welcome' | 'rating';
