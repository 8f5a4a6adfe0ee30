"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition, type FormEvent } from "react";
import { ingestAction } from "@/lib/actions/ingest-actions";
import type { IngestResult } from "@/lib/beliefs/belief-services";
import { Label, buttonClass, inputClass, secondaryButtonClass } from "@/components/ui/form";
import { editCount, editsRequest, NO_EDITS, type IngestEditState } from "./ingest-edits";
import { IngestResultView } from "./ingest-result-view";
import { splitForIngest } from "./split-for-ingest";

const KINDS = ["observation", "model_output", "document", "measurement", "executable_check", "held_out_truth"] as const;
type Kind = (typeof KINDS)[number];

/** What the server does for each part (docs/design.md §4.3), shown while a part is being processed. */
const STEPS = ["Register the text as evidence", "Assess ESS, reasoning type and manipulation", "Harvest claims", "Relate claims to live beliefs", "Stage one change-set"];

/** Longer pastes are sent part by part (one Evidence item each) so the page can show progress and stay under the 20 000-character limit. */
const PART_CHARS = 4_000;

type Phase =
  | { name: "edit" }
  | { name: "running"; dryRun: boolean; done: number; total: number; results: IngestResult[] }
  | { name: "staged"; parts: string[]; results: IngestResult[]; edits: IngestEditState[] }
  | { name: "committed"; results: IngestResult[] };

