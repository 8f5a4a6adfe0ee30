import type { MutationRecord, StabilityFlag } from "@/lib/engine";

export interface TopicStability {
  topic: string;
  flags: StabilityFlag[];
  /** Mutations of this topic that carried a flag. */
  flagged: number;
  /** The newest flagged mutation's time. */
  lastFlaggedAt: string;
}

const ORDER: readonly StabilityFlag[] = ["oscillation_hard_stop", "architectural_review", "drift_warning"];

/**
 * The stability monitor's flags (drift warning, architectural-review flag, hard stop) gathered per topic from the
 * journal, most severe topics first, then the most recently flagged. Mutations without flags are ignored.
 */
export function stabilityByTopic(mutations: readonly Pick<MutationRecord, "topic" | "flags" | "time">[], frozenTopics?: ReadonlySet<string>): TopicStability[] {
  const byTopic = new Map<string, TopicStability>();
  for (const record of mutations) {
    // With the frozen topics given, an oscillation hard stop counts only while its topic is still frozen.
    const m = frozenTopics && !frozenTopics.has(record.topic) ? { ...record, flags: record.flags.filter((f) => f !== "oscillation_hard_stop") } : record;
    if (m.flags.length === 0) continue;
    const entry = byTopic.get(m.topic) ?? { topic: m.topic, flags: [], flagged: 0, lastFlaggedAt: m.time };
    entry.flagged += 1;
    for (const f of m.flags) if (!entry.flags.includes(f)) entry.flags.push(f);
    if (m.time > entry.lastFlaggedAt) entry.lastFlaggedAt = m.time;
    byTopic.set(m.topic, entry);
  }
  const severity = (t: TopicStability) => Math.min(...t.flags.map((f) => ORDER.indexOf(f)));
  return [...byTopic.values()]
    .map((t) => ({ ...t, flags: [...t.flags].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b)) }))
    .sort((a, b) => severity(a) - severity(b) || b.lastFlaggedAt.localeCompare(a.lastFlaggedAt) || a.topic.localeCompare(b.topic));
}
