"use client";

import { useState, useTransition } from "react";
import { addEvidenceAction, retractSourceAction } from "@/lib/actions/ingest-actions";
import { proposeMutationAction } from "@/lib/actions/review-actions";
import type { RetractResult } from "@/lib/beliefs/belief-services";
import { useFormAction } from "@/components/ui/use-form-action";
import { DECISION_TEXT, MUTATION_STATUS_TEXT, plainWarning, plainWords } from "@/components/review/mutation-words";
import { FieldError, FormError, Label, buttonClass, inputClass, secondaryButtonClass } from "@/components/ui/form";

const KINDS = ["observation", "document", "measurement", "executable_check", "held_out_truth", "model_output"] as const;
/** The tier each evidence kind caps an entry at (docs/design.md §3); the form offers the cap as the claimed tier. */
const KIND_TIER: Record<(typeof KINDS)[number], string> = {
  observation: "observation",
  document: "document",
  measurement: "measurement",
  executable_check: "executable_check",
  held_out_truth: "held_out_truth",
  model_output: "model_assertion",
};
const MUTATION_TYPES = ["updated", "new", "superseded", "merged", "coexisting", "retired"] as const;

export interface BeliefActionsProps {
  scope: string;
  beliefId: string;
  beliefText: string;
  topic: string;
  /** Sources cited by live entries of this belief (retract / source-event choices). */
  sources: readonly string[];
  /** The same sources with their evidence text and kind where readable (the retraction picker shows text, not ids). */
  sourceOptions?: readonly SourceOption[];
}

export interface SourceOption {
  id: string;
  text: string | null;
  kind: string | null;
}

/** What an editor (or higher) can do from a belief: add evidence, retract a source after a preview, propose a mutation. */
export function BeliefActions(props: BeliefActionsProps) {
  return (
    <section aria-label="Actions" className="space-y-3" data-testid="belief-actions">
      <h2 className="text-lg font-semibold">Actions</h2>
      <details className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
        <summary className="cursor-pointer font-medium">Add evidence</summary>
        <AddEvidenceForm {...props} />
      </details>
      <details className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
        <summary className="cursor-pointer font-medium">Retract a source</summary>
        <RetractSource {...props} />
      </details>
      <details className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
        <summary className="cursor-pointer font-medium">Propose a mutation</summary>
        <ProposeMutationForm {...props} />
      </details>
    </section>
  );
}

function AddEvidenceForm({ scope, beliefId }: BeliefActionsProps) {
  const [kind, setKind] = useState<(typeof KINDS)[number]>("observation");
  const [done, setDone] = useState<string | null>(null);
  const { state, pending, onSubmit } = useFormAction(addEvidenceAction, (r) =>
    setDone(`Recorded. Credence now ${r.belief.credence.toFixed(2)}, status ${r.belief.status}${r.entries[0]?.verified === false ? " (entry unverified)" : ""}.`),
  );
  return (
    <form onSubmit={onSubmit} aria-label="Add evidence" className="mt-3 grid gap-3 sm:grid-cols-2">
      <input type="hidden" name="scope" value={scope} />
      <input type="hidden" name="beliefId" value={beliefId} />
      <input type="hidden" name="tier" value={KIND_TIER[kind]} />
      <div className="sm:col-span-2">
        <Label htmlFor="evidence-text">Evidence</Label>
        <textarea id="evidence-text" name="text" rows={3} required className={inputClass} />
        <FieldError state={state} name="text" />
      </div>
      <div>
        <Label htmlFor="evidence-kind">Kind (tier {KIND_TIER[kind].replaceAll("_", " ")})</Label>
        <select id="evidence-kind" name="kind" value={kind} onChange={(e) => setKind(e.target.value as (typeof KINDS)[number])} className={inputClass}>
          {KINDS.map((k) => <option key={k} value={k}>{k.replaceAll("_", " ")}</option>)}
        </select>
      </div>
      <div>
        <Label htmlFor="evidence-relation">Relation</Label>
        <select id="evidence-relation" name="relation" defaultValue="SUPPORTS" className={inputClass}>
          <option value="SUPPORTS">supports</option>
          <option value="REBUTS">rebuts</option>
          <option value="CONTEXTUALIZES">contextualizes</option>
        </select>
      </div>
      <div>
        <Label htmlFor="evidence-weight">Weight (0–1)</Label>
        <input id="evidence-weight" name="weight" type="number" min={0} max={1} step={0.05} defaultValue={1} required className={inputClass} />
        <FieldError state={state} name="weight" />
      </div>
      <div>
        <Label htmlFor="evidence-uri">Link (optional)</Label>
        <input id="evidence-uri" name="uri" className={inputClass} />
      </div>
      <div className="flex items-center gap-3 sm:col-span-2">
        <button type="submit" className={buttonClass} disabled={pending}>{pending ? "Recording…" : "Add evidence"}</button>
        {done && state?.ok ? <span role="status" className="text-sm text-emerald-700 dark:text-emerald-400">{done}</span> : null}
      </div>
      <div className="sm:col-span-2"><FormError state={state} shown={["text", "weight"]} /></div>
    </form>
  );
}

