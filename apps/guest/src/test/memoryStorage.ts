// The apps' one memory Storage for tests lives with the protocol's test kit.
export { memoryStorage } from '@frontdesk/protocol/testing';
