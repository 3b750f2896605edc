// The one place the environment is read. Every process (web server, worker,
// scripts) parses it with zod at boot; a bad value names its variable.
import path from "node:path";
import { z } from "zod";
import { ROLES } from "../access/roles";
import { absoluteSqliteUrl, providerOf } from "./database";
import { parsePriceTable, type PriceTable } from "./price-table";
import { parseStdioAllowlist, type StdioAllowEntry } from "./mcp-allowlist";
import { parseEncryptionKeys, type EncryptionKey } from "./encryption-keys";

type RawEnv = Record<string, string | undefined>;

const hostPort = /^[A-Za-z0-9.\-_[\]:]+:\d{1,5}$/;
const booleanText = z
  .enum(["true", "false", "1", "0", "yes", "no"], { error: "expected true or false" })
  .transform((v) => v === "true" || v === "1" || v === "yes");
const port = z.coerce
  .number({ error: "expected a port number" })
  .int("expected a whole number")
  .min(1, "expected a port between 1 and 65535")
  .max(65535, "expected a port between 1 and 65535");
const secret = (min: number) => z.string().min(min, `must be at least ${min} characters`);
const httpUrl = z.url({ protocol: /^https?$/, error: "expected an http(s) URL" });

/** Variables whose values must never be echoed back in an error message. */
const SECRET_VARIABLES = new Set([
  "AUTH_SECRET",
  "TEMPORAL_API_KEY",
  "AUTH_GITHUB_SECRET",
  "AUTH_GOOGLE_SECRET",
  "OPENAI_API_KEY",
  "ANTHROPIC_API_KEY",
  "OPENAI_COMPATIBLE_API_KEY",
  "ZAP_WEBHOOK_SECRET",
  "ZAP_ENCRYPTION_KEY",
  "ZAP_PAYLOAD_KEY",
  "ZAP_ENCRYPTION_KEYS",
  "ZAP_SMTP_URL",
  "ZAP_SLACK_SIGNING_SECRET",
  "ZAP_SLACK_BOT_TOKEN",
]);

/** Slack's Web API, when neither ZAP_SLACK_API_URL nor the admin's setting names another base URL. */
export const DEFAULT_SLACK_API_URL = "https://slack.com/api";

/** The approval channels' variables as set in the environment (null: unset); see AppConfig.approvalChannels.fromEnv. */
export interface ApprovalChannelEnv {
  smtpUrl: string | null;
  smtpFrom: string | null;
  emailTo: string[] | null;
  slackSigningSecret: string | null;
  slackBotToken: string | null;
  slackChannel: string | null;
  slackApiUrl: string | null;
}

const commaList = z.string().transform((v) => v.split(",").map((x) => x.trim()).filter(Boolean));

