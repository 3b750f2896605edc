"use client";
// "Columns": which of the runs list's columns to show, kept in this browser.
import { RUN_COLUMNS, type RunColumn } from "./run-columns";

export function ColumnPicker({ shown, onChoose, onReset }: { shown: RunColumn[]; onChoose: (column: RunColumn, on: boolean) => void; onReset: () => void }) {
  return (
    <details className="relative text-sm" data-testid="column-picker">
      <summary className="cursor-pointer list-none rounded-md px-3 py-1.5 ring-1 ring-inset ring-zinc-300 hover:bg-zinc-50">Columns ({shown.length + 1})</summary>
      <fieldset className="absolute right-0 z-20 mt-1 w-52 space-y-1 rounded-md border border-zinc-200 bg-white p-3 shadow-lg">
        <legend className="sr-only">Columns shown</legend>
        <p className="text-xs text-zinc-500">The run&apos;s column always shows.</p>
        {RUN_COLUMNS.map((column) => (
          <label key={column.id} className="flex items-center gap-2">
            <input type="checkbox" checked={shown.includes(column.id)} onChange={(e) => onChoose(column.id, e.target.checked)} />
            {column.label}
          </label>
        ))}
        <button type="button" onClick={onReset} className="pt-1 text-xs text-indigo-700 hover:underline">
          Default columns
        </button>
      </fieldset>
    </details>
  );
}
