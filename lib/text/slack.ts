// Webhook notifications carry a one-line `text` that a Slack incoming webhook
// shows as it is, reading `<…>` as markup: `<!channel>` pings everyone and
// `<http://x|y>` shows a link under any words. Names, labels and reasons in
// that text are typed by users, so the text is escaped the way Slack documents
// (only `&`, `<` and `>`, https://api.slack.com/reference/surfaces/formatting#escaping),
// and arrives as the characters that were typed.

/** `text` with Slack's three control characters escaped; nothing in it is read as markup. */
export function escapeSlackText(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}
