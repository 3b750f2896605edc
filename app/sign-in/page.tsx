import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getSessionUser } from "@/lib/auth/server/session";
import { oauthProviders } from "@/lib/auth/server/auth";
import { SignInForm } from "./sign-in-client";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  if (await getSessionUser()) redirect("/");
  const params = await searchParams;
  const callbackUrl = typeof params.callbackUrl === "string" ? params.callbackUrl : "/";
  return (
    <main className="grid min-h-screen place-items-center px-4">
      <div className="w-full max-w-sm">
        <div className="mb-8 text-center">
          <span aria-hidden className="mx-auto grid h-10 w-10 place-items-center rounded-lg bg-indigo-600 text-lg font-semibold text-white">
            Z
          </span>
          <h1 className="mt-4 text-xl font-semibold tracking-tight">Sign in to Zap Studio</h1>
        </div>
        <SignInForm callbackUrl={callbackUrl} providers={oauthProviders()} />
      </div>
    </main>
  );
}
