// Runs once when the web server boots. Production mode (ZAP_MODE=production)
// refuses to serve while a demo account with a published password is enabled,
// also when the server is started without `npm start` (which checks first).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // Production mode requires the encrypting payload codec (ZAP_ENCRYPTION_KEYS): refused before serving.
  const [{ parseEnv }, { payloadCodecStartRefusal }] = await Promise.all([import("./lib/config/env"), import("./lib/temporal/payload-codecs")]);
  const refusal = payloadCodecStartRefusal(parseEnv());
  if (refusal) {
    console.error(`✗ ${refusal}`);
    process.exit(1);
  }
  const { refuseProductionWithDemoAccounts } = await import("./lib/auth/server/boot-check");
  await refuseProductionWithDemoAccounts();
}
