import type { ColumnType, Generated, Selectable } from 'kysely';

/** The database's tables as Kysely sees them; migrations under ./migrations create them. */
export interface Database {
  companies: CompaniesTable;
}

export interface CompaniesTable {
  id: Generated<number>;
  name: string;
  activated: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: ColumnType<Date, never, never>;
}
export type CompanyRow = Selectable<CompaniesTable>;
