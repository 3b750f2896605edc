// One error family for everything the browser may see. Each error carries an
// HTTP status and a message written for the user; anything that is not an
// AppError is reported as a generic 500 and logged server-side.
import { explainUnions, type IssueLike } from "./union-issues";

export type AppErrorCode =
  | "bad_request"
  | "validation_failed"
  | "unauthenticated"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "unavailable"
  | "timeout"
  | "payload_too_large"
  | "unsupported_media_type"
  | "rate_limited"
  /** Images for a model without vision (lib/models/errors.ts). */
  | "vision_not_supported"
  /** A spend limit of the run's scope is reached (lib/spend-limits/errors.ts). */
  | "spend_limit_reached"
  | "internal";

/** A field-level problem, with the path of the offending value. */
export interface FieldIssue {
  path: string;
  message: string;
}

/**
 * Marks AppErrors across module instances: Next builds route handlers and
 * server actions as separate module graphs, so an error thrown by an object one
 * of them created (the engine client, shared through globalThis) is an AppError
 * of the other graph's class, and a plain `instanceof` would call it a 500.
 */
const APP_ERROR_BRAND = Symbol.for("zap-studio.app-error");

export class AppError extends Error {
  readonly [APP_ERROR_BRAND] = true;

  /** `x instanceof AppError` holds for an AppError of any module instance; subclasses keep the ordinary check. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (this !== AppError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === "object" && value !== null && (value as { [APP_ERROR_BRAND]?: unknown })[APP_ERROR_BRAND] === true;
  }

  constructor(
    readonly code: AppErrorCode,
    readonly status: number,
    readonly userMessage: string,
    readonly issues: FieldIssue[] = [],
  ) {
    super(userMessage);
    this.name = "AppError";
  }
}

export class ValidationError extends AppError {
  constructor(issues: FieldIssue[], message = "Some fields are invalid") {
    super("validation_failed", 422, message, issues);
  }
}
export class UnauthenticatedError extends AppError {
  constructor() {
    super("unauthenticated", 401, "Sign in to continue");
  }
}
export class ForbiddenError extends AppError {
  constructor(message = "Your role does not allow this") {
    super("forbidden", 403, message);
  }
}
export class ConflictError extends AppError {
  constructor(message: string) {
    super("conflict", 409, message);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(limitBytes: number) {
    super("payload_too_large", 413, `The request body is larger than ${limitBytes.toLocaleString("en")} bytes`);
  }
}
/** Too many attempts: the caller should wait `retryAfterSeconds` (sent as Retry-After). */
export class RateLimitedError extends AppError {
  constructor(
    readonly retryAfterSeconds: number,
    message = `Too many attempts; try again in ${retryAfterSeconds} s`,
  ) {
    super("rate_limited", 429, message);
  }
}

/** The JSON shape every failed API call and server action returns. */
export interface ErrorBody {
  code: AppErrorCode;
  message: string;
  issues?: FieldIssue[];
}

/** Converts any thrown value to what the browser may see; unknown errors become a generic 500. */
export function toErrorBody(error: unknown): { status: number; body: ErrorBody } {
  if (error instanceof AppError) {
    return {
      status: error.status,
      body: { code: error.code, message: error.userMessage, ...(error.issues.length ? { issues: error.issues } : {}) },
    };
  }
  return { status: 500, body: { code: "internal", message: "Something went wrong on our side. It has been logged." } };
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * The one way paths are written for users, by the HTTP error mapper and the
 * agent-graph validator alike: `["agents", 2, "subAgents", 0]` →
 * `agents[2].subAgents[0]`; a key that is not a plain name is quoted (`env["MY-KEY"]`).
 */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, key) => {
    if (typeof key === "number") return `${text}[${key}]`;
    const name = typeof key === "symbol" ? (key.description ?? "") : key;
    if (!IDENTIFIER.test(name)) return `${text}[${JSON.stringify(name)}]`;
    return text ? `${text}.${name}` : name;
  }, "");
}

/**
 * zod issues → FieldIssue list with paths as formatPath writes them
 * (`agents[2].name`); a value that matched no branch of a union names the
 * branches ("use { attachmentId }, { data } or { url }"), not "Invalid input".
 */
export function zodIssues(issues: readonly IssueLike[]): FieldIssue[] {
  return explainUnions(issues).map((i) => ({ path: formatPath(i.path) || "(root)", message: i.message }));
}
