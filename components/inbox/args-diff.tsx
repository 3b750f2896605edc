import { diffArguments } from "@/lib/inbox/arguments";

/** What an approver changed: one line per changed key, as text. */
export function ArgsDiff({ before, after }: { before: Record<string, unknown>; after: Record<string, unknown> }) {
  const lines = diffArguments(before, after);
  if (lines.length === 0) return <p className="text-xs text-zinc-500">No changes to the arguments.</p>;
  return (
    <table aria-label="Changed arguments" className="w-full text-left font-mono text-xs">
      <thead>
        <tr className="text-zinc-500">
          <th className="pr-2 font-medium">argument</th>
          <th className="pr-2 font-medium">requested</th>
          <th className="font-medium">approved</th>
        </tr>
      </thead>
      <tbody>
        {lines.map((line) => (
          <tr key={line.key}>
            <td className="pr-2 align-top">{line.key}</td>
            <td className="pr-2 align-top text-red-700 line-through">{line.before ?? "—"}</td>
            <td className="align-top text-emerald-700">{line.after ?? "—"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
