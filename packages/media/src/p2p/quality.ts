import { QualitySampler, statsOf, type SampledMedia } from '../quality-sampler.ts';
import type { CallMarks } from '../quality-report.ts';
import type { MediaState } from '../types.ts';
import type { PeerLink } from './link.ts';

/**
 * The sampler of a p2p call: its one PeerConnection is read once and counted as both the
 * sending and the receiving side; each new link is a new connection for the call's totals.
 */
export function p2pSampler(
  intervalMs: number,
  marks: CallMarks,
  link: () => PeerLink | null,
  quality: (quality: MediaState['quality']) => void,
  setStalled: (stalled: Set<string>) => void,
): QualitySampler {
  const media: SampledMedia = {
    marks,
    intervalMs,
    async read() {
      const current = link();
      const report = await statsOf(current?.pc);
      return { key: report ? current : null, reports: { publish: report, subscribe: report } };
    },
    readReceived: () => statsOf(link()?.pc),
    quality,
    setStalled,
  };
  return new QualitySampler(media);
}
