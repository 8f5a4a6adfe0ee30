import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { sessionPrincipal } from "@/lib/access/principal";
import { getBeliefServices } from "@/lib/beliefs/get-belief-services";
import { requireUser } from "@/lib/auth/session";
import { BeliefServiceError } from "@/lib/beliefs/belief-service-error";
import type { HistoryItem } from "@/lib/engine";
import { StatusBadge, TensionBar } from "@/components/beliefs/belief-badges";
import { CredenceChart } from "@/components/beliefs/credence-chart";
import { BeliefActions } from "@/components/beliefs/belief-actions";
import { AssessorLabel } from "@/components/beliefs/assessor-label";
import { getDatabase } from "@/lib/db/database";
import { getScopeForViewer } from "@/lib/identity/scopes";

const WRITERS = new Set(["editor", "reviewer", "owner"]);

export const metadata: Metadata = { title: "Belief" };

function meaning(credence: number, confidence: number): string {
  const lean = credence >= 0.85 ? "very likely true" : credence >= 0.65 ? "probably true" : credence > 0.35 ? "undecided" : credence > 0.15 ? "probably false" : "very likely false";
  const settled = confidence >= 0.6 ? "well settled" : confidence >= 0.35 ? "moderately settled" : "thinly evidenced";
  return `${lean}, ${settled}`;
}

function describeEvent(item: Exclude<HistoryItem, { type: "entry" }>): string {
  switch (item.type) {
    case "retracted":
      return `entry #${item.targetSeq} retracted (source ${item.sourceId})`;
    case "stripped":
      return `entry #${item.targetSeq} stripped: cited belief lost its grounding`;
    case "revised":
      return `entry #${item.targetSeq} revised: ${item.reason}`;
    case "contraction":
      return `contraction, severity ${item.severity.toFixed(2)}: ${item.reasoning}`;
    case "review":
      return `review ${item.action}: ${item.note}`;
    default:
      return item.note ? `${item.type}: ${item.note}` : item.type;
  }
}

