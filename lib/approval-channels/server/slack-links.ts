import "server-only";
// The admin's Slack user links, one operation each (schema, permission, act
// and audit), from which the admin page's actions and /api/slack/links are
// built. A Slack user is linked to one Zap user at a time; linking again moves
// the link (audited with the user it left).
import { getDb } from "../../db/server/db";
import { appendAudit } from "../../audit/write";
import { AppError } from "../../errors";
import { operation } from "../../http/server/operation";
import { linkSlackUserSchema, listSlackLinksSchema, unlinkSlackUserSchema, type SlackLink } from "../slack-links";

/** Every link, by Slack user id. */
export async function listSlackLinks(): Promise<SlackLink[]> {
  const db = getDb();
  const links = await db.slackUserLink.findMany({ orderBy: { slackUserId: "asc" } });
  const users = await db.user.findMany({ where: { id: { in: links.map((l) => l.userId) } }, select: { id: true, email: true, role: true } });
  const byId = new Map(users.map((u) => [u.id, u]));
  return links.map((l) => ({ slackUserId: l.slackUserId, userId: l.userId, email: byId.get(l.userId)?.email ?? "(deleted user)", role: byId.get(l.userId)?.role ?? "", createdAt: l.createdAt.toISOString() }));
}

/** Admins only: every link. */
export const listSlackLinksOperation = operation({
  name: "list-slack-links",
  permission: "users:manage",
  input: listSlackLinksSchema,
  run: async () => ({ links: await listSlackLinks() }),
});

/** Admins only: the Slack user decides as the Zap user with this email from now on. */
export const linkSlackUserOperation = operation({
  name: "link-slack-user",
  permission: "users:manage",
  input: linkSlackUserSchema,
  run: async ({ input, user }) => {
    const db = getDb();
    const target = await db.user.findUnique({ where: { email: input.email.toLowerCase() }, select: { id: true, email: true, role: true } });
    if (!target) throw new AppError("not_found", 404, `No Zap Studio user has the email ${input.email}`);
    const before = await db.slackUserLink.findUnique({ where: { slackUserId: input.slackUserId } });
    await db.slackUserLink.upsert({
      where: { slackUserId: input.slackUserId },
      create: { slackUserId: input.slackUserId, userId: target.id, createdById: user.id },
      update: { userId: target.id, createdById: user.id },
    });
    await appendAudit(db, {
      actorId: user.id,
      action: "slack.user_linked",
      target: input.slackUserId,
      details: { userId: target.id, email: target.email, previousUserId: before?.userId ?? null },
    });
    return { slackUserId: input.slackUserId, userId: target.id, email: target.email, role: target.role };
  },
});

/** Admins only: the Slack user decides nothing from now on. */
export const unlinkSlackUserOperation = operation({
  name: "unlink-slack-user",
  permission: "users:manage",
  input: unlinkSlackUserSchema,
  run: async ({ input, user }) => {
    const db = getDb();
    const before = await db.slackUserLink.findUnique({ where: { slackUserId: input.slackUserId } });
    if (!before) throw new AppError("not_found", 404, `Slack user ${input.slackUserId} is not linked`);
    await db.slackUserLink.delete({ where: { slackUserId: input.slackUserId } });
    await appendAudit(db, { actorId: user.id, action: "slack.user_unlinked", target: input.slackUserId, details: { userId: before.userId } });
    return { slackUserId: input.slackUserId };
  },
});