export function IngestWorkbench({ scope }: { scope: string }) {
  const router = useRouter();
  const [phase, setPhase] = useState<Phase>({ name: "edit" });
  const [error, setError] = useState<string | null>(null);
  const [fields, setFields] = useState<{ text: string; kind: Kind; topic: string }>({ text: "", kind: "observation", topic: "" });
  const [, startTransition] = useTransition();
  const parts = splitForIngest(fields.text, PART_CHARS);
  const locked = phase.name !== "edit" && phase.name !== "committed";

  /**
   * Runs each part in order. A commit sends each part's edits; with one part it also names the dry run's plan, so the
   * server refuses (and writes nothing) if the text now reads differently. Later parts of a longer paste see what the
   * earlier ones wrote, so their reading may move: their edits are checked by claim and belief only.
   */
  async function runParts(list: string[], dryRun: boolean, staged?: { results: IngestResult[]; edits: IngestEditState[] }): Promise<IngestResult[] | null> {
    const results: IngestResult[] = [];
    setPhase({ name: "running", dryRun, done: 0, total: list.length, results });
    for (const [i, text] of list.entries()) {
      const partEdits = staged?.edits[i];
      const edits = partEdits && (editCount(partEdits) > 0 || list.length === 1) ? editsRequest(partEdits, list.length === 1 ? (staged?.results[i]?.planId ?? null) : null) : undefined;
      const result = await ingestAction({ scope, text, kind: fields.kind, topic: fields.topic, dryRun, ...(edits ? { edits } : {}) });
      if (!result.ok) {
        const where = list.length > 1 ? `Part ${i + 1} of ${list.length}: ` : "";
        const written = !dryRun && i > 0 ? ` Parts 1–${i} were committed.` : "";
        setError(`${where}${result.error.fields?.text ?? result.error.message}${written}`);
        return null;
      }
      results.push(result.data);
      setPhase({ name: "running", dryRun, done: i + 1, total: list.length, results: [...results] });
    }
    return results;
  }

  function onDryRun(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    if (parts.length === 0) {
      setError("Paste some text to ingest.");
      return;
    }
    const list = parts;
    startTransition(async () => {
      const results = await runParts(list, true);
      setPhase(results ? { name: "staged", parts: list, results, edits: results.map(() => NO_EDITS) } : { name: "edit" });
    });
  }

  function onCommit() {
    if (phase.name !== "staged") return;
    const list = phase.parts;
    const staged = { results: phase.results, edits: phase.edits };
    setError(null);
    startTransition(async () => {
      const results = await runParts(list, false, staged);
      if (results) {
        setPhase({ name: "committed", results });
        router.refresh();
      } else setPhase({ name: "edit" });
    });
  }

  function onDiscard() {
    setPhase({ name: "edit" });
    setError(null);
  }

  function onStartOver() {
    setFields({ text: "", kind: fields.kind, topic: fields.topic });
    setPhase({ name: "edit" });
  }

  const shown = phase.name === "edit" ? [] : phase.results;
  const edited = phase.name === "staged" ? phase.edits.reduce((n, e) => n + editCount(e), 0) : 0;
  const setPartEdits = (i: number, next: IngestEditState) => setPhase((p) => (p.name === "staged" ? { ...p, edits: p.edits.map((e, j) => (j === i ? next : e)) } : p));
  return (
    <div className="space-y-6">
      <form onSubmit={onDryRun} aria-label="Ingest text" className="space-y-4">
        <div>
          <Label htmlFor="ingest-text">Text or model output</Label>
          <textarea
            id="ingest-text"
            name="text"
            rows={8}
            required
            readOnly={locked || phase.name === "committed"}
            value={fields.text}
            onChange={(e) => setFields({ ...fields, text: e.target.value })}
            className={`${inputClass} font-mono`}
            placeholder="Paste a statement, a document excerpt or an agent's answer…"
          />
          <p className="mt-1 text-xs text-zinc-500" data-testid="ingest-size">
            {fields.text.length.toLocaleString()} characters{parts.length > 1 ? ` · will be processed as ${parts.length} parts, one evidence item each` : ""}
          </p>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <Label htmlFor="ingest-kind">Evidence kind (caps the tier it can back)</Label>
            <select id="ingest-kind" name="kind" value={fields.kind} disabled={locked} onChange={(e) => setFields({ ...fields, kind: e.target.value as Kind })} className={inputClass}>
              {KINDS.map((k) => <option key={k} value={k}>{k.replaceAll("_", " ")}</option>)}
            </select>
          </div>
          <div>
            <Label htmlFor="ingest-topic">Topic (optional)</Label>
            <input id="ingest-topic" name="topic" value={fields.topic} disabled={locked} onChange={(e) => setFields({ ...fields, topic: e.target.value })} className={inputClass} placeholder="assigned by similarity when empty" />
          </div>
        </div>
        <div className="flex flex-wrap gap-3">
          {phase.name === "edit" ? (
            <button type="submit" className={buttonClass}>Dry run</button>
          ) : null}
          {phase.name === "staged" ? (
            <>
              <button type="button" className={buttonClass} onClick={onCommit}>
                Commit {phase.parts.length > 1 ? `${phase.parts.length} parts` : "change-set"}
                {edited > 0 ? ` with ${edited} edit${edited === 1 ? "" : "s"}` : ""}
              </button>
              <button type="button" className={secondaryButtonClass} onClick={onDiscard}>Discard</button>
            </>
          ) : null}
          {phase.name === "committed" ? (
            <button type="button" className={secondaryButtonClass} onClick={onStartOver}>Ingest more</button>
          ) : null}
        </div>
      </form>

      {error ? <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">{error}</p> : null}

      {phase.name === "running" ? (
        <section aria-live="polite" className="space-y-3 rounded-lg border border-sky-200 bg-sky-50 p-4 dark:border-sky-900 dark:bg-sky-950/40" data-testid="ingest-progress">
          <p className="text-sm font-medium">
            {phase.dryRun ? "Dry run" : "Committing"}: part {Math.min(phase.done + 1, phase.total)} of {phase.total}
          </p>
          <div role="progressbar" aria-label="Ingest progress" aria-valuemin={0} aria-valuemax={phase.total} aria-valuenow={phase.done} className="h-2 overflow-hidden rounded bg-sky-100 dark:bg-sky-900">
            <div className="h-full bg-sky-600 transition-all" style={{ width: `${Math.round((phase.done / phase.total) * 100)}%` }} />
          </div>
          <ol className="space-y-1 text-sm text-zinc-700 dark:text-zinc-300">
            {STEPS.map((step) => (
              <li key={step} className="flex items-center gap-2">
                <span aria-hidden className="inline-block h-2 w-2 animate-pulse rounded-full bg-sky-600" />
                {step}
              </li>
            ))}
          </ol>
        </section>
      ) : null}

      {phase.name === "staged" ? (
        <p role="status" className="text-sm text-zinc-700 dark:text-zinc-300" data-testid="ingest-staged">
          Nothing has been written yet. Review the staged change-set below, then commit or discard it. Untick a claim or a
          relation to leave it out, or change a relation&apos;s kind: the commit writes only what is left, as you set it.
          {phase.parts.length > 1 ? " Each part was staged on its own; committing runs them in order, so later parts also see the earlier ones." : ""}
        </p>
      ) : null}
      {phase.name === "committed" ? (
        <p role="status" className="text-sm text-emerald-800 dark:text-emerald-300" data-testid="ingest-committed">
          Committed {phase.results.filter((r) => r.outcome === "committed").length} of {phase.results.length} part(s)
          {phase.results.some((r) => r.outcome === "discarded") ? "; manipulative parts were discarded, their evidence kept for audit" : ""}.
        </p>
      ) : null}

      <div className="space-y-4">
        {shown.map((result, i) => (
          <IngestResultView
            key={`${phase.name}-${i}`}
            scope={scope}
            result={result}
            label={shown.length > 1 ? `Part ${i + 1}` : "Result"}
            {...(phase.name === "staged" ? { edit: { state: phase.edits[i] ?? NO_EDITS, onChange: (next: IngestEditState) => setPartEdits(i, next) } } : {})}
          />
        ))}
      </div>
    </div>
  );
}