const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    ZAP_DATA_DIR: z.string().optional(),
    DATABASE_URL: z
      .string()
      .refine((v) => /^file:/.test(v) || /^postgres(ql)?:\/\/.+/.test(v), {
        message: "expected a file: URL (SQLite) or a postgres:// / postgresql:// URL (PostgreSQL)",
      })
      .optional(),
    TEMPORAL_ADDRESS: z.string().regex(hostPort, "expected host:port, e.g. 127.0.0.1:7233").default("127.0.0.1:7233"),
    TEMPORAL_NAMESPACE: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,254}$/, "expected a namespace name (letters, digits, . _ -)")
      .default("default"),
    TEMPORAL_TASK_QUEUE: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,200}$/, "expected a task queue name (letters, digits, . _ -)")
      .default("zap-agents"),
    TEMPORAL_UI_PORT: port.default(8233),
    TEMPORAL_UI_URL: httpUrl.optional(),
    TEMPORAL_TLS: booleanText.optional(),
    TEMPORAL_TLS_CERT: z.string().optional(),
    TEMPORAL_TLS_KEY: z.string().optional(),
    TEMPORAL_TLS_CA: z.string().optional(),
    TEMPORAL_TLS_SERVER_NAME: z.string().optional(),
    TEMPORAL_API_KEY: secret(8).optional(),
    AUTH_SECRET: secret(32).optional(),
    AUTH_URL: httpUrl.optional(),
    AUTH_GITHUB_ID: z.string().optional(),
    AUTH_GITHUB_SECRET: z.string().optional(),
    AUTH_GOOGLE_ID: z.string().optional(),
    AUTH_GOOGLE_SECRET: z.string().optional(),
    AUTH_OAUTH_DEFAULT_ROLE: z.enum(ROLES, { error: `expected one of ${ROLES.join(", ")}` }).default("viewer"),
    PORT: port.default(3000),
    HOST: z.string().min(1).default("127.0.0.1"),
    ZAP_SEED_DEMO: booleanText.default(true),
    ZAP_DEFAULT_MODEL: z
      .string()
      .regex(/^(demo|openai|anthropic|openai-compatible)\/[A-Za-z0-9._:/-]+$/, "expected <provider>/<model>, e.g. demo/assistant")
      .default("demo/assistant"),
    OPENAI_API_KEY: z.string().optional(),
    OPENAI_BASE_URL: httpUrl.optional(),
    ANTHROPIC_API_KEY: z.string().optional(),
    ANTHROPIC_BASE_URL: httpUrl.optional(),
    OPENAI_COMPATIBLE_NAME: z
      .string()
      .regex(/^[a-z0-9-]+$/, "expected a short provider name (lowercase letters, digits, -)")
      .default("local"),
    OPENAI_COMPATIBLE_BASE_URL: httpUrl.optional(),
    OPENAI_COMPATIBLE_API_KEY: z.string().optional(),
    /** The server accepts a json_schema response format (llama.cpp, vLLM and Ollama do); off, agents' output schemas are still enforced by the engine. */
    OPENAI_COMPATIBLE_STRUCTURED_OUTPUTS: booleanText.default(false),
    // Small local models often write a tool call as bare JSON text; on, a reply that is exactly one call of an offered tool runs as that call.
    OPENAI_COMPATIBLE_TOOL_CALLS_IN_TEXT: booleanText.default(false),
    // The server's models that read images (comma-separated names, or * for all); none by default, so a task with images is refused before it starts.
    OPENAI_COMPATIBLE_VISION_MODELS: z
      .string()
      .regex(/^\s*(\*|[A-Za-z0-9._:/-]+(\s*,\s*[A-Za-z0-9._:/-]+)*)\s*$/, "expected * or comma-separated model names, e.g. llava,qwen2.5-vl")
      .transform((v): string[] | "*" => (v.trim() === "*" ? "*" : v.split(",").map((x) => x.trim()).filter(Boolean)))
      .optional(),
    ZAP_HTTP_ALLOWLIST: z
      .string()
      .regex(/^[A-Za-z0-9.:\-]+(,[A-Za-z0-9.:\-]+)*$/, "expected comma-separated host names, e.g. api.example.com,127.0.0.1:8080")
      .optional(),
    // Prices per million tokens, e.g. "openai/gpt-4o=2.5/10,anthropic/claude-sonnet-4=3/15", over the shipped defaults; admins price from /admin/prices (docs/pricing.md).
    ZAP_MODEL_PRICES: z
      .string()
      .default("")
      .transform((text, ctx) => {
        const parsed = parsePriceTable(text);
        if (parsed.ok) return parsed.table;
        ctx.addIssue({ code: "custom", message: `"${parsed.entry}" is not model=input/output (dollars per million tokens), e.g. openai/gpt-4o=2.5/10` });
        return z.NEVER;
      }),
    // demo: seeded demo accounts, said so on the sign-in page; production: refuses to start while a demo account exists.
    ZAP_MODE: z.enum(["demo", "production"], { error: "expected demo or production" }).default("demo"),
    // Key material for sealed secrets (MCP env values, headers) and signed approval decisions; default: derived from AUTH_SECRET.
    ZAP_ENCRYPTION_KEY: secret(32).optional(),
    // When set, every Temporal payload is encrypted with AES-256-GCM under a key derived from this value.
    ZAP_PAYLOAD_KEY: secret(32).optional(),
    // Named keys that rotate, for sealed MCP secrets and the payload codec: "id:base64key,..." (32 random bytes each);
    // new ciphertext uses the first, any of them opens (ciphertext names its key). Setting it turns the payload codec on.
    ZAP_ENCRYPTION_KEYS: z
      .string()
      .max(10_000)
      .transform((text, ctx) => {
        const parsed = parseEncryptionKeys(text);
        if (parsed.ok) return parsed.keys;
        ctx.addIssue({ code: "custom", message: parsed.message });
        return z.NEVER;
      })
      .optional(),
    // stdio MCP commands an admin may register, with the environment variables each may receive: a JSON list of
    // {"command","args","env"}, or (older form) command lines separated by ";" with none. Default: the bundled demo server only.
    ZAP_MCP_STDIO_ALLOWLIST: z
      .string()
      .max(10_000)
      .transform((text, ctx) => {
        const parsed = parseStdioAllowlist(text);
        if (parsed.ok) return parsed.entries;
        ctx.addIssue({ code: "custom", message: parsed.message });
        return z.NEVER;
      })
      .optional(),
    // Hosts (name or name:port) that outbound requests made for users may reach even though they resolve to a private address.
    ZAP_EGRESS_ALLOW_HOSTS: commaList.optional(),
    // OAuth sign-in is open only to these email domains (and to emails an admin invited).
    AUTH_OAUTH_ALLOWED_DOMAINS: commaList.optional(),
    // Behind a reverse proxy that appends the client address to X-Forwarded-For: sign-in throttling keys on that address.
    ZAP_TRUST_PROXY: booleanText.default(false),
    ZAP_WEBHOOK_URL: httpUrl.optional(),
    ZAP_WEBHOOK_SECRET: secret(16).optional(),
    // Approval emails (docs/approvals-channels.md): smtp(s)://user:password@host:port, the sender, and fixed recipients (default: every user with the approval's role).
    ZAP_SMTP_URL: z.url({ protocol: /^smtps?$/, error: "expected an smtp:// or smtps:// URL" }).optional(),
    ZAP_SMTP_FROM: z.email({ error: "expected an email address" }).optional(),
    ZAP_APPROVAL_EMAIL_TO: commaList.pipe(z.array(z.email({ error: "expected comma-separated email addresses" }))).optional(),
    // Approvals in Slack (docs/approvals-channels.md): the Slack app's signing secret and bot token, the channel, and the Web API's base URL.
    ZAP_SLACK_SIGNING_SECRET: secret(16).optional(),
    ZAP_SLACK_BOT_TOKEN: secret(8).optional(),
    ZAP_SLACK_CHANNEL: z.string().regex(/^[#A-Za-z0-9_.-]{1,80}$/, "expected a Slack channel id or name").optional(),
    // Unset: the admin's setting on /admin/approval-channels, else https://slack.com/api.
    ZAP_SLACK_API_URL: httpUrl.optional(),
    ZAP_DEMO_LATENCY_MS: z.coerce.number({ error: "expected milliseconds" }).int().min(0).max(60_000).default(0),
    // How often the worker's Temporal Schedule evaluates monitors (docs/observe.md#monitors-and-alerts); tests shorten it.
    ZAP_MONITOR_INTERVAL_SECONDS: z.coerce.number({ error: "expected seconds" }).int().min(1).max(3_600).default(60),
    // Temporal Cloud refuses payloads over 2 MB; larger ones go to the database by reference.
    ZAP_PAYLOAD_OFFLOAD_BYTES: z.coerce
      .number({ error: "expected a size in bytes" })
      .int("expected a whole number of bytes")
      .min(1024, "expected at least 1024 bytes (a reference must fit under it)")
      .max(2 * 1024 * 1024, "expected at most 2097152 bytes (Temporal's payload limit)")
      .default(256 * 1024),
    // A workflow bundle built ahead (npm start, npm run build): the worker loads it instead of bundling at start-up.
    ZAP_WORKFLOW_BUNDLE: z.string().optional(),
    // host:port where the worker serves the Temporal SDK's own metrics for Prometheus (workflow task and activity latencies, slots).
    ZAP_WORKER_METRICS_ADDRESS: z
      .string()
      .regex(/^[A-Za-z0-9.-]+:\d{1,5}$/, { message: "expected host:port, e.g. 127.0.0.1:9464" })
      .optional(),
    // Worker Versioning (docs/deploying.md). Off by default: the one worker of `npm start` has no older build beside it to finish its runs.
    ZAP_WORKER_VERSIONING: booleanText.default(false),
    // What this worker process polls for: workflow tasks, activity tasks, or both (docs/scaling-out.md).
    ZAP_WORKER_ROLE: z.enum(["all", "workflows", "activities"], { error: "expected all, workflows or activities" }).default("all"),
    // The worker deployment's name; default: the task queue's ("." is Temporal's separator of name and build id).
    ZAP_WORKER_DEPLOYMENT: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/, "expected a deployment name (letters, digits, _ -; no dots)")
      .optional(),
    // This worker's build id; default: a hash of the workflow bundle, so any change of workflow code is a new build.
    ZAP_WORKER_BUILD_ID: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._+-]{0,99}$/, "expected a build id (letters, digits, . _ + -), e.g. a git commit")
      .optional(),
    // When the worker makes its build the deployment's current version: if-none (first deploy), always (one-host installs), never (an operator promotes).
    ZAP_WORKER_PROMOTE: z.enum(["if-none", "always", "never"], { error: "expected if-none, always or never" }).default("if-none"),
    // Stack traces after failures (npm start's steps, the worker).
    ZAP_DEBUG: booleanText.default(false),
  })
  .superRefine((env, ctx) => {
    // Deliveries are always signed: a webhook without its secret would be forgeable by anyone who learns the URL.
    if (env.ZAP_WEBHOOK_URL && !env.ZAP_WEBHOOK_SECRET) {
      ctx.addIssue({ code: "custom", path: ["ZAP_WEBHOOK_SECRET"], message: "ZAP_WEBHOOK_SECRET must be set with ZAP_WEBHOOK_URL (deliveries are always signed)" });
    }
    const slack = [env.ZAP_SLACK_SIGNING_SECRET, env.ZAP_SLACK_BOT_TOKEN, env.ZAP_SLACK_CHANNEL];
    if (slack.some(Boolean) && !slack.every(Boolean)) {
      const missing = !env.ZAP_SLACK_SIGNING_SECRET ? "ZAP_SLACK_SIGNING_SECRET" : !env.ZAP_SLACK_BOT_TOKEN ? "ZAP_SLACK_BOT_TOKEN" : "ZAP_SLACK_CHANNEL";
      ctx.addIssue({ code: "custom", path: [missing], message: "ZAP_SLACK_SIGNING_SECRET, ZAP_SLACK_BOT_TOKEN and ZAP_SLACK_CHANNEL are set together (Slack approvals)" });
    }
    if (env.ZAP_SMTP_URL && !env.ZAP_SMTP_FROM) {
      ctx.addIssue({ code: "custom", path: ["ZAP_SMTP_FROM"], message: "ZAP_SMTP_FROM must be set with ZAP_SMTP_URL (the approval emails' sender)" });
    }
    if (Boolean(env.TEMPORAL_TLS_CERT) !== Boolean(env.TEMPORAL_TLS_KEY)) {
      ctx.addIssue({
        code: "custom",
        path: [env.TEMPORAL_TLS_CERT ? "TEMPORAL_TLS_KEY" : "TEMPORAL_TLS_CERT"],
        message: "TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY must be set together (mTLS client certificate and its key)",
      });
    }
    for (const provider of ["GITHUB", "GOOGLE"] as const) {
      const id = env[`AUTH_${provider}_ID`];
      const providerSecret = env[`AUTH_${provider}_SECRET`];
      if (Boolean(id) !== Boolean(providerSecret)) {
        ctx.addIssue({
          code: "custom",
          path: [id ? `AUTH_${provider}_SECRET` : `AUTH_${provider}_ID`],
          message: `AUTH_${provider}_ID and AUTH_${provider}_SECRET must be set together`,
        });
      }
    }
  });

