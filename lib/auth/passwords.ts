import bcrypt from "bcryptjs";

const COST = 10;

/** Hashes a password with bcrypt (salted; cost 10 keeps sign-in under ~100 ms). */
export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, COST);
}

/** Constant-time comparison of a password with a stored bcrypt hash. */
export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(password, hash);
}
