// Seeded randomness for the replay soak (worker/engine-tests/replay-soak.int.test.ts):
// every choice the soak makes — which run is cancelled and when, which approval
// is rejected, which read a client sends next — comes from one seed, printed at
// the start, so a red soak can be driven again the same way (ZAP_SOAK_SEED).
// The machine's timing still varies; the seed fixes what is asked, not when
// the worker gets to it.

/** The variable that sets the soak's seed (a whole number); unset, the soak picks one and prints it. */
export const SOAK_SEED_ENV = "ZAP_SOAK_SEED";

export interface Rng {
  /** A number in [0, 1). */
  next(): number;
  /** A whole number in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(probability: number): boolean;
  /** A child generator of its own, so adding choices to one run does not shift another's. */
  fork(salt: number): Rng;
}

/** The seed from ZAP_SOAK_SEED, or a new one; refuses a value that is not a whole number (a typo must not soak on another seed). */
export function soakSeed(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[SOAK_SEED_ENV]?.trim();
  if (!raw) return Math.floor(Math.random() * 2 ** 31);
  if (!/^\d+$/.test(raw)) throw new Error(`${SOAK_SEED_ENV} must be a whole number, got "${raw}"`);
  return Number(raw) % 2 ** 32;
}

/** mulberry32: small, fast and good enough to spread choices; the same seed gives the same sequence on every platform. */
export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick<T>(items: readonly T[]): T {
      if (items.length === 0) throw new Error("pick from an empty list");
      return items[Math.floor(next() * items.length)] as T;
    },
    chance: (probability) => next() < probability,
    fork: (salt) => createRng((Math.imul(seed ^ 0x9e3779b9, 31) + Math.imul(salt, 0x85ebca6b)) >>> 0),
  };
}
