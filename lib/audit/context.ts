// Who acts through which door, for the audit rows a request writes: a request
// authenticated with an API key runs inside withApiKey, and every row it appends
// with the key's owner as actor names the key (`details.apiKeyId`), whatever
// domain wrote it (lib/audit/write.ts adds it; no caller has to remember).
import { AsyncLocalStorage } from "node:async_hooks";

export interface ApiKeyActor {
  apiKeyId: string;
  /** The key's owner: rows with this actor name the key. */
  actorId: string;
}

const current = new AsyncLocalStorage<ApiKeyActor>();

/** Runs `work` as a request made with an API key. */
export function withApiKey<T>(actor: ApiKeyActor, work: () => Promise<T>): Promise<T> {
  return current.run(actor, work);
}

/** The API key the current request was made with, or null (a session, a script, the worker). */
export function currentApiKey(): ApiKeyActor | null {
  return current.getStore() ?? null;
}