function RetractSource({ scope, sources, sourceOptions }: BeliefActionsProps) {
  const options: readonly SourceOption[] = sourceOptions ?? sources.map((id) => ({ id, text: null, kind: null }));
  const [sourceId, setSourceId] = useState(options[0]?.id ?? "");
  const [query, setQuery] = useState("");
  const [preview, setPreview] = useState<RetractResult | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [pending, startTransition] = useTransition();
  const needle = query.trim().toLowerCase();
  const shown = needle ? options.filter((o) => (o.text ?? o.id).toLowerCase().includes(needle) || (o.kind ?? "").includes(needle)) : options;
  const chosen = options.find((o) => o.id === sourceId);
  const run = (dryRun: boolean) =>
    startTransition(async () => {
      const result = await retractSourceAction({ scope, sourceId, dryRun });
      if (!result.ok) {
        setMessage({ ok: false, text: result.error.message });
        return;
      }
      if (dryRun) {
        setPreview(result.data);
        setMessage(null);
      } else {
        setPreview(null);
        setMessage({ ok: true, text: `Retracted. ${result.data.touched.length} belief(s) changed.` });
      }
    });
  if (options.length === 0) return <p className="mt-3 text-sm text-zinc-600 dark:text-zinc-400">No live entry of this belief cites a source that could be retracted.</p>;
  return (
    <div className="mt-3 space-y-3">
      <fieldset>
        <legend className="text-sm font-medium">Which source? (the evidence this belief cites)</legend>
        {options.length > 4 ? (
          <div className="mt-1">
            <label htmlFor="retract-search" className="sr-only">Search the sources</label>
            <input id="retract-search" type="search" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="Search the sources…" className={inputClass} />
          </div>
        ) : null}
        <ul className="mt-2 max-h-64 space-y-1 overflow-y-auto" data-testid="retract-sources">
          {shown.map((o) => (
            <li key={o.id}>
              <label className={`flex cursor-pointer gap-2 rounded border p-2 text-sm ${o.id === sourceId ? "border-sky-600 bg-sky-50 dark:border-sky-400 dark:bg-sky-950/40" : "border-zinc-200 dark:border-zinc-800"}`}>
                <input
                  type="radio"
                  name="retract-source"
                  value={o.id}
                  checked={o.id === sourceId}
                  onChange={() => {
                    setSourceId(o.id);
                    setPreview(null);
                  }}
                />
                <span>
                  <span className="line-clamp-3 break-words">{o.text ?? `cited item ${o.id}`}</span>
                  <span className="block text-xs text-zinc-600 dark:text-zinc-400">{o.kind ? o.kind.replaceAll("_", " ") : "not evidence you can read"}</span>
                </span>
              </label>
            </li>
          ))}
          {shown.length === 0 ? <li className="text-sm text-zinc-600 dark:text-zinc-400">No source matches “{query}”.</li> : null}
        </ul>
      </fieldset>
      <div className="flex flex-wrap gap-2">
        <button type="button" className={secondaryButtonClass} disabled={pending || !sourceId.trim()} onClick={() => run(true)}>Preview the cascade</button>
        {preview ? (
          <button type="button" className={buttonClass} disabled={pending} onClick={() => run(false)}>Retract {preview.touched.length ? `and change ${preview.touched.length} belief(s)` : ""}</button>
        ) : null}
      </div>
      {preview ? (
        <div data-testid="retract-preview">
          <p className="text-sm font-medium">
            Retracting “{(chosen?.text ?? sourceId).slice(0, 120)}{(chosen?.text ?? "").length > 120 ? "…" : ""}” would change {preview.touched.length} belief(s) you can see. Nothing is written until you confirm.
          </p>
          {preview.touched.length === 0 ? null : (
            <table className="mt-1 w-full text-sm">
              <thead className="text-left text-zinc-600 dark:text-zinc-400">
                <tr>
                  <th className="py-1 pr-2 font-medium">Belief</th>
                  <th className="py-1 pr-2 font-medium">Why it changes</th>
                  <th className="py-1 pr-2 text-right font-medium">Credence</th>
                  <th className="py-1 font-medium">Status</th>
                </tr>
              </thead>
              <tbody>
                {preview.touched.map((t) => (
                  <tr key={t.beliefId} className="border-t border-zinc-100 align-top dark:border-zinc-800">
                    <td className="py-1 pr-2">{t.text}</td>
                    <td className="py-1 pr-2 text-xs">
                      {t.retractedSeqs.length ? <span className="block">its entry {t.retractedSeqs.map((n) => `#${n}`).join(", ")} cites this source directly: retracted #{t.retractedSeqs.join(", #")}</span> : null}
                      {t.strippedSeqs.length ? <span className="block">its entry {t.strippedSeqs.map((n) => `#${n}`).join(", ")} cites a belief that loses this source&apos;s support: stripped</span> : null}
                    </td>
                    <td className="py-1 pr-2 text-right tabular-nums">{t.before ? `${t.before.credence.toFixed(2)} → ` : ""}{t.after.credence.toFixed(2)}</td>
                    <td className="py-1">{t.before && t.before.status !== t.after.status ? `${t.before.status} → ${t.after.status}` : t.after.status}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      ) : null}
      {message ? <p role={message.ok ? "status" : "alert"} className={`text-sm ${message.ok ? "text-emerald-700 dark:text-emerald-400" : "text-red-700 dark:text-red-400"}`}>{message.text}</p> : null}
    </div>
  );
}

function ProposeMutationForm({ scope, beliefText, topic, sources }: BeliefActionsProps) {
  const [done, setDone] = useState<string | null>(null);
  const { state, pending, onSubmit } = useFormAction(proposeMutationAction, (r) =>
    setDone(`The protocol decided to ${plainWords(DECISION_TEXT, r.decision)} (${plainWords(MUTATION_STATUS_TEXT, r.mutation.status)}).${r.warnings.length ? ` ${r.warnings.map(plainWarning).join(" ")}` : ""}`),
  );
  return (
    <form onSubmit={onSubmit} aria-label="Propose a mutation" className="mt-3 grid gap-3 sm:grid-cols-2">
      <input type="hidden" name="scope" value={scope} />
      <div className="sm:col-span-2">
        <Label htmlFor="mutation-belief">Proposed belief (one falsifiable sentence)</Label>
        <input id="mutation-belief" name="belief" required defaultValue={beliefText} className={inputClass} />
        <FieldError state={state} name="belief" />
      </div>
      <div className="sm:col-span-2">
        <Label htmlFor="mutation-reason">Reason (cite an evidence id)</Label>
        <textarea id="mutation-reason" name="reason" rows={2} required className={inputClass} />
        <FieldError state={state} name="reason" />
      </div>
      <div>
        <Label htmlFor="mutation-source">Source event id</Label>
        <input id="mutation-source" name="sourceEvent" list="mutation-sources" required defaultValue={sources[0] ?? ""} className={`${inputClass} font-mono`} />
        <datalist id="mutation-sources">
          {sources.map((s) => <option key={s} value={s} />)}
        </datalist>
        <FieldError state={state} name="sourceEvent" />
      </div>
      <div>
        <Label htmlFor="mutation-type">Intent</Label>
        <select id="mutation-type" name="mutationType" defaultValue="updated" className={inputClass}>
          {MUTATION_TYPES.map((t) => <option key={t} value={t}>{t}</option>)}
        </select>
      </div>
      <div>
        <Label htmlFor="mutation-strength">Declared strength (0–1)</Label>
        <input id="mutation-strength" name="strength" type="number" min={0} max={1} step={0.05} defaultValue={0.7} required className={inputClass} />
        <FieldError state={state} name="strength" />
      </div>
      <div>
        <Label htmlFor="mutation-topic">Topic</Label>
        <input id="mutation-topic" name="topic" defaultValue={topic} className={inputClass} />
        <FieldError state={state} name="topic" />
      </div>
      <div className="flex items-center gap-3 sm:col-span-2">
        <button type="submit" className={buttonClass} disabled={pending}>{pending ? "Proposing…" : "Propose mutation"}</button>
        {done && state?.ok ? <span role="status" className="text-sm text-emerald-700 dark:text-emerald-400" data-testid="mutation-decision">{done}</span> : null}
      </div>
      <div className="sm:col-span-2"><FormError state={state} shown={["belief", "reason", "sourceEvent", "strength", "topic"]} /></div>
    </form>
  );
}
