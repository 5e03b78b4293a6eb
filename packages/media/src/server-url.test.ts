import { describe, expect, it } from 'vitest';
import { onServer } from './server-url.ts';

describe('onServer', () => {
  it('names the room’s server on the gate’s WebSocket, replacing an earlier one', () => {
    expect(onServer('wss://frontdesk.example/janus-ws', 'janus2')).toBe(
      'wss://frontdesk.example/janus-ws?server=janus2',
    );
    expect(onServer('ws://127.0.0.1:8080/janus-ws?server=janus1', 'janus2')).toBe(
      'ws://127.0.0.1:8080/janus-ws?server=janus2',
    );
  });

  it('leaves an HTTP address alone: janus.js appends the session to its path', () => {
    expect(onServer('https://frontdesk.example/janus', 'janus2')).toBe(
      'https://frontdesk.example/janus',
    );
  });
});
