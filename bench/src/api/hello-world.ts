// The bare Fastify server the API's throughput is compared with: one route, no logging, run in
// a process of its own (like the API) so neither side shares an event loop with autocannon.
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ host: '127.0.0.1', port: 0 });
process.send?.({ port: (app.server.address() as AddressInfo).port });
// The parent ends the run by disconnecting the IPC channel.
process.on('disconnect', () => void app.close());
