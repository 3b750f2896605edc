// Every relative link and anchor in README.md and docs/*.md points at something
// that exists, and every page under docs/ is reachable from the README: the
// README is the front door, and a moved section must not leave a dead link or
// an orphaned page behind.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.join(import.meta.dirname, "..");
const DOCS = path.join(ROOT, "docs");

type Link = { target: string; line: number };

/** Markdown outside fenced code blocks and inline code spans, line by line (code is not prose: `[x](y)` there is no link). */
function proseLines(markdown: string): string[] {
  let fenced = false;
  return markdown.split("\n").map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return "";
    }
    return fenced ? "" : line.replace(/`[^`]*`/g, "");
  });
}

/** Targets of inline links and images, `[text](target)` / `![alt](target "title")`, with their line numbers. */
function linksIn(markdown: string): Link[] {
  const links: Link[] = [];
  proseLines(markdown).forEach((line, index) => {
    for (const match of line.matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*([^)\s]+)(?:\s+"[^"]*")?\s*\)/g)) {
      if (match[1]) links.push({ target: match[1], line: index + 1 });
    }
  });
  return links;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2, …. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading?.[1]) continue;
    const text = heading[1].replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1");
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

/** The broken links of one Markdown file, each as "file:line → target (why)". */
function brokenLinks(file: string, read: (file: string) => string = (f) => readFileSync(f, "utf8")): string[] {
  const problems: string[] = [];
  const where = (line: number) => `${path.relative(ROOT, file)}:${line}`;
  for (const { target, line } of linksIn(read(file))) {
    if (isExternal(target)) continue;
    const [rawPath = "", anchor] = target.split("#", 2);
    const resolved = rawPath === "" ? file : path.resolve(path.dirname(file), decodeURIComponent(rawPath));
    if (rawPath !== "" && !existsSync(resolved)) {
      problems.push(`${where(line)} → ${target} (no such file)`);
      continue;
    }
    if (anchor === undefined || anchor === "") continue;
    if (!resolved.endsWith(".md") || (rawPath !== "" && statSync(resolved).isDirectory())) {
      problems.push(`${where(line)} → ${target} (an anchor into something that is not a Markdown file)`);
    } else if (!headingAnchors(read(resolved)).has(decodeURIComponent(anchor).toLowerCase())) {
      problems.push(`${where(line)} → ${target} (no heading #${anchor} in ${path.relative(ROOT, resolved)})`);
    }
  }
  return problems;
}

const docPages = () =>
  readdirSync(DOCS)
    .filter((name) => name.endsWith(".md"))
    .map((name) => path.join(DOCS, name));

describe("the README and docs/ link only to what exists", () => {
  it("every relative link and anchor resolves", () => {
    const files = [path.join(ROOT, "README.md"), ...docPages()];
    expect(files.length).toBeGreaterThan(5);
    expect(files.flatMap((file) => brokenLinks(file))).toEqual([]);
  });

  it("every page under docs/ is linked from the README", () => {
    const linked = new Set(
      linksIn(readFileSync(path.join(ROOT, "README.md"), "utf8"))
        .filter(({ target }) => !isExternal(target))
        .map(({ target }) => path.resolve(ROOT, decodeURIComponent(target.split("#")[0] ?? ""))),
    );
    expect(docPages().filter((page) => !linked.has(page)).map((page) => path.relative(ROOT, page))).toEqual([]);
  });

  it("the README shows the screenshots the e2e step takes", () => {
    const images = linksIn(readFileSync(path.join(ROOT, "README.md"), "utf8")).map(({ target }) => target);
    for (const name of ["designer", "run-trace", "plan-dag", "inbox"]) expect(images).toContain(`docs/images/${name}.png`);
  });
});

describe("the link checker", () => {
  const files: Record<string, string> = {
    [path.join(ROOT, "README.md")]: "# Zap\n\n## Two commands\n\n## Two commands\n",
  };
  const read = (file: string) => files[file] ?? readFileSync(file, "utf8");
  const check = (markdown: string) => {
    const file = path.join(DOCS, "fixture.md");
    files[file] = markdown;
    return brokenLinks(file, read);
  };

  it("finds links and images in prose, not in code", () => {
    const markdown = "See [a](a.md) and ![b](img/b.png \"B\").\n`[c](c.md)`\n```\n[d](d.md)\n```\n| [e](e.md#x) |";
    expect(linksIn(markdown)).toEqual([
      { target: "a.md", line: 1 },
      { target: "img/b.png", line: 1 },
      { target: "e.md#x", line: 6 },
    ]);
  });

  it("makes GitHub's anchors, numbering repeats", () => {
    expect([...headingAnchors("## Loop control: the termination table\n### Typed answers: `return`, `fail`, repair\n# API keys\n# API keys")]).toEqual([
      "loop-control-the-termination-table",
      "typed-answers-return-fail-repair",
      "api-keys",
      "api-keys-1",
    ]);
  });

  it("refuses a missing file, a missing anchor and an anchor into a folder, and accepts what exists", () => {
    expect(check("[ok](../README.md#two-commands) [ok](../README.md#two-commands-1) [web](https://example.com/x.md) [self](#nothing-here)")).toEqual([
      "docs/fixture.md:1 → #nothing-here (no heading #nothing-here in docs/fixture.md)",
    ]);
    expect(check("[gone](gone.md)\n[anchor](../README.md#status)\n[folder](../lib#x)")).toEqual([
      "docs/fixture.md:1 → gone.md (no such file)",
      "docs/fixture.md:2 → ../README.md#status (no heading #status in README.md)",
      "docs/fixture.md:3 → ../lib#x (an anchor into something that is not a Markdown file)",
    ]);
  });
});
