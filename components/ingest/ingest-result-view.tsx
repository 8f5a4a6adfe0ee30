"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import type { IngestResult } from "@/lib/beliefs/belief-services";
import { AssessorLabel } from "@/components/beliefs/assessor-label";
import { StatusBadge } from "@/components/beliefs/belief-badges";
import { CorrectRelation } from "@/components/beliefs/correct-relation";
import { relationWords } from "@/components/beliefs/relation-words";
import { RELATION_CHOICES, relationEditKey, withClaimKept, withRelationKept, withRelationKind, type IngestEditState, type RelationChoice } from "./ingest-edits";

const PRESSURE = new Set(["social_pressure", "emotional_appeal", "flattery", "urgency", "threat", "repetition", "instruction_injection"]);

/**
 * One part's staged (dry run) or written ingest: ESS and manipulation verdict, claims, change-set, disagreements and
 * relations. With `edit` (a dry run), each claim and relation has a "keep" checkbox and each relation a kind to choose;
 * once committed, each stored relation offers the belief page's "Correct relation", and what was left out is listed.
 */
export function IngestResultView({ scope, result, label, edit }: { scope: string; result: IngestResult; label: string; edit?: { state: IngestEditState; onChange: (next: IngestEditState) => void } }) {
  const { ess } = result;
  const verdict = ess.manipulative ? (result.outcome === "dry_run" ? "manipulative: the change-set would be discarded" : "manipulative: discarded, evidence kept for audit") : "not manipulative";
  const link = (id: string, text: string) =>
    result.outcome === "dry_run" && result.changes.some((c) => c.beliefId === id && c.created) ? (
      <span>{text}</span>
    ) : (
      <Link href={`/scopes/${scope}/beliefs/${encodeURIComponent(id)}`} className="hover:underline">{text}</Link>
    );
  return (
    <article className="space-y-4 rounded-lg border border-zinc-200 p-4 dark:border-zinc-800" data-testid="ingest-result" aria-label={label}>
      <header className="flex flex-wrap items-center gap-3">
        <h3 className="font-semibold">{label}</h3>
        <span
          data-testid="ingest-outcome"
          className={`rounded px-2 py-0.5 text-xs font-semibold uppercase ${result.outcome === "committed" ? "bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100" : result.outcome === "discarded" ? "bg-rose-100 text-rose-900 dark:bg-rose-900 dark:text-rose-100" : "bg-sky-100 text-sky-900 dark:bg-sky-900 dark:text-sky-100"}`}
        >
          {result.outcome === "dry_run" ? "dry run" : result.outcome}
        </span>
        <span className="text-xs text-zinc-500">evidence kind {result.evidence.kind}</span>
      </header>
      <dl className="grid grid-cols-1 gap-3 text-sm sm:grid-cols-3" aria-label="Evidence strength">
        <div className="rounded-md bg-zinc-50 p-3 dark:bg-zinc-900">
          <dt className="text-xs text-zinc-500">ESS (evidence strength)</dt>
          <dd className="text-xl font-semibold tabular-nums" data-testid="ingest-ess">{ess.ess.toFixed(2)}</dd>
        </div>
        <div className="rounded-md bg-zinc-50 p-3 dark:bg-zinc-900">
          <dt className="text-xs text-zinc-500">Reasoning type</dt>
          <dd className={`font-medium ${PRESSURE.has(ess.reasoningType) ? "text-rose-700 dark:text-rose-400" : ""}`}>{ess.reasoningType.replaceAll("_", " ")}</dd>
        </div>
        <div className="rounded-md bg-zinc-50 p-3 dark:bg-zinc-900">
          <dt className="text-xs text-zinc-500">Manipulation verdict</dt>
          <dd className={`font-medium ${ess.manipulative ? "text-rose-700 dark:text-rose-400" : "text-emerald-700 dark:text-emerald-400"}`} data-testid="ingest-verdict">{verdict}</dd>
        </div>
      </dl>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        <AssessorLabel assessor={ess.assessor} /> <span className="ml-1">{ess.reasoning}</span>
      </p>

      <section>
        <h4 className="mb-1 text-sm font-semibold">Harvested claims ({result.claims.length})</h4>
        {result.claims.length === 0 ? (
          <p className="text-sm text-zinc-500">No claims found in this text.</p>
        ) : edit ? (
          <ol className="space-y-1 text-sm" data-testid="ingest-claims">
            {result.claims.map((claim, i) => {
              const kept = !edit.state.excludeClaims.has(i);
              return (
                <li key={i}>
                  <label className="flex items-start gap-2">
                    <input type="checkbox" className="mt-1" checked={kept} onChange={(e) => edit.onChange(withClaimKept(edit.state, i, e.target.checked))} data-testid="keep-claim" />
                    <span className={kept ? "" : "text-zinc-500 line-through"}>
                      <span className="sr-only">Keep claim {i + 1}: </span>
                      {claim}
                    </span>
                  </label>
                </li>
              );
            })}
          </ol>
        ) : (
          <ol className="list-decimal space-y-0.5 pl-5 text-sm" data-testid="ingest-claims">
            {result.claims.map((claim, i) => (
              <li key={i} className={result.excluded.claims.includes(i) ? "text-zinc-500" : ""}>
                {claim}
                {result.excluded.claims.includes(i) ? <span className="ml-1 text-xs">(left out)</span> : null}
              </li>
            ))}
          </ol>
        )}
      </section>

      <section>
        <h4 className="mb-1 text-sm font-semibold">{result.outcome === "dry_run" ? "Staged change-set" : "Change-set"} ({result.changes.length})</h4>
        {result.changes.length === 0 ? (
          <p className="text-sm text-zinc-500">{ess.manipulative ? "Nothing: a manipulative text changes no belief." : "No belief changes."}</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-sm" data-testid="ingest-changes">
              <thead className="text-left text-zinc-500">
                <tr>
                  <th className="py-1 pr-2 font-medium">Belief</th>
                  <th className="py-1 pr-2 font-medium">Change</th>
                  <th className="py-1 pr-2 text-right font-medium">Credence</th>
                  <th className="py-1 pr-2 text-right font-medium">Tension</th>
                  <th className="py-1 font-medium">Status</th>
                </tr>
              </thead>
              <tbody>
                {result.changes.map((c) => (
                  <tr key={c.beliefId} className="border-t border-zinc-100 align-top dark:border-zinc-800">
                    <td className="py-1.5 pr-2">{link(c.beliefId, c.text)}</td>
                    <td className="py-1.5 pr-2">{c.created ? "new belief" : "revised"}</td>
                    <td className="py-1.5 pr-2 text-right tabular-nums whitespace-nowrap">{c.before ? `${c.before.credence.toFixed(2)} → ` : ""}{c.after.credence.toFixed(2)}</td>
                    <td className="py-1.5 pr-2 text-right tabular-nums whitespace-nowrap">{c.before ? `${c.before.tension.toFixed(2)} → ` : ""}{c.after.tension.toFixed(2)}</td>
                    <td className="py-1.5"><StatusBadge status={c.after.status} /></td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {result.contractions.length > 0 ? (
          <ul className="mt-2 space-y-1 text-sm">
            {result.contractions.map((c) => (
              <li key={c.beliefId} className="text-rose-800 dark:text-rose-300">contraction of severity {c.severity.toFixed(2)}: {c.reasoning}</li>
            ))}
          </ul>
        ) : null}
      </section>

      <section>
        <h4 className="mb-1 text-sm font-semibold">Disagreement report ({result.disagreements.length})</h4>
        {result.disagreements.length === 0 ? (
          <p className="text-sm text-zinc-500" data-testid="ingest-no-disagreement">The text disagrees with no live belief.</p>
        ) : (
          <ul className="space-y-2 text-sm" data-testid="ingest-disagreements">
            {result.disagreements.map((d) => (
              <li key={`${d.beliefId}-${d.claim}`} className="rounded-md border-l-4 border-amber-500 bg-amber-50 px-3 py-2 dark:bg-amber-950/40">
                <p>
                  <q>{d.claim}</q> rebuts {link(d.beliefId, d.text)} <span className="text-zinc-500">(credence {d.credence.toFixed(2)}, strength {d.strength.toFixed(2)})</span>
                </p>
                <p className="text-xs text-zinc-600 dark:text-zinc-400">{d.reasoning}</p>
              </li>
            ))}
          </ul>
        )}
      </section>

      <RelationsSection scope={scope} result={result} edit={edit} link={link} />
    </article>
  );
}

const relationSelectClass = "rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900";

/** The relations the reader found: editable in a dry run, correctable once stored, with what was left out. */
function RelationsSection({
  scope,
  result,
  edit,
  link,
}: {
  scope: string;
  result: IngestResult;
  edit: { state: IngestEditState; onChange: (next: IngestEditState) => void } | undefined;
  link: (id: string, text: string) => ReactNode;
}) {
  const { relations, excluded } = result;
  if (relations.length === 0 && excluded.relations.length === 0) return null;
  const committed = result.outcome === "committed";
  const figures = (r: IngestResult["relations"][number]) => (
    <span className="text-xs text-zinc-600 dark:text-zinc-400">
      similarity <span className="tabular-nums">{r.similarity.toFixed(2)}</span> · strength <span className="tabular-nums">{r.strength.toFixed(2)}</span> · <AssessorLabel assessor={r.assessor} />
    </span>
  );
  return (
    <section aria-labelledby={`relations-${result.changeSetId}`}>
      <h4 id={`relations-${result.changeSetId}`} className="mb-1 text-sm font-semibold">
        {committed ? "Stored relations" : "Assessed relations"} ({relations.length})
      </h4>
      {relations.length === 0 ? <p className="text-sm text-zinc-500">None stored.</p> : null}
      <ol className="space-y-2 text-sm" data-testid="ingest-relations">
        {relations.map((r, n) => {
          const key = relationEditKey(r.claimIndex, r.beliefId);
          const claimKept = !edit?.state.excludeClaims.has(r.claimIndex);
          const kept = claimKept && !edit?.state.excludeRelations.has(key);
          const chosen: RelationChoice = (edit?.state.overrides.get(key) ?? r.relation) as RelationChoice;
          return (
            <li key={key} className={`rounded-md border px-3 py-2 ${kept ? "border-zinc-200 dark:border-zinc-800" : "border-dashed border-zinc-400 bg-zinc-50 dark:border-zinc-600 dark:bg-zinc-900"}`} data-testid="ingest-relation" data-belief-id={r.beliefId}>
              <p className={`break-words ${kept ? "" : "line-through"}`}>
                <q>{r.claim}</q>{" "}
                <span className="font-medium">{relationWords(edit ? chosen : r.relation)}</span> {link(r.beliefId, r.text)}
              </p>
              {edit ? (
                <div className="mt-1 flex flex-wrap items-center gap-x-4 gap-y-1">
                  <label className="flex items-center gap-1.5">
                    <input
                      type="checkbox"
                      checked={kept}
                      disabled={!claimKept}
                      onChange={(e) => edit.onChange(withRelationKept(edit.state, key, e.target.checked))}
                      data-testid="keep-relation"
                    />
                    Keep<span className="sr-only"> relation {n + 1}: claim {r.claimIndex + 1} and “{r.text}”</span>
                  </label>
                  <label className="flex items-center gap-1.5">
                    Relation<span className="sr-only"> {n + 1}</span>
                    <select
                      className={relationSelectClass}
                      value={chosen}
                      disabled={!kept}
                      onChange={(e) => edit.onChange(withRelationKind(edit.state, key, e.target.value as RelationChoice, r.relation))}
                      data-testid="relation-kind"
                    >
                      {RELATION_CHOICES.map((c) => (
                        <option key={c} value={c}>
                          {relationWords(c)}
                          {c === r.relation ? " (the reader)" : ""}
                        </option>
                      ))}
                    </select>
                  </label>
                  {figures(r)}
                  {kept ? null : <span className="text-xs font-medium text-zinc-700 dark:text-zinc-300">{claimKept ? "left out: not written" : "left out with its claim"}</span>}
                </div>
              ) : (
                <div className="mt-1 flex flex-wrap items-center gap-x-4 gap-y-1">
                  {figures(r)}
                  {r.readerRelation ? <span className="text-xs text-amber-800 dark:text-amber-300">changed by a person from {relationWords(r.readerRelation)}</span> : null}
                  {committed ? <CorrectRelation target={{ scope, beliefId: r.beliefId, evidenceId: result.evidence.id }} current={r.relation} evidenceText={result.evidence.text} /> : null}
                </div>
              )}
              <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">{r.reasoning}</p>
            </li>
          );
        })}
      </ol>
      {excluded.relations.length > 0 ? (
        <>
          <h5 className="mt-3 mb-1 text-sm font-semibold">Left out ({excluded.relations.length})</h5>
          <ul className="space-y-1 text-sm text-zinc-600 dark:text-zinc-400" data-testid="ingest-excluded-relations">
            {excluded.relations.map((r) => (
              <li key={relationEditKey(r.claimIndex, r.beliefId)} data-belief-id={r.beliefId}>
                <span className="font-medium">Not written:</span> <q>{r.claim}</q> {relationWords(r.relation)} {link(r.beliefId, r.text)}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
