import "server-only";
import { z } from "zod";

// Auth.js's GitHub provider takes the profile's public email, or else the
// primary one, without asking whether GitHub verified it. Anyone can add an
// unverified address to a GitHub account, so we ask for the list of emails and
// keep only the primary *verified* one, flagged as `email_verified`.

const API = "https://api.github.com";

const emailsSchema = z.array(z.object({ email: z.string(), primary: z.boolean(), verified: z.boolean() }).loose());

async function githubJson(path: string, accessToken: string | undefined): Promise<unknown> {
  const response = await fetch(`${API}${path}`, {
    headers: { Authorization: `Bearer ${accessToken ?? ""}`, "User-Agent": "zap-studio", Accept: "application/vnd.github+json" },
    redirect: "error",
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`GitHub answered ${response.status} to ${path}`);
  return response.json();
}

/** The GitHub user-info request: the user's profile with `email` set to their primary verified email (or null) and `email_verified`. */
export const githubVerifiedEmailUserinfo = {
  url: `${API}/user`,
  async request({ tokens }: { tokens: { access_token?: string } }): Promise<Record<string, unknown>> {
    const profile = z.record(z.string(), z.unknown()).parse(await githubJson("/user", tokens.access_token));
    const emails = emailsSchema.safeParse(await githubJson("/user/emails", tokens.access_token));
    const verified = emails.success ? emails.data.find((e) => e.primary && e.verified) : undefined;
    return { ...profile, email: verified?.email ?? null, email_verified: verified !== undefined };
  },
};
