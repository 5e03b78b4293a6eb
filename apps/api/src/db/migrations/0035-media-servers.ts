import { sql, type Kysely } from 'kysely';

/**
 * Issue 21, the Janus pool (decision 0039). The API's Janus servers, one row each, written by
 * every API process from its JANUS_SERVERS at start; their health, stamped by the processes'
 * checks; whether one is drained. And each call's placement: the server its room is on.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table media_servers (
    id integer generated always as identity primary key,
    name text not null unique,
    http_url text not null,
    websocket_url text not null,
    capacity integer not null check (capacity > 0),
    state text not null default 'active' check (state in ('active', 'draining')),
    last_healthy_at timestamptz,
    last_checked_at timestamptz,
    last_error text
  )`.execute(db);
  for (const [column, comment] of [
    [
      'name',
      'The server’s short name, as JANUS_SERVERS gives it; browsers name it in `/janus-ws?server=`.',
    ],
    ['http_url', 'Janus’s HTTP API, where the API creates and destroys rooms and checks health.'],
    ['websocket_url', 'Janus’s WebSocket, where the API’s `/janus-ws` gate bridges browsers.'],
    ['capacity', 'How many live calls it takes: placement compares its live calls with it.'],
    ['state', '`active`, or `draining`: no new call is placed on it, its live calls go on.'],
    [
      'last_healthy_at',
      'The last time an API process found it answering (database clock); `null` never.',
    ],
    ['last_checked_at', 'The last time an API process asked it how it is.'],
    ['last_error', 'What the last check that failed said; `null` once a check succeeds.'],
  ] as const) {
    await sql`comment on column ${sql.ref(`media_servers.${column}`)} is ${sql.lit(comment)}`.execute(
      db,
    );
  }
  await sql`comment on table media_servers is ${sql.lit(
    'The Janus servers calls are placed on (decision 0039). Rows stay when a server leaves the configuration: past calls name it.',
  )}`.execute(db);
  await db.schema
    .alterTable('call_reports')
    .addColumn('media_server_id', 'integer', (col) => col.references('media_servers.id'))
    .execute();
  await sql`comment on column call_reports.media_server_id is ${sql.lit(
    'The Janus server the call’s room was placed on when it was first opened, or re-placed on when that server was lost; `null` before.',
  )}`.execute(db);
  // Placement counts each server's live calls.
  await sql`create index call_reports_live_media_server on call_reports (media_server_id) where ended_at is null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('call_reports').dropColumn('media_server_id').execute();
  await db.schema.dropTable('media_servers').execute();
}
