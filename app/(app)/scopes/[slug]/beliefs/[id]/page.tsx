import type { Metadata } from "next";
import { DECISION_TEXT, MUTATION_STATUS_TEXT, MUTATION_TYPE_TEXT, plainWords } from "@/components/review/mutation-words";
import Link from "next/link";
import { notFound } from "next/navigation";
import { sessionPrincipal } from "@/lib/access/principal";
import { getBeliefServices } from "@/lib/beliefs/get-belief-services";
import { requireUser } from "@/lib/auth/session";
import { BeliefServiceError } from "@/lib/errors/belief-service-error";
import { isLiveStatus, relationCorrections, type Evidence, type HistoryItem, type RelationCorrection } from "@/lib/engine";
import { beliefReading } from "@/lib/engine/bands";
import { StatusBadge, TensionBar } from "@/components/beliefs/belief-badges";
import { CredenceChart, type ChartEvent } from "@/components/beliefs/credence-chart";
import { readableReasoning } from "@/components/beliefs/readable-reasoning";
import { BeliefActions } from "@/components/beliefs/belief-actions";
import { AssessorLabel } from "@/components/beliefs/assessor-label";
import { CorrectRelation, UndoCorrection } from "@/components/beliefs/correct-relation";
import { relationWords } from "@/components/beliefs/relation-words";
import { rivalsOf } from "@/components/beliefs/rivals";
import { Time } from "@/components/ui/time";

const WRITERS = new Set(["editor", "reviewer", "owner"]);

export const metadata: Metadata = { title: "Belief" };


