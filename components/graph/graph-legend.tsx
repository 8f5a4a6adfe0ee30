import { EDGE_KINDS } from "@/lib/engine/model";
import { BELIEF_SIZE_MAX, BELIEF_SIZE_MIN, EDGE_STYLES, TENSION_THRESHOLDS, tensionFill } from "./graph-style";

/** The scale drawn left to right in tension (0 … 1), coloured with the graph's own fill (a hard step after 0). */
function ramp(dark: boolean): string {
  return ["0%", "0.5%", ...Array.from({ length: 20 }, (_, i) => `${(i + 1) * 5}%`)]
    .map((at, i) => `${tensionFill(i === 0 ? 0 : i === 1 ? 0.005 : (i - 1) / 20, dark)} ${at}`)
    .join(", ");
}
const RAMP = ramp(false);
const RAMP_DARK = ramp(true);

/** The ramp in the page's scheme: the light canvas draws with one part of it, the dark with another. */
function RampBar({ className }: { className: string }) {
  return (
    <>
      <span aria-hidden className={`${className} block dark:hidden`} style={{ background: `linear-gradient(to right, ${RAMP})` }} />
      <span aria-hidden className={`${className} hidden dark:block`} style={{ background: `linear-gradient(to right, ${RAMP_DARK})` }} />
    </>
  );
}

const swatch = "inline-block border align-middle";

/**
 * The key in one wrapping line above the canvas, so it is on screen with the graph on a laptop and on a phone: tension
 * scale, node shapes, size, and each edge type's colour and name (its meaning on hover and in the full legend).
 */
export function GraphKey({ topics = false }: { topics?: boolean }) {
  return (
    <section aria-label="Legend" className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-zinc-700 dark:text-zinc-300" data-testid="graph-legend">
      <span className="inline-flex items-center gap-1">
        <span>tension 0</span>
        <span className="relative inline-block h-2.5 w-20">
          <RampBar className="h-2.5 w-20 rounded-sm border border-zinc-400 dark:border-zinc-600" />
        </span>
        <span>1</span>
      </span>
      <span className="inline-flex items-center gap-1">
        <span aria-hidden className={`${swatch} h-3 w-3 rounded-full border-zinc-600 bg-zinc-400`} />belief
        <span className="text-zinc-600 dark:text-zinc-400">(size: credence)</span>
      </span>
      <span className="inline-flex items-center gap-1">
        <span aria-hidden className={`${swatch} h-3 w-3 rounded-sm border-zinc-600 bg-zinc-500 dark:bg-zinc-300`} />evidence
      </span>
      <span className="inline-flex items-center gap-1">
        <span aria-hidden className={`${swatch} h-2.5 w-2.5 rotate-45 border-zinc-600 bg-[#b06a00] dark:bg-[#e69f00]`} />mutation
      </span>
      {topics ? (
        <span className="inline-flex items-center gap-1">
          <span aria-hidden className={`${swatch} h-3 w-4 rounded-md border-zinc-600 bg-[#3d4d6c] dark:bg-[#9aa3b5]`} />topic (size: beliefs; colour: its highest tension)
        </span>
      ) : null}
      {EDGE_KINDS.map((kind) => (
        <span key={kind} className="inline-flex items-center gap-1" title={EDGE_STYLES[kind].meaning}>
          <svg width="16" height="8" aria-hidden className="shrink-0">
            <line x1="0" y1="4" x2="16" y2="4" stroke={EDGE_STYLES[kind].colour} strokeWidth="3" strokeDasharray={EDGE_STYLES[kind].line === "dotted" ? "2 3" : undefined} />
          </svg>
          {EDGE_LABELS[kind]}
        </span>
      ))}
    </section>
  );
}

/** What the colours, sizes, shapes and lines mean; drawn with the same functions as the graph. */
export function GraphLegend() {
  return (
    <section aria-label="Legend in full" className="space-y-3 text-xs text-zinc-700 dark:text-zinc-300" data-testid="graph-legend-detail">
      <div>
        <h2 className="mb-1 font-semibold">Belief colour: tension (how strongly live evidence disagrees)</h2>
        <div className="relative">
          <RampBar className="h-3 w-full rounded border border-zinc-300 dark:border-zinc-700" />
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
        <h2 className="mb-1 font-semibold">Edges (width: effective weight; dashed: retracted or stripped)</h2>
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
