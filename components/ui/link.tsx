// The dashboard's one link component: Next's Link without prefetching unless a link asks for it.
// Every page here is dynamic (it reads the session and live data), so a prefetch renders the
// shared layout on the server for each link on screen: an overview load prefetched about forty
// routes twice, which on a busy server queued behind them the navigation the user asked for.
// Navigation stays client-side. (No loading boundary either: a page that streams a fallback first answers 200
// before it can refuse a role, and the 403 pages must say 403.)
import NextLink from "next/link";
import type { ComponentProps } from "react";

export default function Link({ prefetch = false, ...props }: ComponentProps<typeof NextLink>) {
  return <NextLink prefetch={prefetch} {...props} />;
}
