import path from "node:path";
import { config } from "dotenv";
import { PROJECT_ROOT } from "./run";

/** Loads `.env` from the project root (real environment variables win). */
export function loadDotenv(): void {
  config({ path: path.join(PROJECT_ROOT, ".env"), quiet: true });
}