/** One line for a history event; `sourceText` names an evidence item by its words (clipped) where it is readable. */
function describeEvent(item: Exclude<HistoryItem, { type: "entry" }>, sourceText: (id: string) => string | undefined): string {
  switch (item.type) {
    case "retracted":
      return `entry #${item.targetSeq} retracted: its source was withdrawn`;
    case "stripped":
      return `entry #${item.targetSeq} stripped: cited belief lost its grounding`;
    case "revised":
      return `entry #${item.targetSeq} revised: ${item.reason}`;
    case "contraction":
      return `contraction, severity ${item.severity.toFixed(2)}: ${item.reasoning}`;
    case "review":
      return `review ${item.action}: ${item.note}`;
    case "undecided":
      return `undecided reading of ${quoted(sourceText(item.sourceId)) ?? item.sourceId}: best guess ${relationWords(item.guess)}, confidence ${item.confidence.toFixed(2)} (no weight until decided)`;
    case "possible_duplicate":
      return `possible duplicate of ${item.otherBeliefId} (score ${item.score.toFixed(2)}; kept apart until decided)`;
    case "decided":
      return `#${item.targetSeq} decided: ${item.decision.toLowerCase()}${item.entrySeq !== null ? ` (entry #${item.entrySeq})` : ""}: ${item.reason}`;
    default:
      return item.note ? `${item.type}: ${item.note}` : item.type;
  }
}

/** Evidence text as a short quotation (first 80 characters), or undefined when there is none to show. */
function quoted(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const flat = text.replace(/\s+/g, " ").trim();
  return `“${flat.length > 80 ? `${flat.slice(0, 79)}…` : flat}”`;
}

/** A relation correction in the history: who changed which entry from what to what, and why. */
function CorrectionNote({ c, by }: { c: RelationCorrection; by: string }) {
  return (
    <span data-testid="correction-note">
      relation of entry #{c.targetSeq} corrected by {by}: <b>{relationWords(c.from)}</b> → <b>{relationWords(c.to)}</b>. Why: “{c.reason}”
    </span>
  );
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
  const scope = await (await getBeliefServices()).getScope(sessionPrincipal(user.id), slug);
  const canWrite = scope?.role != null && WRITERS.has(scope.role);
  const retracted = new Set(history.flatMap((h) => (h.type === "retracted" ? [h.targetSeq] : [])));
  const sources = [...new Set(history.flatMap((h) => (h.type === "entry" && h.sourceId && !retracted.has(h.seq) ? [h.sourceId] : [])))];
  const outcome = new Map(entries.map((e) => [e.seq, e]));
  // The relation each entry counts with now (after corrections), and who corrected what, from, to and why.
  const relationNow = (seq: number, recorded: string): string => outcome.get(seq)?.relation ?? recorded;
  const corrections = relationCorrections(history);
  const correctionAt = new Map(corrections.map((c) => [c.seq, c]));
  const removed = new Set(history.flatMap((h) => (h.type === "retracted" || h.type === "stripped" ? [h.targetSeq] : [])));
  const members = await services.listMembers(sessionPrincipal(user.id), slug).catch(() => []);
  const memberName = new Map(members.map((m) => [m.userId, m.name ?? m.email]));
  const who = (actor: string) => (actor === "operator" ? "the operator" : (memberName.get(actor) ?? actor));
  // Corrections are offered on live entries of readable evidence whose reading is not still undecided; an evidence
  // item whose live entries disagree is corrected one entry at a time.
  const canCorrect = canWrite && isLiveStatus(belief.status);
  const openReadingSources = new Set(detail.openReadings.undecided.map((u) => u.sourceId));
  const liveRelations = new Map<string, Set<string>>();
  for (const h of history) {
    if (h.type === "entry" && h.sourceId && !removed.has(h.seq)) liveRelations.set(h.sourceId, (liveRelations.get(h.sourceId) ?? new Set()).add(relationNow(h.seq, h.relation)));
  }
  const correctable = (h: Extract<HistoryItem, { type: "entry" }>) => canCorrect && h.sourceId !== null && evidence.has(h.sourceId) && !removed.has(h.seq) && !openReadingSources.has(h.sourceId);
  const targetOf = (sourceId: string, seq: number) => ({ scope: slug, beliefId: belief.id, evidenceId: sourceId, ...((liveRelations.get(sourceId)?.size ?? 0) > 1 ? { seq } : {}) });
  // A correction can be undone from its row while it is the latest word on each entry it corrected.
  const latestCorrection = new Map<number, number>();
  for (const c of corrections) latestCorrection.set(c.targetSeq, Math.max(latestCorrection.get(c.targetSeq) ?? 0, c.seq));
  const undoable = (c: RelationCorrection): boolean => {
    const group = corrections.filter((o) => o.changeSet === c.changeSet);
    return (
      canCorrect &&
      c.sourceId !== null &&
      group[0]?.seq === c.seq &&
      group.every((o) => latestCorrection.get(o.targetSeq) === o.seq && !removed.has(o.targetSeq)) &&
      !openReadingSources.has(c.sourceId)
    );
  };
  // Evidence cited in the history (entries and undecided readings), as text: a source the caller cannot read (or a cited belief) stays an id.
  const cited = [...new Set(history.flatMap((h) => ((h.type === "entry" || h.type === "undecided") && h.sourceId ? [h.sourceId] : [])))];
  const { undecided, possibleDuplicates } = detail.openReadings;
  const duplicateOf = new Map<string, string>();
  await Promise.all(
    possibleDuplicates.map(async (d) => {
      const other = await services.getBelief(sessionPrincipal(user.id), slug, { beliefId: d.otherBeliefId }).catch(() => null);
      if (other) duplicateOf.set(d.otherBeliefId, other.belief.text);
    }),
  );
  const evidence = new Map<string, Evidence>();
  await Promise.all(
    cited.map(async (sourceId) => {
      const found = await services.getEvidence(sessionPrincipal(user.id), slug, { evidenceId: sourceId }).catch(() => null);
      if (found) evidence.set(sourceId, found);
    }),
  );
  const evidenceText = (sourceId: string) => evidence.get(sourceId)?.text;
  const chartEvents: ChartEvent[] = history.map((h) =>
    h.type === "entry"
      ? { time: h.time, seq: h.seq, kind: relationNow(h.seq, h.relation) === "SUPPORTS" ? "support" : relationNow(h.seq, h.relation) === "REBUTS" ? "rebut" : "context", label: `${relationWords(relationNow(h.seq, h.relation))}: ${h.sourceId ? (evidence.get(h.sourceId)?.text.slice(0, 120) ?? h.sourceId) : "anonymous"}` }
      : { time: h.time, seq: h.seq, kind: h.type, label: describeEvent(h, evidenceText) },
  );
  // Both sides of each conflict: the beliefs this one's evidence rebuts, and those whose evidence rebuts this one.
  const neighbourhood = await services.graph(sessionPrincipal(user.id), slug, { nodeId: belief.id, depth: 2, maxNodes: 300 }).catch(() => null);
  const rivals = neighbourhood ? rivalsOf(belief.id, neighbourhood) : [];
  const sourceOptions = sources.map((sourceId) => {
    const e = evidence.get(sourceId);
    return { id: sourceId, text: e?.text ?? null, kind: e?.kind ?? null };
  });
  return (
    <div className="space-y-8">
      <div>
        <Link href={`/scopes/${slug}`} className="text-sm text-sky-700 hover:underline dark:text-sky-400">← scope</Link>
        <h1 className="mt-2 text-xl font-semibold" data-testid="belief-text">{belief.text}</h1>
        <p className="mt-2 flex flex-wrap items-center gap-3 text-sm">
          <StatusBadge status={belief.status} />
          <span>credence <b className="tabular-nums" data-testid="belief-credence">{belief.credence.toFixed(2)}</b></span>
          <span>confidence <b className="tabular-nums">{belief.confidence.toFixed(2)}</b></span>
          <TensionBar tension={belief.tension} />
          <span className="text-zinc-600 dark:text-zinc-400">({beliefReading(belief.credence, belief.confidence)})</span>
        </p>
        <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
          topic <span className="font-mono">{belief.topic}</span>{belief.contextTags.length ? ` · context ${belief.contextTags.join(", ")}` : ""}
          {" · "}
          <Link href={`/scopes/${slug}/graph?nodeId=${encodeURIComponent(belief.id)}&node=${encodeURIComponent(belief.id)}`} className="text-sky-700 underline hover:no-underline dark:text-sky-400" data-testid="belief-graph-link">
            Show in the graph
          </Link>
        </p>
      </div>
      {rivals.length > 0 ? (
        <section aria-labelledby="rivals-heading" data-testid="belief-rivals">
          <h2 id="rivals-heading" className="mb-2 text-lg font-semibold">In conflict with</h2>
          <ul className="space-y-2 text-sm">
            {rivals.map((r) => {
              const others = r.beliefs.map((b, i) => (
                <span key={b.id}>
                  {i > 0 ? "; " : ""}
                  <Link href={`/scopes/${slug}/beliefs/${encodeURIComponent(b.id)}`} className="font-medium text-sky-700 underline hover:no-underline dark:text-sky-400">{b.text}</Link>{" "}
                  <span className="text-zinc-600 dark:text-zinc-400">
                    (credence <span className="tabular-nums">{b.credence.toFixed(2)}</span>, tension <span className="tabular-nums">{b.tension.toFixed(2)}</span>)
                  </span>
                </span>
              ));
              const source = r.text !== null ? <q className="line-clamp-3 break-words">{r.text}</q> : null;
              return (
                <li key={`${r.side}-${r.sourceId}`} className="rounded-md border-l-4 border-amber-500 bg-amber-50 px-3 py-2 dark:bg-amber-950/40" data-testid="belief-rival" data-side={r.side}>
                  {r.side === "this_rebuts" ? (
                    <p className="break-words">
                      {source ? "Evidence for this belief also rebuts " : "This belief rebuts "}
                      {others}
                    </p>
                  ) : (
                    <p className="break-words">
                      {source ? "Evidence against this belief supports " : "Rebutted directly by "}
                      {others}
                    </p>
                  )}
                  {source ? <p className="mt-1 text-xs text-zinc-700 dark:text-zinc-300">{source}</p> : null}
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}
      <section>
        <h2 className="mb-2 text-lg font-semibold">Credence over time</h2>
        <CredenceChart timeline={detail.timeline} events={chartEvents} />
      </section>
      <section>
        <h2 className="mb-2 text-lg font-semibold">Evidence history</h2>
        <div className="overflow-x-auto">
          <table className="w-full text-sm" data-testid="history">
            <thead className="text-left text-zinc-600 dark:text-zinc-400">
              <tr>
                <th className="py-1 pr-2 font-medium">#</th>
                <th className="py-1 pr-2 font-medium">When</th>
                <th className="py-1 pr-2 font-medium">Relation</th>
                <th className="py-1 pr-2 font-medium">Evidence</th>
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
                    <td className="py-1.5 pr-2 whitespace-nowrap"><Time at={item.time} /></td>
                    <td className="py-1.5 pr-2" data-testid="history-relation">
                      {relationWords(relationNow(item.seq, item.relation))}
                      {relationNow(item.seq, item.relation) !== item.relation ? <span className="block text-xs text-zinc-600 dark:text-zinc-400">recorded as {relationWords(item.relation)}</span> : null}
                      {correctable(item) && item.sourceId ? (
                        <CorrectRelation target={targetOf(item.sourceId, item.seq)} current={relationNow(item.seq, item.relation)} evidenceText={evidence.get(item.sourceId)?.text ?? ""} />
                      ) : null}
                    </td>
                    <td className="max-w-md py-1.5 pr-2" data-testid="history-evidence">
                      {item.sourceId && evidence.get(item.sourceId) ? (
                        <>
                          <span className="line-clamp-4 whitespace-pre-wrap break-words">{evidence.get(item.sourceId)?.text}</span>
                          <span className="block text-xs text-zinc-600 dark:text-zinc-400">
                            {evidence.get(item.sourceId)?.kind.replaceAll("_", " ")}
                            {evidence.get(item.sourceId)?.uri ? ` · ${evidence.get(item.sourceId)?.uri}` : ""}
                            {evidence.get(item.sourceId)?.retractedAt ? " · retracted" : ""}
                          </span>
                        </>
                      ) : (
                        <span className="font-mono text-xs break-all">{item.sourceId ? `cited: ${item.sourceId}` : "anonymous (no source)"}</span>
                      )}
                    </td>
                    <td className="py-1.5 pr-2">{item.tier}{item.effectiveTier !== item.tier ? ` (${item.effectiveTier})` : ""}</td>
                    <td className="py-1.5 pr-2">{item.verified ? "yes" : "no"}</td>
                    <td className="py-1.5 pr-2 text-right tabular-nums">{item.weight.toFixed(2)}</td>
                    <td className="py-1.5 pr-2 text-right tabular-nums">{(outcome.get(item.seq)?.effectiveWeight ?? item.effectiveWeight).toFixed(2)}</td>
                    <td className="py-1.5 pr-2 text-xs">
                      {item.launderingReason ? <span className="text-rose-700 dark:text-rose-400">laundered: {item.launderingReason}</span> : null}
                      {outcome.get(item.seq)?.zeroReason && !item.launderingReason ? <span className="text-zinc-500">{outcome.get(item.seq)?.zeroReason}</span> : null}
                      <span className="block text-zinc-500">
                        {item.assessor === "caller" ? `given by ${who(item.actor)}` : <AssessorLabel assessor={item.assessor} />}
                        {item.reasoning ? `: ${readableReasoning(item.reasoning, [belief.text, item.sourceId ? (evidence.get(item.sourceId)?.text ?? "") : ""])}` : ""}
                      </span>
                    </td>
                  </tr>
                ) : (
                  <tr key={item.seq} className="border-t border-zinc-100 bg-zinc-50 dark:border-zinc-800 dark:bg-zinc-900">
                    <td className="py-1.5 pr-2 tabular-nums">{item.seq}</td>
                    <td className="py-1.5 pr-2 whitespace-nowrap"><Time at={item.time} /></td>
                    <td colSpan={7} className="py-1.5 pr-2 text-zinc-700 dark:text-zinc-300">
                      {correctionAt.get(item.seq) ? <CorrectionNote c={correctionAt.get(item.seq) as RelationCorrection} by={who(item.actor)} /> : describeEvent(item, evidenceText)}
                      {correctionAt.get(item.seq) && undoable(correctionAt.get(item.seq) as RelationCorrection) ? (
                        <UndoCorrection
                          target={targetOf(correctionAt.get(item.seq)?.sourceId ?? "", correctionAt.get(item.seq)?.targetSeq ?? 0)}
                          from={correctionAt.get(item.seq)?.from ?? ""}
                          to={correctionAt.get(item.seq)?.to ?? ""}
                          reason={correctionAt.get(item.seq)?.reason ?? ""}
                        />
                      ) : null}
                    </td>
                  </tr>
                ),
              )}
            </tbody>
          </table>
        </div>
      </section>
      <section aria-labelledby="undecided-heading" data-testid="undecided-readings">
        <h2 id="undecided-heading" className="mb-1 text-lg font-semibold">Undecided readings ({undecided.length})</h2>
        <p className="mb-2 text-sm text-zinc-600 dark:text-zinc-400">
          Evidence the reader could not read with enough confidence. It is kept here and moves neither credence nor tension until someone decides it.
        </p>
        {undecided.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">None.</p>
        ) : (
          <ul className="space-y-2 text-sm">
            {undecided.map((u) => (
              <li key={u.seq} className="rounded border border-amber-300 p-2 dark:border-amber-700" data-testid="undecided-reading">
                <span className="block whitespace-pre-wrap break-words">{evidence.get(u.sourceId)?.text ?? u.sourceId}</span>
                <span className="block text-xs text-zinc-600 dark:text-zinc-400">
                  #{u.seq} · <Time at={u.time} /> · best guess <b>{relationWords(u.guess)}</b>, confidence {u.confidence.toFixed(2)} ·{" "}
                  {u.assessor === "caller" ? "caller" : <AssessorLabel assessor={u.assessor} />}
                  {u.reasoning ? `: ${readableReasoning(u.reasoning, [belief.text, evidence.get(u.sourceId)?.text ?? ""])}` : ""}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      {possibleDuplicates.length > 0 ? (
        <section aria-labelledby="duplicates-heading" data-testid="possible-duplicates">
          <h2 id="duplicates-heading" className="mb-1 text-lg font-semibold">Possible duplicates ({possibleDuplicates.length})</h2>
          <p className="mb-2 text-sm text-zinc-600 dark:text-zinc-400">Beliefs that may say the same thing. Both are kept, with no effect on each other, until someone merges them or keeps them apart.</p>
          <ul className="space-y-1 text-sm">
            {possibleDuplicates.map((d) => (
              <li key={d.seq}>
                <Link className="underline" href={`/scopes/${slug}/beliefs/${encodeURIComponent(d.otherBeliefId)}`}>{duplicateOf.get(d.otherBeliefId) ?? d.otherBeliefId}</Link>
                <span className="text-xs text-zinc-600 dark:text-zinc-400"> · score {d.score.toFixed(2)}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {canWrite ? <BeliefActions scope={slug} beliefId={belief.id} beliefText={belief.text} topic={belief.topic} sources={sources} sourceOptions={sourceOptions} /> : null}
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
                <Time at={m.time} className="font-mono text-xs" /> · asked to {plainWords(MUTATION_TYPE_TEXT, m.mutationType)} → <b>{plainWords(DECISION_TEXT, m.decision)}</b> ({plainWords(MUTATION_STATUS_TEXT, m.status)}) · {m.belief}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
