"use client";
// The run page's follow-up: a message and up to five images (attached with the
// button, dropped or pasted; uploaded as they come), sent by the follow-up
// action under the graph's follow-up policy; a refusal (409) shows its reason.
import { useEffect, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { ImagePicker, imagesNotReady } from "@/components/attachments/image-picker";
import { useImageAttachments } from "@/components/attachments/use-image-attachments";
import { sendFollowUpAction } from "@/lib/actions/send-follow-up";

export interface Notice {
  tone: "error" | "ok";
  text: string;
}

/** How long the page keeps asking for the run's reaction to a follow-up before it leaves it to a reload. */
const AWAIT_REACTION_MS = 30_000;

export function FollowUpComposer({
  runId,
  lastEventSeq,
  onNotice,
  onRefresh,
}: {
  runId: string;
  /** The last ledger event the page has read. */
  lastEventSeq: number;
  onNotice: (notice: Notice) => void;
  /** Reads the run's tail again. */
  onRefresh: () => void;
}) {
  const [message, setMessage] = useState("");
  const [busy, setBusy] = useState(false);
  // The event seq when the last follow-up was accepted, until the run's ledger moves past it.
  const [sentAt, setSentAt] = useState<number | null>(null);
  const images = useImageAttachments();
  const waitingFor = imagesNotReady(images);

  // A follow-up to a finished run starts its continuation just after the action
  // returns: one read then still finds the run "completed", and the tail stops
  // polling a finished run, so the new turn never showed. The tail is read
  // again each second until the continuation's first event arrives.
  const awaiting = sentAt !== null && lastEventSeq <= sentAt;
  useEffect(() => {
    if (!awaiting) return;
    const every = setInterval(onRefresh, 1000);
    const giveUp = setTimeout(() => setSentAt(null), AWAIT_REACTION_MS);
    return () => {
      clearInterval(every);
      clearTimeout(giveUp);
    };
  }, [awaiting, onRefresh]);

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
      setSentAt(lastEventSeq);
      onRefresh();
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
