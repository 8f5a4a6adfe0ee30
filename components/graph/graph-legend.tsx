import { EDGE_KINDS } from "@/lib/engine/model";
import { BELIEF_SIZE_MAX, BELIEF_SIZE_MIN, EDGE_STYLES, TENSION_THRESHOLDS, tensionFill } from "./graph-style";

/** The scale drawn left to right in tension (0 … 1), coloured with the graph's own fill (a hard step after 0). */
const RAMP = ["0%", "0.5%", ...Array.from({ length: 20 }, (_, i) => `${(i + 1) * 5}%`)]
  .map((at, i) => `${tensionFill(i === 0 ? 0 : i === 1 ? 0.005 : (i - 1) / 20)} ${at}`)
  .join(", ");

/** What the colours, sizes, shapes and lines mean; drawn with the same functions as the graph. */
export function GraphLegend() {
  return (
    <section aria-label="Legend" className="space-y-3 text-xs text-zinc-700 dark:text-zinc-300" data-testid="graph-legend">
      <div>
        <h3 className="mb-1 font-semibold">Belief colour: tension (how strongly live evidence disagrees)</h3>
        <div className="relative">
          <div className="h-3 w-full rounded border border-zinc-300 dark:border-zinc-700" style={{ background: `linear-gradient(to right, ${RAMP})` }} />
          {TENSION_THRESHOLDS.map((t) => (
            <span key={t.at} aria-hidden className="absolute -top-0.5 h-4 w-0.5 bg-zinc-900 dark:bg-zinc-100" style={{ left: `${t.at * 100}%` }} />
          ))}
        </div>
        {/* Each threshold's name wraps inside 5rem, so neighbours never overlap on a phone-width bar. */}
        <div className="relative mt-0.5 h-12 text-zinc-600 dark:text-zinc-400">
          <span className="absolute left-0">0 none</span>
          {TENSION_THRESHOLDS.map((t) => (
            <span key={t.at} className="absolute w-20 -translate-x-1/2 text-center leading-tight" style={{ left: `${t.at * 100}%` }}>
              {t.at}
              <br />
              {t.name}
            </span>
          ))}
          <span className="absolute right-0">1</span>
        </div>
      </div>
      <div className="flex items-end gap-3">
        <span className="font-semibold">Size: credence</span>
        <span className="inline-flex items-end gap-1" aria-hidden>
          {[0.1, 0.5, 1].map((c) => {
            const d = (BELIEF_SIZE_MIN + (BELIEF_SIZE_MAX - BELIEF_SIZE_MIN) * Math.sqrt(c)) / 3;
            return <span key={c} className="inline-block rounded-full border border-zinc-500 bg-zinc-300" style={{ width: d, height: d }} />;
          })}
        </span>
        <span className="text-zinc-600 dark:text-zinc-400">low → high</span>
      </div>
      <ul className="space-y-0.5">
        <li><span aria-hidden className="mr-1 inline-block h-3 w-3 rounded-full border border-zinc-600 bg-zinc-400 align-middle" />belief</li>
        <li><span aria-hidden className="mr-1 inline-block h-3 w-3 rounded-sm border border-zinc-600 bg-zinc-300 align-middle" />evidence (dashed border: retracted)</li>
        <li><span aria-hidden className="mr-1 inline-block h-2.5 w-2.5 rotate-45 border border-zinc-600 bg-[#e69f00] align-middle" />mutation</li>
      </ul>
      <div>
        <h3 className="mb-1 font-semibold">Edges (width: effective weight; dashed: retracted or stripped)</h3>
        <ul className="space-y-0.5">
          {EDGE_KINDS.map((kind) => (
            <li key={kind} className="flex items-center gap-2">
              <svg width="28" height="8" aria-hidden className="shrink-0">
                <line x1="0" y1="4" x2="28" y2="4" stroke={EDGE_STYLES[kind].colour} strokeWidth="3" strokeDasharray={EDGE_STYLES[kind].line === "dotted" ? "2 3" : undefined} />
              </svg>
              <span>{EDGE_LABELS[kind]}</span>
              <span className="text-zinc-600 dark:text-zinc-400">{EDGE_STYLES[kind].meaning}</span>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

/** Human names of the edge types (the API's enum values stay in URLs and exports). */
export const EDGE_LABELS: Readonly<Record<(typeof EDGE_KINDS)[number], string>> = {
  SUPPORTS: "supports",
  REBUTS: "rebuts",
  CONTEXTUALIZES: "contextualizes",
  SUPERSEDES: "supersedes",
  REFINES: "refines",
  SYNTHESIZES: "synthesizes",
  CONCERNS: "concerns",
};
