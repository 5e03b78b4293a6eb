import { createContext, useContext } from 'react';
import { useStream as useRegistryStream } from '@frontdesk/media/streams';
import type { GuestServices } from './services.ts';

/** The services for components that show live objects (streams); null outside the app. */
export const ServicesContext = createContext<GuestServices | null>(null);

export function useServices(): GuestServices {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices outside <ServicesContext>');
  return services;
}

/** The stream under `key` (`LOCAL_STREAM` or a remote feed's Janus id), kept current. */
export function useStream(key: string | undefined): MediaStream | null {
  return useRegistryStream(useServices().connections.streams, key);
}
