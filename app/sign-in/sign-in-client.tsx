"use client";
import { useActionState } from "react";
import { signInWithPassword, signInWithProvider, type SignInState } from "@/lib/actions/sign-in";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/input";
import { Alert } from "@/components/ui/alert";
import { Card, CardBody } from "@/components/ui/card";

export function SignInForm({ callbackUrl, providers, initialError }: { callbackUrl: string; providers: { id: string; name: string }[]; initialError: string | null }) {
  const [state, action, pending] = useActionState<SignInState, FormData>(signInWithPassword, {});
  return (
    <Card>
      <CardBody className="space-y-4 py-6">
        <form action={action} className="space-y-4">
          <input type="hidden" name="callbackUrl" value={callbackUrl} />
          <div>
            <Label htmlFor="email">Email</Label>
            <Input id="email" name="email" type="email" autoComplete="username" required />
          </div>
          <div>
            <Label htmlFor="password">Password</Label>
            <Input id="password" name="password" type="password" autoComplete="current-password" required />
          </div>
          {state.error ? <Alert tone="error">{state.error}</Alert> : null}
          <Button type="submit" className="w-full" disabled={pending}>
            {pending ? "Signing in…" : "Sign in"}
          </Button>
        </form>
        {initialError && !state.error ? <Alert tone="error">{initialError}</Alert> : null}
        {providers.map((p) => (
          <form key={p.id} action={signInWithProvider}>
            <input type="hidden" name="provider" value={p.id} />
            <input type="hidden" name="callbackUrl" value={callbackUrl} />
            <Button type="submit" variant="secondary" className="w-full">
              Continue with {p.name}
            </Button>
          </form>
        ))}
      </CardBody>
    </Card>
  );
}
