// The order npm test runs the e2e files in: shuffled, from a seed printed in
// the banner, so a spec that passes only after another (or breaks the ones
// after it) fails in some run and that run can be repeated (issue 38 §3).
// Playwright does the shuffling itself (`--shuffle [seed]`, CLI only, not in
// its config types): it deals the files to `--shard`s in alphabetical order
// first, then runs each shard's files in the seed's order (tests inside a
// file keep theirs), and its list reporter prints "shuffle seed N". The CLI
// order of file arguments is ignored (files always run alphabetically), so
// no list of ours could order them.
import { randomInt } from "node:crypto";
import { z } from "zod";

const seedSchema = z.string().regex(/^\d{1,9}$/, "E2E_SHUFFLE_SEED must be a whole number of at most 9 digits");

/** This run's seed: E2E_SHUFFLE_SEED to repeat an earlier run's order, else a new one. */
export function e2eShuffleSeed(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const given = env.E2E_SHUFFLE_SEED?.trim();
  return given ? seedSchema.parse(given) : String(randomInt(1, 1_000_000_000));
}

/** Playwright's arguments that run the files in the seed's order (the same seed gives the same order). */
export function shuffleArgs(seed: string): string[] {
  return [`--shuffle=${seedSchema.parse(seed)}`];
}
