"use client";
// The system prompt in CodeMirror: {{context.…}} placeholders are highlighted,
// and typing `{{` offers the context paths the graph's prompts already use.
import { useMemo } from "react";
import CodeMirror from "@uiw/react-codemirror";
import { Decoration, EditorView, MatchDecorator, ViewPlugin, type DecorationSet, type ViewUpdate } from "@codemirror/view";
import { autocompletion, type CompletionContext, type CompletionResult } from "@codemirror/autocomplete";

const PLACEHOLDER = /\{\{\s*context(?:\.[A-Za-z0-9_]+)*\s*\}\}/g;

const placeholderMatcher = new MatchDecorator({ regexp: PLACEHOLDER, decoration: Decoration.mark({ class: "cm-context-placeholder" }) });

const placeholderHighlight = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = placeholderMatcher.createDeco(view);
    }
    update(update: ViewUpdate) {
      this.decorations = placeholderMatcher.updateDeco(update, this.decorations);
    }
  },
  { decorations: (v) => v.decorations },
);

const theme = EditorView.theme({
  "&": { fontSize: "12px", border: "1px solid #d4d4d8", borderRadius: "6px" },
  ".cm-context-placeholder": { backgroundColor: "#e0e7ff", color: "#3730a3", borderRadius: "3px" },
  ".cm-content": { fontFamily: "ui-monospace, SFMono-Regular, Menlo, monospace" },
});

/** Context paths seen in any prompt of the graph, plus the bare `context`. */
export function contextPaths(prompts: readonly string[]): string[] {
  const paths = new Set<string>(["context"]);
  for (const prompt of prompts) for (const match of prompt.matchAll(PLACEHOLDER)) paths.add(match[0].replace(/[{}\s]/g, ""));
  return [...paths].sort();
}

export function PromptEditor({ id, value, onChange, readOnly, knownPaths }: { id: string; value: string; onChange: (value: string) => void; readOnly: boolean; knownPaths: readonly string[] }) {
  const extensions = useMemo(() => {
    const complete = (context: CompletionContext): CompletionResult | null => {
      const before = context.matchBefore(/\{\{\s*[\w.]*/);
      if (!before) return null;
      const start = before.from + before.text.indexOf("{{") + 2;
      return {
        from: start,
        options: knownPaths.map((path) => ({ label: path, apply: `${path}}}`, detail: "context placeholder" })),
        validFor: /^[\w.]*$/,
      };
    };
    return [placeholderHighlight, theme, EditorView.lineWrapping, autocompletion({ override: [complete], activateOnTyping: true }), EditorView.contentAttributes.of({ "aria-labelledby": `${id}-label` })];
  }, [id, knownPaths]);
  return (
    <div data-testid="prompt-editor">
      <CodeMirror value={value} onChange={onChange} extensions={extensions} editable={!readOnly} readOnly={readOnly} basicSetup={{ lineNumbers: false, foldGutter: false, highlightActiveLine: false }} minHeight="120px" maxHeight="320px" />
    </div>
  );
}
