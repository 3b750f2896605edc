"use client";
// The run page's follow-up: a message and up to five images (attached with the
// button, dropped or pasted; uploaded as they come), sent as one signal or
// continuation by the follow-up action.
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { ImagePicker, imagesNotReady } from "@/components/attachments/image-picker";
import { useImageAttachments } from "@/components/attachments/use-image-attachments";
import { sendFollowUpAction } from "@/lib/actions/send-follow-up";

export interface Notice {
  tone: "error" | "ok";
  text: string;
}

export function FollowUpComposer({ runId, onNotice, onSent }: { runId: string; onNotice: (notice: Notice) => void; onSent: () => void }) {
  const [message, setMessage] = useState("");
  const [busy, setBusy] = useState(false);
  const images = useImageAttachments();
  const waitingFor = imagesNotReady(images);

  async function send(event: FormEvent) {
    event.preventDefault();
    if (waitingFor) return;
    setBusy(true);
    const result = await sendFollowUpAction({ runId, content: message, ...(images.inputs.length ? { images: images.inputs } : {}) });
    setBusy(false);
    if (result.ok) {
      setMessage("");
      images.clear();
      onNotice({ tone: "ok", text: "Follow-up sent." });
      onSent();
    } else onNotice({ tone: "error", text: result.error.message });
  }

  return (
    <form onSubmit={send} {...images.dropTarget} aria-label="Follow-up" className={`space-y-2 rounded-md ${images.dragging ? "ring-4 ring-indigo-300" : ""}`}>
      <div className="flex gap-2">
        <label className="sr-only" htmlFor="follow-up">
          Follow-up message
        </label>
        <input id="follow-up" value={message} onChange={(e) => setMessage(e.target.value)} placeholder="Send a follow-up message…" className="flex-1 rounded-md px-3 py-2 text-sm ring-1 ring-zinc-300 ring-inset" />
        <Button type="submit" disabled={busy || !message.trim() || waitingFor !== null}>
          Send follow-up
        </Button>
      </div>
      <ImagePicker attachments={images} disabled={busy} />
      {waitingFor ? <p className="text-xs text-zinc-600">{waitingFor}</p> : null}
    </form>
  );
}
