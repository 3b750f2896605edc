import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getSessionUser } from "@/lib/auth/server/session";
import { oauthProviders } from "@/lib/auth/server/auth";
import { enabledDemoSignIns } from "@/lib/auth/production-mode";
import { isOAuthRefusal, OAUTH_REFUSAL_MESSAGES } from "@/lib/auth/oauth";
import { getConfig } from "@/lib/config/server/config";
import { getDb } from "@/lib/db/server/db";
import { SignInForm } from "./sign-in-client";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  if (await getSessionUser()) redirect("/");
  const params = await searchParams;
  const callbackUrl = typeof params.callbackUrl === "string" ? params.callbackUrl : "/";
  const refusal = isOAuthRefusal(params.error) ? OAUTH_REFUSAL_MESSAGES[params.error] : null;
  // Demo mode says so, with the demo sign-ins that are still enabled; production mode shows none.
  const demoSignIns = getConfig().mode === "demo" ? await enabledDemoSignIns(getDb()) : [];
  return (
    <main className="grid min-h-screen place-items-center px-4">
      <div className="w-full max-w-sm">
        <div className="mb-8 text-center">
          <span aria-hidden className="mx-auto grid h-10 w-10 place-items-center rounded-lg bg-indigo-600 text-lg font-semibold text-white">
            Z
          </span>
          <h1 className="mt-4 text-xl font-semibold tracking-tight">Sign in to Zap Studio</h1>
        </div>
        <SignInForm callbackUrl={callbackUrl} providers={oauthProviders()} initialError={refusal} />
        {demoSignIns.length ? (
          <aside data-testid="demo-mode-note" className="mt-6 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-xs text-amber-900">
            <p className="font-medium">Demo mode: demo accounts with published passwords are enabled. Do not expose this server.</p>
            <ul className="mt-1 space-y-0.5 font-mono">
              {demoSignIns.map((d) => (
                <li key={d.email}>
                  {d.email} / {d.password} ({d.role})
                </li>
              ))}
            </ul>
          </aside>
        ) : null}
      </div>
    </main>
  );
}
