"use client";
import { useEffect, useState } from "react";

function format(ms: number): string {
  if (ms <= 0) return "expiring now";
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (d > 0) return `expires in ${d}d ${h}h`;
  if (h > 0) return `expires in ${h}h ${m}m`;
  return `expires in ${m}m ${String(sec).padStart(2, "0")}s`;
}

/**
 * A live countdown to `expiresAt`. `clockSkewMs` (server time minus browser
 * time) keeps it right when the browser's clock is off.
 */
export function Countdown({ expiresAt, clockSkewMs = 0, testId = "approval-countdown" }: { expiresAt: string; clockSkewMs?: number; testId?: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);
  const left = Date.parse(expiresAt) - (now + clockSkewMs);
  return (
    <time dateTime={expiresAt} title={expiresAt} className={left < 5 * 60_000 ? "font-medium text-red-700" : "text-zinc-600"} data-testid={testId}>
      {format(left)}
    </time>
  );
}
