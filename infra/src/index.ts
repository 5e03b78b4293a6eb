export { startStack, type RunningStack, type StackOptions } from './stack.ts';
export { freePort } from './process.ts';
