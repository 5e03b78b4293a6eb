import { createContext, useContext } from 'react';
import { useStream as useRegistryStream } from '@frontdesk/media/streams';
import type { ConsoleServices } from './services.ts';

/** The services for components that show live objects (streams, devices); null outside the app. */
export const ServicesContext = createContext<ConsoleServices | null>(null);

export function useServices(): ConsoleServices {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices outside <ServicesContext>');
  return services;
}

/** A media stream of the call (`LOCAL_STREAM` or a feed's Janus id), kept current. */
export function useStream(key: string): MediaStream | null {
  return useRegistryStream(useServices().connections.streams, key);
}
