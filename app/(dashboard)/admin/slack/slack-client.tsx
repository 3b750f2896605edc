"use client";
import Link from "@/components/ui/link";
import { useState, useTransition, type FormEvent } from "react";
import { linkSlackUserAction } from "@/lib/actions/link-slack-user";
import { unlinkSlackUserAction } from "@/lib/actions/unlink-slack-user";
import type { SlackLink } from "@/lib/approval-channels/slack-links";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { DateTime } from "@/components/ui/date-time";
import { Input, Label } from "@/components/ui/input";

type Message = { tone: "error" | "success"; text: string };

/** The Slack member ↔ Zap user links: a form to link (or move) one, and the list with Unlink. */
export function SlackLinksClient({ links, configured, channel }: { links: SlackLink[]; configured: boolean; channel: string | null }) {
  const [message, setMessage] = useState<Message | null>(null);
  const [pending, startTransition] = useTransition();

  const link = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input = { slackUserId: String(form.get("slackUserId") ?? "").trim(), email: String(form.get("email") ?? "").trim() };
    startTransition(async () => {
      const result = await linkSlackUserAction(input);
      setMessage(result.ok ? { tone: "success", text: `${result.data.slackUserId} now decides as ${result.data.email}.` } : { tone: "error", text: result.error.issues?.[0]?.message ?? result.error.message });
    });
  };
  const unlink = (slackUserId: string) =>
    startTransition(async () => {
      const result = await unlinkSlackUserAction({ slackUserId });
      setMessage(result.ok ? { tone: "success", text: `${slackUserId} is unlinked.` } : { tone: "error", text: result.error.message });
    });

  return (
    <div className="space-y-6">
      {!configured && (
        <Alert tone="info">
          Slack approvals are off: set the signing secret, bot token and channel on <Link href="/admin/approval-channels" className="underline">Approval channels</Link> (or ZAP_SLACK_SIGNING_SECRET, ZAP_SLACK_BOT_TOKEN and ZAP_SLACK_CHANNEL). Links made now apply once they are set.
        </Alert>
      )}
      {configured && channel && <p className="text-sm text-zinc-700">Approvals are posted to Slack channel {channel}.</p>}
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
      <Card>
        <CardHeader title="Link a Slack member" description="The member id is in their Slack profile (⋮ → Copy member ID). Linking a member again moves the link." />
        <CardBody>
          <form onSubmit={link} className="flex flex-wrap items-end gap-3">
            <div>
              <Label htmlFor="slack-user-id">Slack member id</Label>
              <Input id="slack-user-id" name="slackUserId" placeholder="U0123ABCD" required />
            </div>
            <div>
              <Label htmlFor="slack-zap-email">Zap Studio user (email)</Label>
              <Input id="slack-zap-email" name="email" type="email" placeholder="approver@example.com" required />
            </div>
            <Button type="submit" disabled={pending}>
              Link
            </Button>
          </form>
        </CardBody>
      </Card>
      <Card>
        <CardHeader title="Linked members" />
        <CardBody>
          {links.length === 0 ? (
            <p className="text-sm text-zinc-600">No Slack member is linked: nobody can decide approvals in Slack.</p>
          ) : (
            <table className="w-full text-sm">
              <thead>
                <tr className="text-left text-zinc-600">
                  <th className="py-1">Slack member</th>
                  <th>Zap Studio user</th>
                  <th>Role</th>
                  <th>Linked</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {links.map((l) => (
                  <tr key={l.slackUserId} className="border-t border-zinc-100">
                    <td className="py-2 font-mono">{l.slackUserId}</td>
                    <td>{l.email}</td>
                    <td>
                      <Badge>{l.role || "—"}</Badge>
                    </td>
                    <td>
                      <DateTime value={l.createdAt} />
                    </td>
                    <td className="text-right">
                      <Button variant="secondary" disabled={pending} onClick={() => unlink(l.slackUserId)} aria-label={`Unlink ${l.slackUserId}`}>
                        Unlink
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </CardBody>
      </Card>
    </div>
  );
}
