import Link from "next/link";
import { DECISION_TEXT, MUTATION_STATUS_TEXT, plainWords } from "@/components/review/mutation-words";
import type { Belief, Evidence, MutationRecord } from "@/lib/engine/model";
import { StatusBadge } from "@/components/beliefs/belief-badges";
import { CorrectRelation } from "@/components/beliefs/correct-relation";
import { relationWords } from "@/components/beliefs/relation-words";
import { confidenceWords, credenceWords, tensionWords } from "@/lib/engine/bands";
import { Time } from "@/components/ui/time";

export type SelectedNode = { kind: "belief"; belief: Belief } | { kind: "evidence"; evidence: Evidence } | { kind: "mutation"; mutation: MutationRecord };

interface Props {
  scope: string;
  scopeId: string;
  node: SelectedNode;
  /** For a selected evidence node: its live relations to the scope's beliefs (entry seq included). */
  relations?: readonly { beliefId: string; beliefText: string; relation: string; seq: number | null }[];
  /** The viewer may correct those relations (editor or above). */
  canEdit?: boolean;
  focused: boolean;
  onFocus(id: string): void;
  onExpand(id: string): void;
  onClose(): void;
}

function Figure({ name, value, meaning }: { name: string; value: number; meaning: string }) {
  return (
    <div>
      <dt className="text-xs text-zinc-500">{name}</dt>
      <dd>
        <span className="font-semibold tabular-nums">{value.toFixed(2)}</span> <span className="text-zinc-600 dark:text-zinc-400">{meaning}</span>
      </dd>
    </div>
  );
}

/** Details of the selected node. Every user string is a React text child: rendered literally, never as HTML. */
export function GraphSidePanel({ scope, scopeId, node, relations = [], canEdit = false, focused, onFocus, onExpand, onClose }: Props) {
  const id = node.kind === "belief" ? node.belief.id : node.kind === "evidence" ? node.evidence.id : node.mutation.id;
  const itemScope = node.kind === "belief" ? node.belief.scope : node.kind === "evidence" ? node.evidence.scope : node.mutation.scope;
  const reference = itemScope !== scopeId;
  return (
    <aside aria-label="Selected node" className="space-y-3 rounded-lg border border-zinc-200 p-4 text-sm dark:border-zinc-800" data-testid="graph-panel">
      <div className="flex items-start gap-2">
        <h2 className="text-xs font-semibold uppercase tracking-wide text-zinc-500" tabIndex={-1} id="graph-panel-title">
          {node.kind}
          {reference ? " · cited from another scope" : ""}
        </h2>
        <button type="button" onClick={onClose} className="ml-auto text-xs text-zinc-500 hover:underline" aria-label="Close details">
          Close
        </button>
      </div>
      {node.kind === "belief" ? (
        <>
          <p className="whitespace-pre-wrap break-words text-base" data-testid="graph-panel-text">{node.belief.text}</p>
          <div className="flex flex-wrap items-center gap-2">
            <StatusBadge status={node.belief.status} />
            <span className="font-mono text-xs text-zinc-500">{node.belief.topic}</span>
          </div>
          <dl className="space-y-1.5">
            <Figure name="Credence" value={node.belief.credence} meaning={credenceWords(node.belief.credence)} />
            <Figure name="Confidence" value={node.belief.confidence} meaning={confidenceWords(node.belief.confidence)} />
            <Figure name="Tension" value={node.belief.tension} meaning={tensionWords(node.belief.tension)} />
            <div>
              <dt className="text-xs text-zinc-500">Evidence</dt>
              <dd>
                {node.belief.supportCount} supporting, {node.belief.contradictCount} rebutting ({node.belief.evidenceCount} entries)
              </dd>
            </div>
          </dl>
          {reference ? null : (
            <Link href={`/scopes/${scope}/beliefs/${encodeURIComponent(id)}`} className="inline-block font-medium text-sky-700 hover:underline dark:text-sky-400" data-testid="graph-panel-open">
              Open belief page →
            </Link>
          )}
        </>
      ) : node.kind === "evidence" ? (
        <>
          <p className="whitespace-pre-wrap break-words" data-testid="graph-panel-text">{node.evidence.text}</p>
          <dl className="space-y-1 text-xs">
            <div><dt className="inline text-zinc-500">Kind </dt><dd className="inline font-mono">{node.evidence.kind}</dd></div>
            {node.evidence.uri ? <div><dt className="inline text-zinc-500">Source </dt><dd className="inline break-all font-mono">{node.evidence.uri}</dd></div> : null}
            {node.evidence.ess !== null ? <div><dt className="inline text-zinc-500">ESS </dt><dd className="inline tabular-nums">{node.evidence.ess.toFixed(2)}</dd></div> : null}
            <div><dt className="inline text-zinc-500">Registered </dt><dd className="inline"><Time at={node.evidence.createdAt} /></dd></div>
            {node.evidence.retractedAt ? <div className="text-rose-700 dark:text-rose-400">Retracted <Time at={node.evidence.retractedAt} /></div> : null}
            {node.evidence.discarded ? <div className="text-rose-700 dark:text-rose-400">Assessed as manipulative: kept for audit only</div> : null}
          </dl>
          {relations.length > 0 ? (
            <section aria-labelledby="graph-panel-relations">
              <h3 id="graph-panel-relations" className="text-xs font-semibold text-zinc-600 dark:text-zinc-400">Bears on</h3>
              <ul className="mt-1 space-y-1.5" data-testid="graph-panel-relations">
                {relations.map((r) => (
                  <li key={`${r.beliefId}-${r.seq ?? ""}`} className="break-words">
                    <span className="font-medium">{relationWords(r.relation)}</span>{" "}
                    <Link href={`/scopes/${scope}/beliefs/${encodeURIComponent(r.beliefId)}`} className="text-sky-700 hover:underline dark:text-sky-400">{r.beliefText}</Link>
                    {canEdit && !reference ? (
                      <div>
                        <CorrectRelation target={{ scope, beliefId: r.beliefId, evidenceId: node.evidence.id, ...(r.seq !== null ? { seq: r.seq } : {}) }} current={r.relation} evidenceText={node.evidence.text} />
                      </div>
                    ) : null}
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
        </>
      ) : (
        <>
          <p className="whitespace-pre-wrap break-words" data-testid="graph-panel-text">{node.mutation.belief}</p>
          <dl className="space-y-1 text-xs">
            <div><dt className="inline text-zinc-500">Decision </dt><dd className="inline">{plainWords(DECISION_TEXT, node.mutation.decision)}</dd></div>
            <div><dt className="inline text-zinc-500">Status </dt><dd className="inline">{plainWords(MUTATION_STATUS_TEXT, node.mutation.status)}</dd></div>
            <div><dt className="inline text-zinc-500">Reason </dt><dd className="inline">{node.mutation.reason}</dd></div>
            <div><dt className="inline text-zinc-500">When </dt><dd className="inline"><Time at={node.mutation.time} /></dd></div>
          </dl>
        </>
      )}
      {reference ? null : (
        <div className="flex flex-wrap gap-3 border-t border-zinc-100 pt-2 text-xs dark:border-zinc-800">
          {focused ? (
            <button type="button" className="text-sky-700 hover:underline dark:text-sky-400" onClick={() => onExpand(id)}>Expand neighbourhood</button>
          ) : (
            <button type="button" className="text-sky-700 hover:underline dark:text-sky-400" onClick={() => onFocus(id)}>Focus on its neighbourhood</button>
          )}
        </div>
      )}
    </aside>
  );
}
