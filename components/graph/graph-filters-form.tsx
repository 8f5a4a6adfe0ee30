"use client";

import { useEffect, useState } from "react";
import { BELIEF_STATUSES, EDGE_KINDS } from "@/lib/engine/model";
import { EDGE_LABELS } from "./graph-legend";
import { hasFilters, TEXT_FILTER_MAX, withoutFilters, type GraphViewParams } from "./graph-view-params";

const fieldClass = "w-full rounded border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900";

/** Filters as form controls; every change goes straight to the URL (through `onChange`). */
export function GraphFiltersForm({ view, topics, onChange }: { view: GraphViewParams; topics: readonly string[]; onChange(next: GraphViewParams): void }) {
  const [text, setText] = useState(view.text ?? "");
  // Whether the box holds typing not yet sent: only typing is sent, never a value the box has not caught up on (after
  // "Clear filters" the box still shows the old words for one render, and must not send them back).
  const [typed, setTyped] = useState(false);
  useEffect(() => {
    setText(view.text ?? "");
    setTyped(false);
  }, [view.text]);
  useEffect(
    function debounceText() {
      if (!typed || (view.text ?? "") === text.trim() || text.trim().length > TEXT_FILTER_MAX) return;
      const timer = setTimeout(() => onChange({ ...view, text: text.trim() || undefined }), 300);
      return () => clearTimeout(timer);
    },
    [text, typed, view, onChange],
  );

  function toggle<T extends string>(list: readonly T[], value: T): T[] {
    return list.includes(value) ? list.filter((v) => v !== value) : [...list, value];
  }

  function range(name: "minCredence" | "maxCredence" | "minTension" | "maxTension", raw: string) {
    const value = raw === "" ? undefined : Math.min(1, Math.max(0, Number(raw)));
    onChange({ ...view, [name]: value === undefined || Number.isNaN(value) ? undefined : value });
  }

  return (
    <form aria-label="Graph filters" className="space-y-3 text-sm" onSubmit={(e) => e.preventDefault()} data-testid="graph-filters">
      <div>
        <label htmlFor="graph-text" className="mb-1 block text-xs font-semibold">Search belief text</label>
        <input
          id="graph-text"
          type="search"
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setTyped(true);
          }}
          className={`${fieldClass} ${text.trim().length > TEXT_FILTER_MAX ? "border-red-600 dark:border-red-500" : ""}`}
          placeholder="deploy branch"
          aria-invalid={text.trim().length > TEXT_FILTER_MAX}
          aria-describedby={text.trim().length > TEXT_FILTER_MAX ? "graph-text-error" : undefined}
        />
        {text.trim().length > TEXT_FILTER_MAX ? (
          <p id="graph-text-error" role="alert" className="mt-1 text-xs text-red-700 dark:text-red-400">
            Shorten the text to {TEXT_FILTER_MAX} characters or fewer (it has {text.trim().length.toLocaleString("en")}): the filter is not applied.
          </p>
        ) : null}
      </div>
      <fieldset>
        <legend className="mb-1 text-xs font-semibold">Status</legend>
        <div className="flex flex-wrap gap-x-3 gap-y-1">
          {BELIEF_STATUSES.map((s) => (
            <label key={s} className="inline-flex items-center gap-1">
              <input type="checkbox" checked={view.statuses.includes(s)} onChange={() => onChange({ ...view, statuses: toggle(view.statuses, s) })} />
              {s.replaceAll("_", " ")}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset className="grid grid-cols-2 gap-2">
        <legend className="mb-1 text-xs font-semibold">Credence and tension (0–1)</legend>
        {(
          [
            ["minCredence", "Credence from"],
            ["maxCredence", "Credence to"],
            ["minTension", "Tension from"],
            ["maxTension", "Tension to"],
          ] as const
        ).map(([name, label]) => (
          <label key={name} className="text-xs">
            {label}
            <input type="number" min={0} max={1} step={0.05} value={view[name] ?? ""} onChange={(e) => range(name, e.target.value)} className={fieldClass} />
          </label>
        ))}
      </fieldset>
      <div>
        <label htmlFor="graph-topic" className="mb-1 block text-xs font-semibold">Topic</label>
        <select id="graph-topic" value={view.topic ?? ""} onChange={(e) => onChange({ ...view, topic: e.target.value || undefined })} className={fieldClass}>
          <option value="">All topics</option>
          {view.topic && !topics.includes(view.topic) ? <option value={view.topic}>{view.topic}</option> : null}
          {topics.map((t) => (
            <option key={t} value={t}>{t}</option>
          ))}
        </select>
      </div>
      <fieldset>
        <legend className="mb-1 text-xs font-semibold">Edge types (none ticked: all)</legend>
        <div className="flex flex-wrap gap-x-3 gap-y-1">
          {EDGE_KINDS.map((k) => (
            <label key={k} className="inline-flex items-center gap-1 text-xs">
              <input type="checkbox" checked={view.edgeTypes.includes(k)} onChange={() => onChange({ ...view, edgeTypes: toggle(view.edgeTypes, k) })} />
              {EDGE_LABELS[k]}
            </label>
          ))}
        </div>
      </fieldset>
      {hasFilters(view) ? (
        <button type="button" className="text-sm text-sky-700 hover:underline dark:text-sky-400" onClick={() => onChange(withoutFilters(view))}>
          Clear filters
        </button>
      ) : null}
    </form>
  );
}