export interface TemporalTlsConfig {
  certPath?: string;
  keyPath?: string;
  caPath?: string;
  serverName?: string;
}

/** The validated configuration every process shares. */
export interface AppConfig {
  nodeEnv: "development" | "production" | "test";
  dataDir: string;
  databaseUrl: string;
  databaseProvider: "sqlite" | "postgresql";
  temporal: {
    address: string;
    namespace: string;
    taskQueue: string;
    uiUrl: string;
    uiPort: number;
    /** null: plain-text gRPC (the local dev server). */
    tls: TemporalTlsConfig | null;
    apiKey?: string;
    /** Payloads larger than this are stored in the database and sent by reference (claim check). */
    payloadOffloadBytes: number;
    /** The prebuilt workflow bundle the worker loads when the file exists (ZAP_WORKFLOW_BUNDLE); null: bundle at start-up. */
    workflowBundlePath: string | null;
    /** Where the worker serves the SDK's Prometheus metrics (ZAP_WORKER_METRICS_ADDRESS); null: not served. */
    workerMetricsAddress: string | null;
    /**
     * What the worker process polls for (ZAP_WORKER_ROLE): "workflows" runs no activity, so a busy database
     * (a synchronous SQLite driver holds the process's main thread) never delays a workflow activation;
     * "activities" runs no workflow; "all" both.
     */
    workerRole: "all" | "workflows" | "activities";
    /** Worker Versioning (ZAP_WORKER_*), null when off; buildId null: derived from the workflow bundle's code. */
    workerVersioning: { deploymentName: string; buildId: string | null; promote: "if-none" | "always" | "never" } | null;
  };
  auth: {
    secret?: string;
    url?: string;
    github?: { id: string; secret: string };
    google?: { id: string; secret: string };
    oauthDefaultRole: (typeof ROLES)[number];
    /** Email domains OAuth sign-in is open to (invited emails are always allowed). */
    oauthAllowedDomains: string[];
    /** Whether the last X-Forwarded-For hop is the client address (set by a trusted reverse proxy). */
    trustProxy: boolean;
  };
  /** demo: demo accounts allowed and announced; production: start-up refuses while one exists. */
  mode: "demo" | "production";
  /** Key material for sealed secrets and signed decisions (ZAP_ENCRYPTION_KEY, else AUTH_SECRET); null when neither is set. */
  keyMaterial: string | null;
  /** Legacy key material of the encrypting payload codec (ZAP_PAYLOAD_KEY); null with no ring either: payloads are not encrypted. */
  payloadKey: string | null;
  /** ZAP_ENCRYPTION_KEYS, in order: the first encrypts (sealed MCP secrets, Temporal payloads), any decrypts; empty when not set. */
  encryptionKeys: EncryptionKey[];
  /** The stdio MCP commands an admin may register, each with the environment variable names it may receive (null: the bundled demo server only). */
  mcpStdioAllowlist: StdioAllowEntry[] | null;
  /** Outbound requests made for users: hosts exempt from the private-address refusal. */
  egress: { allowHosts: string[] };
  server: { port: number; host: string };
  seedDemo: boolean;
  tools: { httpAllowlist: string[] };
  /** Where approval requests, decisions and expiries are posted (signed with the secret), if anywhere. */
  /** allowHosts: ZAP_EGRESS_ALLOW_HOSTS, so the operator's own webhook may live on a private host. */
  webhook: { url: string; secret: string | null; allowHosts: string[] } | null;
  /** Where approvals are sent besides the webhook (docs/approvals-channels.md); linkBase: AUTH_URL, or this server on localhost. */
  approvalChannels: {
    linkBase: string;
    email: { smtpUrl: string; from: string; to: string[] | null } | null;
    /** allowHosts: ZAP_EGRESS_ALLOW_HOSTS, so ZAP_SLACK_API_URL may point at a private host only when the operator allows it. */
    slack: { signingSecret: string; botToken: string; channel: string; apiUrl: string; allowHosts: string[] } | null;
    /**
     * Each channel variable as set (null: unset). A set variable wins over the admin's setting of the same field on
     * /admin/approval-channels; email and slack above are what the environment alone configures. Readers take the
     * effective channels from lib/approval-channels/server/effective.ts.
     */
    fromEnv: ApprovalChannelEnv;
  };
  /** Print stack traces after failures (ZAP_DEBUG). */
  debug: boolean;
  /** Seconds between two evaluations of the monitors (ZAP_MONITOR_INTERVAL_SECONDS). */
  monitors: { intervalSeconds: number };
  models: {
    /** Latency the demo model adds to each inference (simulates a provider). */
    demoLatencyMs: number;
    /** Prices per million tokens by model id (ZAP_MODEL_PRICES). */
    prices: PriceTable;
    defaultModel: string;
    openai: { apiKey?: string; baseUrl?: string };
    anthropic: { apiKey?: string; baseUrl?: string };
    /** visionModels: OPENAI_COMPATIBLE_VISION_MODELS (the model catalogue's `openaiCompatibleVision`); toolCallsInText: OPENAI_COMPATIBLE_TOOL_CALLS_IN_TEXT. */
    openaiCompatible: { name: string; baseUrl?: string; apiKey?: string; structuredOutputs: boolean; toolCallsInText: boolean; visionModels: string[] | "*" };
  };
}

