import Link from "next/link";
import type { IngestResult } from "@/lib/beliefs/belief-services";
import { AssessorLabel } from "@/components/beliefs/assessor-label";
import { StatusBadge } from "@/components/beliefs/belief-badges";

const PRESSURE = new Set(["social_pressure", "emotional_appeal", "flattery", "urgency", "threat", "repetition", "instruction_injection"]);

/** One part's staged (dry run) or written ingest: ESS and manipulation verdict, claims, change-set, disagreements. */
export function IngestResultView({ scope, result, label }: { scope: string; result: IngestResult; label: string }) {
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
        ) : (
          <ol className="list-decimal space-y-0.5 pl-5 text-sm" data-testid="ingest-claims">
            {result.claims.map((claim, i) => <li key={i}>{claim}</li>)}
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

      {result.relations.length > 0 ? (
        <details className="text-sm">
          <summary className="cursor-pointer font-semibold">Assessed relations ({result.relations.length})</summary>
          <table className="mt-2 w-full">
            <thead className="text-left text-zinc-500">
              <tr>
                <th className="py-1 pr-2 font-medium">Claim</th>
                <th className="py-1 pr-2 font-medium">Relation</th>
                <th className="py-1 pr-2 font-medium">Belief</th>
                <th className="py-1 pr-2 text-right font-medium">Similarity</th>
                <th className="py-1 pr-2 text-right font-medium">Strength</th>
                <th className="py-1 font-medium">Assessor</th>
              </tr>
            </thead>
            <tbody>
              {result.relations.map((r, i) => (
                <tr key={i} className="border-t border-zinc-100 align-top dark:border-zinc-800">
                  <td className="py-1.5 pr-2">{r.claim}</td>
                  <td className="py-1.5 pr-2 font-mono text-xs">{r.relation}</td>
                  <td className="py-1.5 pr-2">{r.text}</td>
                  <td className="py-1.5 pr-2 text-right tabular-nums">{r.similarity.toFixed(2)}</td>
                  <td className="py-1.5 pr-2 text-right tabular-nums">{r.strength.toFixed(2)}</td>
                  <td className="py-1.5"><AssessorLabel assessor={r.assessor} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      ) : null}
    </article>
  );
}
