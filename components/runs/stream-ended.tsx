"use client";
// What a live page shows once its stream ended because the caller's access did
// (lib/runs/stream-end.ts: a key revoked, the account disabled or reset, the
// session signed out or expired). The page has stopped updating and does not
// try again: a refused stream would only be refused again, so the person is
// told why and where to go instead.
import Link from "@/components/ui/link";
import { Alert } from "@/components/ui/alert";
import type { AccessEnd } from "@/lib/runs/stream-end";

/** One line for a person: "Live updates stopped: your account was disabled. Sign in again." */
export function streamEndedLine(end: AccessEnd): string {
  const said = end.message.trim().replace(/[.;:]+$/, "");
  const sentence = `${said.charAt(0).toLowerCase()}${said.slice(1)}`;
  // Most reasons already say to sign in again; the rest (a disabled account, a revoked key) get it added.
  return /sign in/i.test(sentence) ? `Live updates stopped: ${sentence}.` : `Live updates stopped: ${sentence}. Sign in again.`;
}

export function StreamEndedAlert({ end }: { end: AccessEnd | null }) {
  if (!end) return null;
  return (
    <div data-testid="stream-ended" data-reason={end.reason}>
      <Alert tone="error">
        {streamEndedLine(end)}{" "}
        <Link href="/sign-in" className="font-medium underline">
          Go to sign-in
        </Link>
      </Alert>
    </div>
  );
}
