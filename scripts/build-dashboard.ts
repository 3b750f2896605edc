// Brings `.next` up to date (scripts/lib/next-build.ts) and says whether it
// built: `npm test` runs it beside the integration suite, so e2e's `npm start`
// finds the build current.
import { buildIfStale } from "./lib/next-build";

console.log(`dashboard build: ${await buildIfStale()}`);
