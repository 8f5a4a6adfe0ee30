/**
 * Evidence-quality cues for honest text: what kind of reasoning it offers and how far an honest reader should move
 * on it (ESS). Weak kinds — anecdote, hearsay, appeal to authority, bare opinion — lower ESS; they are not
 * manipulation (docs/design.md §6).
 */
import type { ReasoningType } from "@/lib/engine/assessor";
import { numericQuantities } from "./numeric-cues";

export type HonestReasoningType = Exclude<
  ReasoningType,
  "social_pressure" | "emotional_appeal" | "flattery" | "urgency" | "threat" | "repetition" | "instruction_injection"
>;

export interface EvidenceCue {
  type: HonestReasoningType;
  match: string;
}

/** Base ESS per reasoning type, before hedging and specificity adjustments. */
export const BASE_ESS: Readonly<Record<HonestReasoningType, number>> = {
  statistical: 0.8,
  empirical: 0.75,
  documentary: 0.65,
  logical: 0.55,
  opinion: 0.25,
  anecdotal: 0.2,
  appeal_to_authority: 0.2,
  hearsay: 0.12,
  unknown: 0.4,
};

/** Weak kinds first: "a famous CEO said…, so it must be true" is authority even though it names a person. */
const RULES: ReadonlyArray<{ type: HonestReasoningType; pattern: RegExp }> = [
  {
    type: "hearsay",
    pattern:
      /\b(?:i (?:read|heard|saw) (?:somewhere|online|that|it|from)|i'?ve heard|(?:someone|somebody|a (?:colleague|friend|coworker|neighbou?r|contact)|people|they)(?: [a-z]+){0,3} (?:told|said|says|mentioned|claims?|reckons?)|rumou?rs?|rumou?red|word is|apparently|allegedly|supposedly|a friend (?:told|said)|they say|(?:i'?m )?not sure(?: though)?|i think i (?:read|heard))\b/,
  },
  {
    type: "appeal_to_authority",
    pattern:
      /\b(?:(?:a |the )?(?:famous|renowned|well-known|leading|top|respected|prominent)\s+(?:[a-z-]+\s+)?(?:ceo|expert|scientist|doctor|professor|researcher|engineer|investor|celebrity|author|person)\b[^.]{0,60}\b(?:said|says|claims?|believes?|thinks?|stated)|experts? (?:say|agree|believe)|(?:so|therefore) it (?:must|has to) be (?:true|right|correct)|(?:so |which |and )?that settles it|which settles it|because (?:he|she|they) (?:said|says) so|as an? (?:expert|authority)|(?:laureate|professor|celebrity|expert|guru|influencer|ceo)\b[^.]{0,30}\b(?:said|says|claims?)\b[^.]{0,60}\b(?:settles|so it must|must be|has to be))\b/,
  },
  {
    type: "anecdotal",
    pattern:
      /\b(?:my (?:cousin|friend|uncle|aunt|brother|sister|mother|father|mom|dad|neighbou?r|colleague|coworker|wife|husband|partner|boss)|in my (?:own )?experience|i (?:once|tried|know a guy|know someone)|(?:a|one) (?:friend|guy|person) i know|personally,? i|worked for me|happened to me|when i (?:lived|used|was|tried|had|worked|ran|visited))\b/,
  },
  {
    type: "opinion",
    pattern: /\b(?:i (?:think|believe|feel|guess|suppose)|in my (?:opinion|view)|imo|imho|seems to me|i'?d say|obviously|clearly the best)\b/,
  },
  {
    type: "statistical",
    pattern:
      /\b(?:meta-analys[ie]s|replications?|confidence interval|p\s*[<=]\s*0?\.\d+|statistically significant|randomi[sz]ed|standard deviation|regression|sample of|\d[\d,]*\s+(?:[a-z-]+\s+)?(?:participants|subjects|patients|respondents|workers|users|studies|trials|samples|people|adults|children|students|households|companies|cases|renters|customers|developers|engineers)|per cent|percent|effect size|odds ratio|survey of)\b|\d%/,
  },
  {
    type: "empirical",
    pattern:
      /\b(?:logs?|benchmarks?|measured|measurements?|observed|monitoring|metrics?|dashboards?|trace|latency|p\d{2}|load test|experiment|trial|test run|ci|build|telemetry|timed|readings?|read|thermometer|meter|scan|profil(?:er|ing)|we (?:ran|tested|saw|found)|show(?:s|ed)?|recorded|audit)\b/,
  },
  {
    type: "documentary",
    pattern:
      /\b(?:report|documentation|docs|contract|spec(?:ification)?|changelog|minutes|memo|policy|signed|lists?|according to|readme|manual|ticket|invoice|record|handbook|announcement|release notes|commit message|config(?:uration)? file|clause|statute|agreement|formulary|register|[\w-]+\.(?:json|mod|yaml|yml|toml|lock|txt|md|xml|cfg|ini|conf|sum|gradle))\b/,
  },
  {
    type: "logical",
    pattern: /\b(?:if\b[^.]{3,80}\bthen|therefore|it follows|implies|hence|thus|consequently|by definition|must be because)\b/,
  },
];

/**
 * The evidence cues in `text`, weak kinds first.
 * @example evidenceCues("My cousin tried it and it worked.")[0]?.type // → "anecdotal"
 */
export function evidenceCues(text: string): EvidenceCue[] {
  const lower = text.toLowerCase().replace(/[’]/g, "'");
  const cues: EvidenceCue[] = [];
  for (const rule of RULES) {
    const m = lower.match(rule.pattern);
    if (m) cues.push({ type: rule.type, match: m[0].trim() });
  }
  return cues;
}

const HEDGES = /\b(?:might|may|perhaps|maybe|possibly|probably|could be|not sure|i guess|seems|appears to|unclear|roughly|reportedly)\b/g;

export interface EvidenceStrength {
  type: HonestReasoningType;
  /** ESS ∈ [0,1]. */
  ess: number;
  cues: EvidenceCue[];
  hedges: string[];
}

/**
 * ESS = clamp(base(type) + 0.05 · min(2, specifics) − 0.08 · min(3, hedges), 0.02, 0.95), where specifics counts
 * stated quantities (numbers with units, times) and the type is the first (weakest-first) cue found. A weak kind wins
 * over a strong one in the same text: an anecdote that quotes a number is still an anecdote.
 * @example evidenceStrength("Benchmarks show p95 latency dropped from 220 ms to 140 ms.").type // → "empirical"
 */
export function evidenceStrength(text: string): EvidenceStrength {
  const cues = evidenceCues(text);
  const type = cues[0]?.type ?? "unknown";
  const hedges = [...text.toLowerCase().matchAll(HEDGES)].map((m) => m[0]);
  const specifics = numericQuantities(text).filter((q) => q.unit !== "").length;
  const weak = type === "hearsay" || type === "anecdotal" || type === "appeal_to_authority" || type === "opinion";
  const raw = BASE_ESS[type] + (weak ? 0 : 0.05 * Math.min(2, specifics)) - 0.08 * Math.min(3, hedges.length);
  return { type, ess: Math.round(Math.min(0.95, Math.max(0.02, raw)) * 1000) / 1000, cues, hedges };
}
