// Browser-safe schemas of the admin's Slack user links: which Zap user a Slack
// user decides as when they press a button in Slack.
import { z } from "zod";

/** A Slack user id as Slack shows it in a profile ("Copy member ID"): U… or W…. */
export const slackUserIdSchema = z.string().regex(/^[UW][A-Z0-9]{2,40}$/, "expected a Slack member id such as U0123ABCD");

export const linkSlackUserSchema = z.strictObject({
  slackUserId: slackUserIdSchema,
  /** The Zap user, by email. */
  email: z.email("expected the Zap user's email").max(320),
});
export type LinkSlackUserInput = z.infer<typeof linkSlackUserSchema>;

export const unlinkSlackUserSchema = z.strictObject({ slackUserId: slackUserIdSchema });
export const listSlackLinksSchema = z.strictObject({});

export interface SlackLink {
  slackUserId: string;
  userId: string;
  email: string;
  role: string;
  createdAt: string;
}
