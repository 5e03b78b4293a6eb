import { ms } from './report.ts';

/** Nearest-rank percentile (`p` in 0–100) of `values`; NaN when there are none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] as number;
}

/** The spread of a set of samples, as every figure reports it. */
export type Summary = { n: number; p50: number; p95: number; p99: number; max: number };

export function summarize(values: readonly number[]): Summary {
  return {
    n: values.length,
    p50: percentile(values, 50),
    p95: percentile(values, 95),
    p99: percentile(values, 99),
    max: values.length === 0 ? Number.NaN : Math.max(...values),
  };
}

/** The least-squares line through `points` ([x, y] pairs, at least two distinct x). */
export function fitLine(points: readonly (readonly [number, number])[]): {
  intercept: number;
  slope: number;
} {
  const n = points.length;
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / n;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / n;
  let covariance = 0;
  let variance = 0;
  for (const [x, y] of points) {
    covariance += (x - meanX) * (y - meanY);
    variance += (x - meanX) ** 2;
  }
  const slope = covariance / variance;
  return { intercept: meanY - slope * meanX, slope };
}

/**
 * Run-to-run spread (issue 22): the samples, in the order they were taken, cut into `batches`
 * runs of equal length (the last takes the remainder), and the least and greatest of their p50s.
 * A p50 whose batches agree closely is stable; a wide spread says more samples are needed.
 */
export type Spread = Summary & { batches: number[] };

export function spread(values: readonly number[], batches: number): Spread {
  const size = Math.max(1, Math.floor(values.length / batches));
  const medians: number[] = [];
  for (let from = 0; from < values.length; from += size) {
    // The tail shorter than a batch joins the last one rather than being a batch of its own.
    const last = from + 2 * size > values.length;
    medians.push(percentile(values.slice(from, last ? values.length : from + size), 50));
    if (last) break;
  }
  return { ...summarize(values), batches: medians };
}

/** A figure as the table prints it: p50 with its batches' range, and p95. */
export function formatSpread(s: Spread): string {
  const low = Math.min(...s.batches);
  const high = Math.max(...s.batches);
  return `p50 ${ms(s.p50)} (runs ${Math.round(low)}–${ms(high)}), p95 ${ms(s.p95)}`;
}

/** The floor column: the floor's p50 and how many times it the figure's p50 is. */
export function againstFloor(measured: Summary, floor: Summary): string {
  return `p50 ${ms(floor.p50)} (×${(measured.p50 / floor.p50).toFixed(2)})`;
}
