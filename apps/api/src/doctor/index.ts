// The self-test's checks that run wherever the API's code is (`@frontdesk/api/doctor`): the API
// answers `GET /api/admin/doctor` with them, and `npm run doctor` (infra/src/doctor/) adds what
// only the machine's operator can look at.
export * from './check.ts';
export * from './host.ts';
export * from './public-url.ts';
export * from './api-checks.ts';
export { callIceServers } from '../calls/ice-servers.ts';