/** One invalid variable: its name and what is wrong with it. */
export interface EnvIssue {
  variable: string;
  message: string;
}

export class EnvError extends Error {
  constructor(readonly issues: EnvIssue[]) {
    super(
      `Invalid environment configuration:\n${issues.map((i) => `  ${i.variable}: ${i.message}`).join("\n")}\nSee .env.example for every variable.`,
    );
    this.name = "EnvError";
  }
}

/** Treat `VAR=` (empty) the same as unset, as .env files commonly leave them. */
function withoutEmpty(env: RawEnv): RawEnv {
  return Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ""));
}

const PROJECT_ROOT = path.resolve(import.meta.dirname ?? ".", "../..");

/** Parses an environment (defaults to process.env) into the app configuration, or throws EnvError. */
export function parseEnv(rawEnv: RawEnv = process.env, projectRoot: string = PROJECT_ROOT): AppConfig {
  const parsed = envSchema.safeParse(withoutEmpty(rawEnv));
  if (!parsed.success) {
    throw new EnvError(
      parsed.error.issues.map((issue) => {
        const variable = String(issue.path[0] ?? "environment");
        const value = rawEnv[variable];
        const shown = value === undefined || SECRET_VARIABLES.has(variable) ? "" : ` (got ${JSON.stringify(value)})`;
        return { variable, message: `${issue.message}${shown}` };
      }),
    );
  }
  const env = parsed.data;
  const dataDir = path.resolve(projectRoot, env.ZAP_DATA_DIR ?? ".data");
  const rawDbUrl = env.DATABASE_URL ?? `file:${path.join(dataDir, "zap.db")}`;
  const databaseProvider = providerOf(rawDbUrl);
  const wantsTls = env.TEMPORAL_TLS ?? Boolean(env.TEMPORAL_API_KEY || env.TEMPORAL_TLS_CERT);
  return {
    nodeEnv: env.NODE_ENV,
    dataDir,
    databaseUrl: databaseProvider === "sqlite" ? absoluteSqliteUrl(rawDbUrl, projectRoot) : rawDbUrl,
    databaseProvider,
    temporal: {
      address: env.TEMPORAL_ADDRESS,
      namespace: env.TEMPORAL_NAMESPACE,
      taskQueue: env.TEMPORAL_TASK_QUEUE,
      uiPort: env.TEMPORAL_UI_PORT,
      uiUrl: env.TEMPORAL_UI_URL ?? `http://127.0.0.1:${env.TEMPORAL_UI_PORT}`,
      tls: wantsTls
        ? {
            certPath: env.TEMPORAL_TLS_CERT,
            keyPath: env.TEMPORAL_TLS_KEY,
            caPath: env.TEMPORAL_TLS_CA,
            serverName: env.TEMPORAL_TLS_SERVER_NAME,
          }
        : null,
      apiKey: env.TEMPORAL_API_KEY,
      payloadOffloadBytes: env.ZAP_PAYLOAD_OFFLOAD_BYTES,
      workflowBundlePath: env.ZAP_WORKFLOW_BUNDLE ?? null,
      workerMetricsAddress: env.ZAP_WORKER_METRICS_ADDRESS ?? null,
      workerRole: env.ZAP_WORKER_ROLE,
      workerVersioning: env.ZAP_WORKER_VERSIONING
        ? { deploymentName: env.ZAP_WORKER_DEPLOYMENT ?? env.TEMPORAL_TASK_QUEUE.replaceAll(".", "-"), buildId: env.ZAP_WORKER_BUILD_ID ?? null, promote: env.ZAP_WORKER_PROMOTE }
        : null,
    },
    auth: {
      secret: env.AUTH_SECRET,
      url: env.AUTH_URL,
      github: env.AUTH_GITHUB_ID && env.AUTH_GITHUB_SECRET ? { id: env.AUTH_GITHUB_ID, secret: env.AUTH_GITHUB_SECRET } : undefined,
      google: env.AUTH_GOOGLE_ID && env.AUTH_GOOGLE_SECRET ? { id: env.AUTH_GOOGLE_ID, secret: env.AUTH_GOOGLE_SECRET } : undefined,
      oauthDefaultRole: env.AUTH_OAUTH_DEFAULT_ROLE,
      oauthAllowedDomains: (env.AUTH_OAUTH_ALLOWED_DOMAINS ?? []).map((d) => d.toLowerCase()),
      trustProxy: env.ZAP_TRUST_PROXY,
    },
    mode: env.ZAP_MODE,
    keyMaterial: env.ZAP_ENCRYPTION_KEY ?? env.AUTH_SECRET ?? null,
    payloadKey: env.ZAP_PAYLOAD_KEY ?? null,
    encryptionKeys: env.ZAP_ENCRYPTION_KEYS ?? [],
    mcpStdioAllowlist: env.ZAP_MCP_STDIO_ALLOWLIST ?? null,
    egress: { allowHosts: (env.ZAP_EGRESS_ALLOW_HOSTS ?? []).map((h) => h.toLowerCase()) },
    server: { port: env.PORT, host: env.HOST },
    seedDemo: env.ZAP_SEED_DEMO,
    tools: { httpAllowlist: env.ZAP_HTTP_ALLOWLIST ? env.ZAP_HTTP_ALLOWLIST.split(",") : [] },
    debug: env.ZAP_DEBUG,
    monitors: { intervalSeconds: env.ZAP_MONITOR_INTERVAL_SECONDS },
    approvalChannels: {
      linkBase: (env.AUTH_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ""),
      email: env.ZAP_SMTP_URL && env.ZAP_SMTP_FROM ? { smtpUrl: env.ZAP_SMTP_URL, from: env.ZAP_SMTP_FROM, to: env.ZAP_APPROVAL_EMAIL_TO ?? null } : null,
      slack:
        env.ZAP_SLACK_SIGNING_SECRET && env.ZAP_SLACK_BOT_TOKEN && env.ZAP_SLACK_CHANNEL
          ? { signingSecret: env.ZAP_SLACK_SIGNING_SECRET, botToken: env.ZAP_SLACK_BOT_TOKEN, channel: env.ZAP_SLACK_CHANNEL, apiUrl: env.ZAP_SLACK_API_URL ?? DEFAULT_SLACK_API_URL, allowHosts: (env.ZAP_EGRESS_ALLOW_HOSTS ?? []).map((h) => h.toLowerCase()) }
          : null,
      fromEnv: {
        smtpUrl: env.ZAP_SMTP_URL ?? null,
        smtpFrom: env.ZAP_SMTP_FROM ?? null,
        emailTo: env.ZAP_APPROVAL_EMAIL_TO ?? null,
        slackSigningSecret: env.ZAP_SLACK_SIGNING_SECRET ?? null,
        slackBotToken: env.ZAP_SLACK_BOT_TOKEN ?? null,
        slackChannel: env.ZAP_SLACK_CHANNEL ?? null,
        slackApiUrl: env.ZAP_SLACK_API_URL ?? null,
      },
    },
    webhook: env.ZAP_WEBHOOK_URL ? { url: env.ZAP_WEBHOOK_URL, secret: env.ZAP_WEBHOOK_SECRET ?? null, allowHosts: (env.ZAP_EGRESS_ALLOW_HOSTS ?? []).map((h) => h.toLowerCase()) } : null,
    models: {
      demoLatencyMs: env.ZAP_DEMO_LATENCY_MS,
      prices: env.ZAP_MODEL_PRICES,
      defaultModel: env.ZAP_DEFAULT_MODEL,
      openai: { apiKey: env.OPENAI_API_KEY, baseUrl: env.OPENAI_BASE_URL },
      anthropic: { apiKey: env.ANTHROPIC_API_KEY, baseUrl: env.ANTHROPIC_BASE_URL },
      openaiCompatible: {
        name: env.OPENAI_COMPATIBLE_NAME,
        baseUrl: env.OPENAI_COMPATIBLE_BASE_URL,
        apiKey: env.OPENAI_COMPATIBLE_API_KEY,
        structuredOutputs: env.OPENAI_COMPATIBLE_STRUCTURED_OUTPUTS,
        toolCallsInText: env.OPENAI_COMPATIBLE_TOOL_CALLS_IN_TEXT,
        visionModels: env.OPENAI_COMPATIBLE_VISION_MODELS ?? [],
      },
    },
  };
}

/**
 * Whether ZAP_DEBUG asks for stack traces, read on its own with the schema's
 * rule: failure reports need it most when the rest of the environment is what
 * failed to parse. A value the schema refuses counts as no.
 */
export function debugRequested(rawEnv: RawEnv = process.env): boolean {
  const parsed = booleanText.safeParse(rawEnv.ZAP_DEBUG?.trim());
  return parsed.success && parsed.data;
}

/** The database URL alone, for scripts that need nothing else. */
export function databaseUrlFrom(rawEnv: RawEnv = process.env): string {
  return parseEnv(rawEnv).databaseUrl;
}
