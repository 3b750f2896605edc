"use client";
// The run dialog's context editor in CodeMirror: JSON highlighting, bracket
// matching and folding, a lint mark where the text stops parsing (the message
// with its line and column is also shown below, for screen readers), completion
// of the keys the prompts' placeholders use, and a Format button. Tab indents
// as before; CodeMirror's Escape-then-Tab leaves the editor, so focus is never
// trapped. The value stays text; the parent parses it with `parseJsonObject`.
import { useId, useMemo } from "react";
import CodeMirror from "@uiw/react-codemirror";
import { EditorView } from "@codemirror/view";
import { json } from "@codemirror/lang-json";
import { linter, type Diagnostic } from "@codemirror/lint";
import { autocompletion, type CompletionContext, type CompletionResult } from "@codemirror/autocomplete";
import { contextKeySuggestions, keyPathAt, parseJsonObject } from "@/lib/runs/context-json";

const theme = EditorView.theme({
  "&": { fontSize: "12px" },
  "&.cm-focused": { outline: "none" },
  ".cm-content": { fontFamily: "ui-monospace, SFMono-Regular, Menlo, monospace" },
  ".cm-gutters": { backgroundColor: "#f4f4f5", color: "#a1a1aa", border: "none" },
});

const contextLinter = linter(
  (view): Diagnostic[] => {
    const text = view.state.doc.toString();
    const parsed = parseJsonObject(text);
    if (parsed.ok) return [];
    const from = Math.min(parsed.from, text.length);
    return [{ from, to: Math.min(from + 1, text.length), severity: "error", message: parsed.error }];
  },
  { delay: 150 },
);

function keyCompletion(placeholders: readonly string[]) {
  return (context: CompletionContext): CompletionResult | null => {
    const text = context.state.doc.toString();
    const path = keyPathAt(text, context.pos);
    if (!path) return null;
    const typed = context.matchBefore(/"[\w.-]*/);
    if (!typed && !context.explicit) return null;
    const options = contextKeySuggestions(placeholders, path);
    if (!options.length) return null;
    // Close-brackets has usually inserted the closing quote already; replace it too.
    const to = typed && text[context.pos] === '"' ? context.pos + 1 : context.pos;
    return {
      from: typed ? typed.from : context.pos,
      to,
      options: options.map(({ key, object }) => ({ label: `"${key}"`, apply: `"${key}": `, detail: object ? "object the prompts use" : "used by the prompts", type: "property" })),
      validFor: /^"?[\w.-]*$/,
    };
  };
}

const NO_PLACEHOLDERS: readonly string[] = [];

export function JsonEditor({ value, onChange, label, placeholders = NO_PLACEHOLDERS, rows = 8 }: { value: string; onChange: (text: string) => void; label: string; placeholders?: readonly string[]; rows?: number }) {
  const id = useId();
  const labelId = `${id}-label`;
  const errorId = `${id}-error`;
  const parsed = useMemo(() => parseJsonObject(value), [value]);
  const extensions = useMemo(
    () => [
      json(),
      contextLinter,
      theme,
      autocompletion({ override: [keyCompletion(placeholders)], activateOnTyping: true }),
      // The editable element is a contenteditable div, so it is labelled by id rather than by <label for>.
      EditorView.contentAttributes.of({ "aria-labelledby": labelId, "aria-multiline": "true" }),
    ],
    [labelId, placeholders],
  );
  // aria-invalid changes with every keystroke; a separate extension keeps the rest stable.
  const validity = useMemo(() => EditorView.contentAttributes.of(parsed.ok ? { "aria-invalid": "false" } : { "aria-invalid": "true", "aria-describedby": errorId }), [parsed.ok, errorId]);
  const height = `${rows * 1.25 + 1}rem`;
  return (
    <div data-testid="context-editor">
      <div className="mb-1 flex items-center justify-between">
        <span id={labelId} className="text-sm font-medium text-zinc-800">
          {label}
        </span>
        <button
          type="button"
          className="text-xs text-indigo-600 hover:underline disabled:text-zinc-400"
          disabled={!parsed.ok}
          onClick={() => parsed.ok && onChange(JSON.stringify(parsed.value, null, 2))}
        >
          Format
        </button>
      </div>
      <div className={`overflow-hidden rounded-md border ${parsed.ok ? "border-zinc-300" : "border-red-400"}`}>
        <CodeMirror
          value={value}
          onChange={onChange}
          extensions={[...extensions, validity]}
          basicSetup={{ highlightActiveLine: false, highlightActiveLineGutter: false, searchKeymap: false }}
          minHeight={height}
          maxHeight="20rem"
        />
      </div>
      {!parsed.ok ? (
        <p id={errorId} role="alert" className="mt-1 text-xs text-red-600">
          {parsed.error}
        </p>
      ) : null}
    </div>
  );
}
