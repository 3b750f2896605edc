// One call of Slack's Web API with a bot token, for the worker (post and
// update approval messages) and the web server (ephemeral answers to a click).
// No "server-only": the worker (plain Node) loads it too.

/** Calls one Web API method; the answer's fields, or a throw naming Slack's error (never the token). */
export async function slackApi(config: { botToken: string; apiUrl: string }, method: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const response = await fetch(`${config.apiUrl.replace(/\/+$/, "")}/${method}`, {
    method: "POST",
    headers: { "content-type": "application/json; charset=utf-8", authorization: `Bearer ${config.botToken}` },
    body: JSON.stringify(body),
    redirect: "error",
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`Slack ${method} answered HTTP ${response.status}`);
  // Slack answers HTTP 200 with { ok: false, error } on a refusal.
  const answer = (await response.json()) as Record<string, unknown>;
  if (answer.ok !== true) throw new Error(`Slack ${method} refused: ${typeof answer.error === "string" ? answer.error : "unknown error"}`);
  return answer;
}
