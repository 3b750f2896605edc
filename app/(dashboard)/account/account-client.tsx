"use client";
import { useState, useTransition, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { changeOwnPasswordAction } from "@/lib/actions/change-own-password";
import { Input, Label } from "@/components/ui/input";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";

export function ChangePasswordForm({ mustChange }: { mustChange: boolean }) {
  const router = useRouter();
  const [message, setMessage] = useState<{ tone: "error" | "success"; text: string } | null>(null);
  const [pending, startTransition] = useTransition();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const newPassword = String(form.get("newPassword") ?? "");
    if (newPassword !== String(form.get("confirmPassword") ?? "")) {
      setMessage({ tone: "error", text: "The two new passwords differ" });
      return;
    }
    startTransition(async () => {
      const result = await changeOwnPasswordAction({ currentPassword: String(form.get("currentPassword") ?? ""), newPassword });
      if (!result.ok) {
        setMessage({ tone: "error", text: result.error.message });
        return;
      }
      formElement.reset();
      setMessage({ tone: "success", text: "Your password was changed; your other sessions have ended." });
      if (mustChange) router.push("/");
      else router.refresh();
    });
  }

  return (
    <Card>
      <CardHeader title="Change your password" description="At least 12 characters, and not your email. Every other session of yours ends." />
      <CardBody>
        <form onSubmit={submit} className="space-y-4">
          <div>
            <Label htmlFor="current-password">Current password</Label>
            <Input id="current-password" name="currentPassword" type="password" autoComplete="current-password" required maxLength={200} />
          </div>
          <div>
            <Label htmlFor="new-password">New password</Label>
            <Input id="new-password" name="newPassword" type="password" autoComplete="new-password" required minLength={12} maxLength={200} />
          </div>
          <div>
            <Label htmlFor="confirm-password">Repeat the new password</Label>
            <Input id="confirm-password" name="confirmPassword" type="password" autoComplete="new-password" required minLength={12} maxLength={200} />
          </div>
          {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
          <Button type="submit" disabled={pending}>
            {pending ? "Changing…" : "Change password"}
          </Button>
        </form>
      </CardBody>
    </Card>
  );
}
