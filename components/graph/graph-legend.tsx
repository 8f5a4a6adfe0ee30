import { EDGE_KINDS } from "@/lib/engine/model";
import { BELIEF_SIZE_MAX, BELIEF_SIZE_MIN, EDGE_STYLES, tensionColour } from "./graph-style";

const RAMP = Array.from({ length: 11 }, (_, i) => tensionColour(i / 10)).join(", ");

/** What the colours, sizes, shapes and lines mean; drawn with the same functions as the graph. */
export function GraphLegend() {
  return (
    <section aria-label="Legend" className="space-y-3 text-xs text-zinc-700 dark:text-zinc-300" data-testid="graph-legend">
      <div>
        <h3 className="mb-1 font-semibold">Belief colour: tension</h3>
        <div className="h-3 w-full rounded border border-zinc-300 dark:border-zinc-700" style={{ background: `linear-gradient(to right, ${RAMP})` }} />
        <div className="mt-0.5 flex justify-between text-zinc-500">
          <span>0 settled</span>
          <span>1 contested</span>
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
        <span className="text-zinc-500">low → high</span>
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
              <svg width="28" height="8" aria-hidden>
                <line x1="0" y1="4" x2="28" y2="4" stroke={EDGE_STYLES[kind].colour} strokeWidth="3" strokeDasharray={EDGE_STYLES[kind].line === "dotted" ? "2 3" : undefined} />
              </svg>
              <span className="font-mono">{kind}</span>
              <span className="text-zinc-500">{EDGE_STYLES[kind].meaning}</span>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
