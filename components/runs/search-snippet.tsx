// A search result under its run in the runs list: where the words were found,
// the snippet with the matched words marked, and a link to the span. The parts
// are rendered as text, so a run's own words never become markup.
import { Fragment } from "react";
import Link from "@/components/ui/link";
import { hitHref, SEARCH_SOURCE_LABELS, type SearchHit } from "@/lib/search/schemas";

export function SearchSnippet({ hit }: { hit: SearchHit }) {
  return (
    <p data-testid="search-snippet" className="mt-1 max-w-xl text-xs text-zinc-700">
      <span className="mr-1 rounded bg-zinc-100 px-1 text-[10px] uppercase tracking-wide text-zinc-500">{SEARCH_SOURCE_LABELS[hit.source]}</span>
      {hit.snippet.map((part, i) =>
        part.hit ? (
          <mark key={i} className="rounded bg-amber-100 px-0.5 text-zinc-900">
            {part.text}
          </mark>
        ) : (
          <Fragment key={i}>{part.text}</Fragment>
        ),
      )}{" "}
      <Link href={hitHref(hit)} className="whitespace-nowrap text-indigo-700 hover:underline">
        {hit.spanId ? "open at the span" : "open the run"}
      </Link>
    </p>
  );
}
