import { LOCAL_STREAM } from '@frontdesk/media/streams';
import type { GuestServices } from '../app/services.ts';
import { Connections } from '../features/call/connections.ts';
import { applyBranding } from '../features/company/branding.ts';
import { SAMPLE_AGENT_FEED } from './previewStore.ts';
import { samplePicture } from './samplePicture.ts';

/**
 * The live preview's services: nothing that reaches the outside works. The preview shows a
 * draft and never signs a guest in, asks for a camera or a location, or calls the API; each of
 * these services only records that it was reached (the tests check that none is) and fails.
 * Branding is the one real service: it only styles this page. The call's streams are still
 * pictures painted here, for the guest's own tile and the agent's.
 */
export function previewServices(): { services: GuestServices; reached: string[] } {
  const reached: string[] = [];
  const refuse = (name: string) => (): never => {
    reached.push(name);
    throw new Error(`the live preview reached ${name}`);
  };
  const refuseAsync = (name: string) => async (): Promise<never> => refuse(name)();
  const connections = new Connections();
  connections.streams.set(
    LOCAL_STREAM,
    samplePicture({ background: '#dfe5ec', person: '#a9b5c3' }),
  );
  connections.streams.set(
    SAMPLE_AGENT_FEED,
    samplePicture({ background: '#c3ccd7', person: '#7d8a9b' }),
  );
  return {
    reached,
    services: {
      api: refuseAsync('api'),
      computeFingerprint: refuseAsync('computeFingerprint'),
      detectBot: refuseAsync('detectBot'),
      browserSupportsCalls: refuse('browserSupportsCalls'),
      isOnline: refuse('isOnline'),
      readLocation: refuseAsync('readLocation'),
      applyBranding,
      storage: undefined,
      clientConfig: refuseAsync('clientConfig'),
      loadCallAdapters: refuseAsync('loadCallAdapters'),
      connections,
    },
  };
}
