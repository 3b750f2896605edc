// Key material of test and bench stacks (what AUTH_SECRET is to `npm start`):
// the engine client signs approval decisions with it and every worker, in
// process or child process, checks them with it.
export const TEST_AUTH_SECRET = "integration-tests-only-secret-0123456789abcdef";
