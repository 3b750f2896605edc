import type { Metadata } from "next";
import type { ReactNode } from "react";
import { connection } from "next/server";
import { Providers } from "@/components/providers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Zap Studio", template: "%s · Zap Studio" },
  description: "Design, run, trace and approve LLM agents on Temporal.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request: Next stamps its inline scripts with the
  // request's CSP nonce (proxy.ts), which a page prerendered at build cannot carry.
  await connection();
  return (
    <html lang="en">
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
