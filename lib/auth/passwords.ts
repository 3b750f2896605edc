import { hash, verify } from "@node-rs/argon2";
import bcrypt from "bcryptjs";

// OWASP's argon2id baseline (Password Storage Cheat Sheet): 19 MiB, 2 passes, 1
// lane. Memory-hard, so a flood of guesses costs the attacker memory as well as
// CPU; the sign-in throttle (lib/auth/server/throttle.ts) runs before any hash.
const ARGON2ID = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Whether a stored hash is a legacy bcrypt one (seeded or created before argon2id). */
function isBcrypt(stored: string): boolean {
  return /^\$2[aby]\$/.test(stored);
}

/** Hashes a password with argon2id (salted, OWASP parameters). */
export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2ID);
}

// Decoys: real hashes of random strings nobody knows, at the parameters real
// hashes have (argon2id at ARGON2ID; bcrypt at cost 10, the cost legacy hashes
// were made with). A bcrypt compare costs several argon2id verifies, so
// checking only the stored hash's algorithm would tell an unknown email (or
// one without a password) from an account that still has a legacy hash.
const DECOY_ARGON2ID = "$argon2id$v=19$m=19456,t=2,p=1$jUeTOxhbP55Bqp142BCybQ$GHaFuuegCRwQmp1Bw/m/NH0qmA3IS60HSWAGtCb2iXk";
const DECOY_BCRYPT = "$2b$10$2HQHvNDXtdpeppqz.O4WSO9vhmS54f/Ln/mOYYpZKy55ymU0W7/le";

/**
 * Constant-time check of a password against a stored argon2id or legacy
 * bcrypt hash; a missing or malformed hash never matches. Every check does the
 * same work whatever is stored (none, argon2id or bcrypt): one argon2id verify
 * and one bcrypt compare, each against the stored hash if it is of that kind
 * and a decoy otherwise, so the time taken does not say which emails exist.
 */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const kind = !stored ? "none" : isBcrypt(stored) ? "bcrypt" : stored.startsWith("$argon2") ? "argon2" : "none";
  const [argon2Matched, bcryptMatched] = await Promise.all([
    verify(kind === "argon2" && stored ? stored : DECOY_ARGON2ID, password).catch(() => false),
    bcrypt.compare(password, kind === "bcrypt" && stored ? stored : DECOY_BCRYPT).catch(() => false),
  ]);
  // A decoy's answer is never taken.
  return kind === "argon2" ? argon2Matched : kind === "bcrypt" ? bcryptMatched : false;
}

/** Whether a hash that just verified should be replaced by a fresh argon2id one (legacy bcrypt, or weaker argon2 parameters). */
export function needsRehash(stored: string): boolean {
  if (isBcrypt(stored)) return true;
  const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(stored);
  if (!match) return true;
  return Number(match[1]) < ARGON2ID.memoryCost || Number(match[2]) < ARGON2ID.timeCost;
}

/**
 * Password rules for passwords people choose (OWASP ASVS 2.1: length, not
 * composition): 12 to 200 characters, and not the account's own email.
 * Returns the problem as one sentence, or null.
 */
export function passwordProblem(password: string, email: string): string | null {
  if (password.length < 12) return "The new password must be at least 12 characters long";
  if (password.length > 200) return "The new password must be at most 200 characters long";
  if (password.trim().toLowerCase() === email.trim().toLowerCase()) return "The new password must not be your email address";
  return null;
}

/** A random one-time password (about 120 bits), readable when dictated: groups of lowercase letters and digits. */
export function oneTimePassword(): string {
  const alphabet = "abcdefghijkmnpqrstuvwxyz23456789";
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  const chars = Array.from(bytes, (b) => alphabet[b % alphabet.length]).join("");
  return chars.match(/.{6}/g)?.join("-") ?? chars;
}