export default async function BeliefPage({ params }: { params: Promise<{ slug: string; id: string }> }) {
  const { slug, id } = await params;
  const user = await requireUser();
  const services = await getBeliefServices();
  const detail = await services.getBelief(sessionPrincipal(user.id), slug, { beliefId: decodeURIComponent(id) }).catch((error: unknown) => {
    if (error instanceof BeliefServiceError && error.code === "not_found") notFound();
    throw error;
  });
  const { belief, history, entries } = detail;
  const scope = await getScopeForViewer(await getDatabase(), user.id, slug);
  const canWrite = scope?.role != null && WRITERS.has(scope.role);
  const retracted = new Set(history.flatMap((h) => (h.type === "retracted" ? [h.targetSeq] : [])));
  const sources = [...new Set(history.flatMap((h) => (h.type === "entry" && h.sourceId && !retracted.has(h.seq) ? [h.sourceId] : [])))];
  const outcome = new Map(entries.map((e) => [e.seq, e]));
  return (
    <div className="space-y-8">
      <div>
        <Link href={`/scopes/${slug}`} className="text-sm text-sky-700 hover:underline dark:text-sky-400">← scope</Link>
        <h1 className="mt-2 text-xl font-semibold" data-testid="belief-text">{belief.text}</h1>
        <p className="mt-2 flex flex-wrap items-center gap-3 text-sm">
          <StatusBadge status={belief.status} />
          <span>credence <b className="tabular-nums">{belief.credence.toFixed(2)}</b></span>
          <span>confidence <b className="tabular-nums">{belief.confidence.toFixed(2)}</b></span>
          <TensionBar tension={belief.tension} />
          <span className="text-zinc-600 dark:text-zinc-400">({meaning(belief.credence, belief.confidence)})</span>
        </p>
        <p className="mt-1 font-mono text-xs text-zinc-500">topic {belief.topic}{belief.contextTags.length ? ` · context ${belief.contextTags.join(", ")}` : ""}</p>
      </div>
      <section>
        <h2 className="mb-2 text-lg font-semibold">Credence over time</h2>
        <CredenceChart timeline={detail.timeline} />
      </section>
      <section>
        <h2 className="mb-2 text-lg font-semibold">Evidence history</h2>
        <div className="overflow-x-auto">
          <table className="w-full text-sm" data-testid="history">
            <thead className="text-left text-zinc-500">
              <tr>
                <th className="py-1 pr-2 font-medium">#</th>
                <th className="py-1 pr-2 font-medium">When</th>
                <th className="py-1 pr-2 font-medium">Relation</th>
                <th className="py-1 pr-2 font-medium">Source</th>
                <th className="py-1 pr-2 font-medium">Tier (effective)</th>
                <th className="py-1 pr-2 font-medium">Verified</th>
                <th className="py-1 pr-2 text-right font-medium">Weight</th>
                <th className="py-1 pr-2 text-right font-medium">Effective</th>
                <th className="py-1 pr-2 font-medium">Notes</th>
              </tr>
            </thead>
            <tbody>
              {history.map((item) =>
                item.type === "entry" ? (
                  <tr key={item.seq} className="border-t border-zinc-100 align-top dark:border-zinc-800">
                    <td className="py-1.5 pr-2 tabular-nums">{item.seq}</td>
                    <td className="py-1.5 pr-2 whitespace-nowrap">{new Date(item.time).toLocaleString()}</td>
                    <td className="py-1.5 pr-2">{item.relation}</td>
                    <td className="py-1.5 pr-2 font-mono text-xs break-all">{item.sourceId ?? "anonymous"}</td>
                    <td className="py-1.5 pr-2">{item.tier}{item.effectiveTier !== item.tier ? ` (${item.effectiveTier})` : ""}</td>
                    <td className="py-1.5 pr-2">{item.verified ? "yes" : "no"}</td>
                    <td className="py-1.5 pr-2 text-right tabular-nums">{item.weight.toFixed(2)}</td>
                    <td className="py-1.5 pr-2 text-right tabular-nums">{(outcome.get(item.seq)?.effectiveWeight ?? item.effectiveWeight).toFixed(2)}</td>
                    <td className="py-1.5 pr-2 text-xs">
                      {item.launderingReason ? <span className="text-rose-700 dark:text-rose-400">laundered: {item.launderingReason}</span> : null}
                      {outcome.get(item.seq)?.zeroReason && !item.launderingReason ? <span className="text-zinc-500">{outcome.get(item.seq)?.zeroReason}</span> : null}
                      <span className="block text-zinc-500">
                        {item.assessor === "caller" ? "caller" : <AssessorLabel assessor={item.assessor} />}
                        {item.reasoning ? `: ${item.reasoning}` : ""}
                      </span>
                    </td>
                  </tr>
                ) : (
                  <tr key={item.seq} className="border-t border-zinc-100 bg-zinc-50 dark:border-zinc-800 dark:bg-zinc-900">
                    <td className="py-1.5 pr-2 tabular-nums">{item.seq}</td>
                    <td className="py-1.5 pr-2 whitespace-nowrap">{new Date(item.time).toLocaleString()}</td>
                    <td colSpan={7} className="py-1.5 pr-2 text-zinc-700 dark:text-zinc-300">{describeEvent(item)}</td>
                  </tr>
                ),
              )}
            </tbody>
          </table>
        </div>
      </section>
      {canWrite ? <BeliefActions scope={slug} beliefId={belief.id} beliefText={belief.text} topic={belief.topic} sources={sources} /> : null}
      {detail.supersedes.length > 0 || detail.supersededBy ? (
        <section>
          <h2 className="mb-2 text-lg font-semibold">Supersession chain</h2>
          <ul className="list-disc pl-5 text-sm">
            {detail.supersededBy ? <li>superseded by <Link className="underline" href={`/scopes/${slug}/beliefs/${encodeURIComponent(detail.supersededBy.id)}`}>{detail.supersededBy.text}</Link></li> : null}
            {detail.supersedes.map((b) => (
              <li key={b.id}>replaces <Link className="underline" href={`/scopes/${slug}/beliefs/${encodeURIComponent(b.id)}`}>{b.text}</Link></li>
            ))}
          </ul>
        </section>
      ) : null}
      {detail.mutations.length > 0 ? (
        <section>
          <h2 className="mb-2 text-lg font-semibold">Mutation journal</h2>
          <ul className="space-y-1 text-sm">
            {detail.mutations.map((m) => (
              <li key={m.id}>
                <span className="font-mono text-xs">{new Date(m.time).toLocaleString()}</span> · {m.mutationType} → <b>{m.decision}</b> ({m.status}) · {m.belief}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
