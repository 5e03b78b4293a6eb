export { startStack, type RunningStack, type StackOptions } from './stack.ts';
export { startEjabberd, type RunningEjabberd } from './ejabberd.ts';
export { startJanus, type RunningJanus } from './janus.ts';
export { mintJanusToken } from './janus-token.ts';
export { freePort } from './process.ts';
