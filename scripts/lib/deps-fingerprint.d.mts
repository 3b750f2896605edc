/** A hash of the files that decide what `npm install` puts in `root`/node_modules. */
export function dependencyFingerprint(root: string): string;
/** Whether `root`/node_modules was installed from the current package files. */
export function dependenciesUpToDate(root: string): boolean;
/** Records that `root`/node_modules matches the current package files. */
export function markDependenciesInstalled(root: string): void;
