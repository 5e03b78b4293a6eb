// What the operator's commands (infra/src/cli/create-company.ts, create-operator.ts,
// media-servers.ts) use of the API, through the package export `@frontdesk/api/operations`,
// without starting the server.
export { openDatabase } from './db/database.ts';
export { migrateToLatest } from './db/migrate.ts';
export {
  createCompanyWithAdmin,
  EmailTakenError,
  newCompanySchema,
  type CreatedCompany,
  type NewCompany,
} from './companies/company-creation.ts';
export {
  createOperator,
  newOperatorSchema,
  OperatorEmailTakenError,
  type NewOperator,
} from './staff/operators.ts';
export { listMediaServers, setMediaServerState } from './media-servers/media-server-pool.ts';
export { mediaServerNameSchema } from '@frontdesk/protocol';
export { provisionChatRooms, type ProvisionLog } from './xmpp/room-provisioning.ts';
