export * from './constants.ts';
export * from './config.ts';
export * from './envelope.ts';
export * from './client.ts';
