// One call of Slack's Web API with a bot token, for the worker (post and
// update approval messages) and the web server (ephemeral answers to a click).
// No "server-only": the worker (plain Node) loads it too.
// The base URL is the operator's (ZAP_SLACK_API_URL), so it goes through the
// egress guard like every outbound request: slack.com is public and passes;
// a URL on a private address (a proxy, a test receiver) is refused before
// connecting unless its host is in ZAP_EGRESS_ALLOW_HOSTS.
import { createGuardedFetch, EgressRefusedError } from "../net/egress";

export interface SlackApiConfig {
  botToken: string;
  apiUrl: string;
  /** ZAP_EGRESS_ALLOW_HOSTS: hosts reachable although they resolve to a private address. */
  allowHosts: string[];
}

/** Calls one Web API method; the answer's fields, or a throw naming Slack's error (never the token). */
export async function slackApi(config: SlackApiConfig, method: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const guardedFetch = createGuardedFetch({ allowHosts: config.allowHosts, maxRedirects: 0, timeoutMs: 10_000 });
  let response: Response;
  try {
    response = await guardedFetch(`${config.apiUrl.replace(/\/+$/, "")}/${method}`, {
      method: "POST",
      headers: { "content-type": "application/json; charset=utf-8", authorization: `Bearer ${config.botToken}` },
      body: JSON.stringify(body),
      redirect: "error",
    });
  } catch (error) {
    // The guard's sentence names no address; say which call it refused.
    if (error instanceof EgressRefusedError) throw new Error(`Slack ${method} refused by the egress guard: ${error.message}`);
    throw error;
  }
  if (!response.ok) throw new Error(`Slack ${method} answered HTTP ${response.status}`);
  // Slack answers HTTP 200 with { ok: false, error } on a refusal.
  const answer = (await response.json()) as Record<string, unknown>;
  if (answer.ok !== true) throw new Error(`Slack ${method} refused: ${typeof answer.error === "string" ? answer.error : "unknown error"}`);
  return answer;
}
