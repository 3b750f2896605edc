// Reads a histogram from the worker's Prometheus text (worker/telemetry/sdk-metrics.ts):
// how many observations fell past a bound, and the bucket the slowest one fell in.
export interface HistogramReading {
  count: number;
  /** Observations above `bound` ms. */
  above: number;
  /** The smallest bucket bound that holds every observation ("+Inf" past the last). */
  slowestWithin: string;
}

export function readHistogram(text: string, name: string, bound: number): HistogramReading {
  // Cumulative buckets, summed over every label set (task queues, workflow types).
  const buckets = new Map<string, number>();
  const pattern = new RegExp(`^(?:temporal_)?${name}_bucket\\{([^}]*)\\}\\s+([0-9.e+]+)$`);
  for (const line of text.split("\n")) {
    const match = pattern.exec(line.trim());
    if (!match) continue;
    const le = /le="([^"]+)"/.exec(match[1] ?? "")?.[1];
    if (!le) continue;
    buckets.set(le, (buckets.get(le) ?? 0) + Number(match[2]));
  }
  const count = buckets.get("+Inf") ?? 0;
  const bounds = [...buckets.keys()].filter((le) => le !== "+Inf").map(Number).sort((a, b) => a - b);
  const within = bounds.filter((b) => b <= bound).at(-1);
  const above = count - (within !== undefined ? (buckets.get(String(within)) ?? 0) : 0);
  const slowest = bounds.find((b) => (buckets.get(String(b)) ?? 0) >= count);
  return { count, above, slowestWithin: slowest !== undefined ? `${slowest} ms` : "+Inf" };
}
