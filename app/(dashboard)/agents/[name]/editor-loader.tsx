"use client";
// The editor renders in the browser only: it reads a kept draft from
// localStorage before its first render and React Flow measures the DOM.
import dynamic from "next/dynamic";
import type { EditorProps } from "./editor-client";

const EditorClient = dynamic(() => import("./editor-client"), {
  ssr: false,
  loading: () => <p className="text-sm text-zinc-500">Loading the designer…</p>,
});

export function EditorLoader(props: EditorProps) {
  return <EditorClient {...props} />;
}
