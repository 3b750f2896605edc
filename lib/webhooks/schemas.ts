// Inbound webhooks that start runs of a saved agent graph (issue 39 §1): the
// input of every management door (page, HTTP API, client), the view they
// answer with, and the body a delivery must send for its endpoint's mapping.
// Browser-safe: the form shows the same messages the API answers with.
import { z } from "zod";
import { agentNameSchema } from "../agents/schemas";
import { boundedJsonObject, boundedText, CONTEXT_MAX_BYTES, KIB } from "../http/limits";
import { webhookIdSchema } from "../contract/schemas";

export const WEBHOOK_LIMITS = {
  /** A delivery's raw body, in bytes (larger: 413 before it is read further). */
  maxBodyBytes: 64 * KIB,
  /** How far a delivery's x-zap-timestamp may be from the server's clock, either way. */
  toleranceSeconds: 300,
  /** An Idempotency-Key header's length. */
  maxIdempotencyKeyChars: 200,
  /** Endpoints the workspace may keep. */
  perWorkspace: 200,
  defaultRatePerMinute: 60,
  maxRatePerMinute: 600,
  /** Deliveries a listing answers with, newest first. */
  deliveriesListed: 50,
} as const;

/** What a delivery came to: a run started; a repeat of a delivery that claimed its key (its run id); refused, with why. */
export const DELIVERY_OUTCOMES = ["pending", "started", "duplicate", "refused"] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];

export { webhookIdSchema };

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** The `{{name}}` placeholders of a task template, in order, once each. */
export function templateFields(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((match) => match[1] as string))];
}

/**
 * How a delivery's body becomes a run's task and context:
 * - `task`: the body is `{ "task": "…", "context"?: { … } }`;
 * - `template`: the body has exactly `fields` (strings), the task is `template`
 *   with `{{field}}` filled in and the context is the body.
 */
export const webhookMappingSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("task") }),
  z
    .strictObject({
      kind: z.literal("template"),
      template: boundedText("template", "write the task template", 4_000, 16 * KIB),
      fields: z
        .array(z.string().regex(FIELD_NAME, "a field name is letters, digits and _, not starting with a digit"))
        .min(1, "name at least one body field")
        .max(20, "at most 20 fields")
        .refine((fields) => new Set(fields).size === fields.length, "name each field once"),
    })
    .superRefine((mapping, ctx) => {
      const unknown = templateFields(mapping.template).filter((field) => !mapping.fields.includes(field));
      if (unknown.length) ctx.addIssue({ code: "custom", path: ["template"], message: `the template uses ${unknown.map((f) => `{{${f}}}`).join(", ")}, which the fields do not name` });
    }),
]);
export type WebhookMapping = z.infer<typeof webhookMappingSchema>;

const nameSchema = z.string().trim().min(1, "give the endpoint a name").max(100, "keep the name under 100 characters");

export const webhookCreateSchema = z.strictObject({
  name: nameSchema,
  graph: agentNameSchema,
  /** Omitted or null: the graph's default version at each delivery. */
  version: z.number().int().min(1).nullable().optional(),
  mapping: webhookMappingSchema.default({ kind: "task" }),
  enabled: z.boolean().default(true),
  rateLimitPerMinute: z.number().int().min(1, "at least 1 a minute").max(WEBHOOK_LIMITS.maxRatePerMinute, `at most ${WEBHOOK_LIMITS.maxRatePerMinute} a minute`).default(WEBHOOK_LIMITS.defaultRatePerMinute),
});
export type WebhookCreateInput = z.input<typeof webhookCreateSchema>;

export const webhookPatchSchema = z
  .strictObject({
    name: nameSchema.optional(),
    version: z.number().int().min(1).nullable().optional(),
    mapping: webhookMappingSchema.optional(),
    enabled: z.boolean().optional(),
    rateLimitPerMinute: z.number().int().min(1).max(WEBHOOK_LIMITS.maxRatePerMinute).optional(),
  })
  .refine((patch) => Object.keys(patch).length > 0, "change at least one field");
export type WebhookPatch = z.input<typeof webhookPatchSchema>;

export const webhookRefInput = z.strictObject({ id: webhookIdSchema });
export const updateWebhookInput = z.strictObject({ id: webhookIdSchema, patch: webhookPatchSchema });
export const listWebhooksInput = z.strictObject({ graph: agentNameSchema.optional() });

/** An endpoint as every door shows it: never its secret. */
export interface WebhookView {
  id: string;
  name: string;
  graph: string;
  version: number | null;
  mapping: WebhookMapping;
  enabled: boolean;
  rateLimitPerMinute: number;
  /** The receiving path, `/api/hooks/<id>` (the page prefixes the app's origin). */
  path: string;
  owner: { id: string; email: string | null };
  createdAt: string;
  updatedAt: string;
  rotatedAt: string | null;
}

/** Creating or rotating answers the secret this once; it is never shown again. */
export interface WebhookWithSecret {
  webhook: WebhookView;
  secret: string;
}

export interface WebhookDeliveryView {
  id: string;
  receivedAt: string;
  idempotencyKey: string | null;
  outcome: DeliveryOutcome;
  reason: string | null;
  httpStatus: number;
  runId: string | null;
  bodyDigest: string | null;
  bodyBytes: number;
}

/** The receiving path of an endpoint. */
export const hookPath = (id: string) => `/api/hooks/${id}`;

const contextSchema = boundedJsonObject("context", CONTEXT_MAX_BYTES);

/** The schema a delivery's parsed JSON body must meet under `mapping` (strict: an unknown key is named). */
export function deliveryBodySchema(mapping: WebhookMapping) {
  if (mapping.kind === "task") return z.strictObject({ task: boundedText("task", "describe the task"), context: contextSchema.optional() });
  return z.strictObject(Object.fromEntries(mapping.fields.map((field) => [field, z.string({ error: `send ${field} as a string` }).max(8_000, `keep ${field} under 8,000 characters`)])));
}

/** The run's task and context a delivery's checked body asks for. */
export function launchOf(mapping: WebhookMapping, body: Record<string, unknown>): { task: string; context: Record<string, unknown> } {
  if (mapping.kind === "task") return { task: String(body.task), context: (body.context as Record<string, unknown> | undefined) ?? {} };
  const task = mapping.template.replace(PLACEHOLDER, (_, field: string) => String(body[field] ?? ""));
  return { task, context: body };
}
