/**
 * Who decided a judgement. The offline default assessor's stamp starts with `heuristic`, so its label reads "heuristic…";
 * it also gets its own colour and an explaining title, because its verdicts are lexical cues, not a reading (docs/design.md §6).
 */
export function AssessorLabel({ assessor }: { assessor: string }) {
  const heuristic = assessor.startsWith("heuristic");
  return (
    <span
      className={`rounded px-1.5 py-0.5 font-mono text-[11px] ${heuristic ? "bg-violet-100 text-violet-900 dark:bg-violet-950 dark:text-violet-200" : "bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300"}`}
      title={heuristic ? "Offline heuristic assessor: lexical cues, not a model's reading" : `Assessed by ${assessor}`}
      data-testid="assessor-label"
    >
      {assessor}
    </span>
  );
}
