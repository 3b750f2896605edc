// Reads every page of an experiment's results (the server page and the polling
// client share it), up to a cap the view can render; past the cap the page says
// so and the CSV export has everything.
import { MAX_RESULTS_PAGE_SIZE, type ExperimentDetail } from "@/lib/experiments/schemas";

/** Results the compare view holds at most (10,000 items × 2 targets). */
export const VIEW_RESULTS_CAP = 20_000;

export interface LoadedExperiment {
  experiment: ExperimentDetail["experiment"];
  results: ExperimentDetail["results"];
  /** True when results past VIEW_RESULTS_CAP were not loaded. */
  truncated: boolean;
}

export async function readAllResults(readPage: (cursor: number | undefined, limit: number) => Promise<ExperimentDetail>): Promise<LoadedExperiment> {
  let page = await readPage(undefined, MAX_RESULTS_PAGE_SIZE);
  const experiment = page.experiment;
  const results = [...page.results];
  while (page.nextCursor !== null && results.length < VIEW_RESULTS_CAP) {
    page = await readPage(page.nextCursor, MAX_RESULTS_PAGE_SIZE);
    results.push(...page.results);
  }
  return { experiment, results: results.slice(0, VIEW_RESULTS_CAP), truncated: page.nextCursor !== null || results.length > VIEW_RESULTS_CAP };
}
