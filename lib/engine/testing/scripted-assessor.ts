/**
 * A deterministic, scripted Assessor for tests (engine, stores, services).
 *
 * Each judgement first looks for a scripted rule (first match wins; a string matcher is a case-insensitive
 * substring, a RegExp is tested as is), then falls back to a small lexical default:
 * * similarity = Dice coefficient of content-term sets, with a polarity term `¬` added to a text with an odd number
 *   of negations (so "X" vs "not X" is similar but never a twin: 2·k/(2k+1) < 0.9 for k ≤ 4);
 * * relation: similarity < 0.3 → UNRELATED; opposite polarity → REBUTS; else SUPPORTS; strength = similarity;
 * * ESS: pressure cues (urgency, threats, "ignore previous instructions", "everyone agrees") → manipulative, ess 0.05;
 *   anecdote cues ("I heard", "someone said", "I think") → ess 0.35; numbers/"study"/"measured" → 0.8; else 0.6;
 * * conflict: more specific when the proposal's terms strictly include the existing belief's; contexts never differ;
 * * contraction: contract when rebuttals outnumber supports, severity 0.5;
 * * claims: the engine's sentence splitter; recall phrasing: the beliefs' own texts.
 * Every call is recorded in `calls` (method and arguments) so tests can assert what was asked.
 */
import type {
  AssessedRelation,
  Assessor,
  BeliefText,
  ConflictAssessment,
  ContractionAssessment,
  DecidedRelation,
  EssAssessment,
  ExtractedClaim,
  RecallPhrasing,
  RelationAssessment,
  SynthesisProposal,
} from "../assessor";
import { AssessmentError } from "../assessor";
import { extractQuantity, splitSentences } from "../harvest";
import { NEGATIONS, tokenize, words } from "../retrieval";

export type Matcher = string | RegExp;

const matches = (m: Matcher | undefined, text: string): boolean =>
  m === undefined || (typeof m === "string" ? text.toLowerCase().includes(m.toLowerCase()) : m.test(text));

export interface AssessorScript {
  ess?: ReadonlyArray<{ text: Matcher } & Partial<Omit<EssAssessment, "assessor">>>;
  relations?: ReadonlyArray<{
    evidence?: Matcher;
    belief?: Matcher;
    relation: AssessedRelation;
    strength?: number;
    reasoning?: string;
    /** Default 0.9 for a committed relation, 0.5 for UNDECIDED. */
    confidence?: number;
    /** The best guess of an UNDECIDED reading (default SUPPORTS). */
    guess?: DecidedRelation;
  }>;
  /** Symmetric: a rule for (a, b) also answers (b, a). */
  similarity?: ReadonlyArray<{ a: Matcher; b: Matcher; value: number }>;
  conflicts?: ReadonlyArray<{ proposed?: Matcher; existing?: Matcher } & Partial<Omit<ConflictAssessment, "assessor">>>;
  contractions?: ReadonlyArray<{ belief?: Matcher; contract: boolean; severity?: number; reasoning?: string }>;
  claims?: ReadonlyArray<{ text: Matcher; claims: ExtractedClaim[] }>;
  synthesis?: ReadonlyArray<{ a?: Matcher; b?: Matcher; text: string; contextTags?: string[] }>;
  /** Make the named methods throw `AssessmentError("unavailable")` (failure-path tests). */
  failing?: ReadonlyArray<keyof Assessor>;
}

export interface AssessorCall {
  method: string;
  args: unknown[];
}

export interface ScriptedAssessor extends Assessor {
  readonly calls: AssessorCall[];
}

export const SCRIPTED_STAMP = "scripted@1";

const PRESSURE = /\b(urgent(ly)?|immediately|right now|or else|you must|you have to|ignore (all )?(previous|prior) instructions|everyone (knows|agrees)|trust me|last chance|you('| a)re (so )?(smart|brilliant))\b/i;
const ANECDOTE = /\b(i heard|someone said|i think|i feel|my friend|rumou?r|apparently)\b/i;
const EMPIRICAL = /\b(\d|study|measured|benchmark|survey|data|experiment|logs?|test(s|ed)?)\b/i;

/** Content terms plus a polarity marker for an odd number of negations. */
function polarTerms(text: string): Set<string> {
  const terms = new Set(tokenize(text));
  const negations = words(text).filter((w) => NEGATIONS.has(w)).length;
  if (negations % 2 === 1) terms.add("¬");
  return terms;
}

function isNegated(text: string): boolean {
  return polarTerms(text).has("¬");
}

/** The scripted assessor's default similarity (exported so tests can predict it). */
export function scriptedSimilarity(a: string, b: string): number {
  const sa = polarTerms(a);
  const sb = polarTerms(b);
  if (sa.size === 0 && sb.size === 0) return a.trim().toLowerCase() === b.trim().toLowerCase() ? 1 : 0;
  let common = 0;
  for (const t of sa) if (sb.has(t)) common++;
  return (2 * common) / (sa.size + sb.size);
}

export function scriptedAssessor(script: AssessorScript = {}): ScriptedAssessor {
  const calls: AssessorCall[] = [];
  const record = (method: keyof Assessor, args: unknown[]) => {
    calls.push({ method, args });
    if (script.failing?.includes(method)) throw new AssessmentError("unavailable", `scripted failure of ${method}`);
  };

  const similarityOf = (a: string, b: string): number => {
    const rule = script.similarity?.find((r) => (matches(r.a, a) && matches(r.b, b)) || (matches(r.a, b) && matches(r.b, a)));
    return rule ? rule.value : scriptedSimilarity(a, b);
  };

  return {
    name: SCRIPTED_STAMP,
    heuristic: true,
    calls,

    async assessEvidence(text: string): Promise<EssAssessment> {
      record("assessEvidence", [text]);
      const rule = script.ess?.find((r) => matches(r.text, text));
      if (rule) {
        return {
          ess: rule.ess ?? 0.6,
          reasoningType: rule.reasoningType ?? "empirical",
          manipulative: rule.manipulative ?? false,
          reasoning: rule.reasoning ?? "scripted",
          assessor: SCRIPTED_STAMP,
        };
      }
      if (PRESSURE.test(text)) return { ess: 0.05, reasoningType: "urgency", manipulative: true, reasoning: "pressure cues", assessor: SCRIPTED_STAMP };
      if (ANECDOTE.test(text)) return { ess: 0.35, reasoningType: "anecdotal", manipulative: false, reasoning: "anecdote cues", assessor: SCRIPTED_STAMP };
      if (EMPIRICAL.test(text)) return { ess: 0.8, reasoningType: "empirical", manipulative: false, reasoning: "empirical cues", assessor: SCRIPTED_STAMP };
      return { ess: 0.6, reasoningType: "logical", manipulative: false, reasoning: "default", assessor: SCRIPTED_STAMP };
    },

    async assessRelation(evidence: string, belief: BeliefText): Promise<RelationAssessment> {
      record("assessRelation", [evidence, belief]);
      const rule = script.relations?.find((r) => matches(r.evidence, evidence) && matches(r.belief, belief.text));
      if (rule) {
        const reasoning = rule.reasoning ?? "scripted";
        if (rule.relation === "UNDECIDED") {
          return { relation: "UNDECIDED", strength: 0, confidence: rule.confidence ?? 0.5, guess: rule.guess ?? "SUPPORTS", reasoning, assessor: SCRIPTED_STAMP };
        }
        const strength = rule.relation === "UNRELATED" ? 0 : (rule.strength ?? 0.7);
        return { relation: rule.relation, strength, confidence: rule.confidence ?? 0.9, reasoning, assessor: SCRIPTED_STAMP };
      }
      const sim = similarityOf(evidence, belief.text);
      if (sim < 0.3) return { relation: "UNRELATED", strength: 0, confidence: 1 - sim, reasoning: "no overlap", assessor: SCRIPTED_STAMP };
      const relation = isNegated(evidence) !== isNegated(belief.text) ? "REBUTS" : "SUPPORTS";
      return { relation, strength: Math.min(1, sim), confidence: Math.min(1, sim), reasoning: `lexical ${relation.toLowerCase()}`, assessor: SCRIPTED_STAMP };
    },

    async assessContraction(belief: BeliefText, rebuttals: readonly string[], supports: readonly string[]): Promise<ContractionAssessment> {
      record("assessContraction", [belief, rebuttals, supports]);
      const rule = script.contractions?.find((r) => matches(r.belief, belief.text));
      const contract = rule ? rule.contract : rebuttals.length > supports.length;
      const severity = contract ? (rule?.severity ?? 0.5) : 0;
      return { contract, severity, reasoning: rule?.reasoning ?? (contract ? "rebuttals outweigh supports" : "not warranted"), assessor: SCRIPTED_STAMP };
    },

    async analyseConflict(proposed: string, existing: BeliefText): Promise<ConflictAssessment> {
      record("analyseConflict", [proposed, existing]);
      const rule = script.conflicts?.find((r) => matches(r.proposed, proposed) && matches(r.existing, existing.text));
      const pt = polarTerms(proposed);
      const et = polarTerms(existing.text);
      const moreSpecific = pt.size > et.size && [...et].every((t) => pt.has(t));
      return {
        moreSpecific: rule?.moreSpecific ?? moreSpecific,
        differentContext: rule?.differentContext ?? false,
        proposedContextTags: rule?.proposedContextTags ?? [],
        existingContextTags: rule?.existingContextTags ?? [],
        reasoning: rule?.reasoning ?? "scripted conflict analysis",
        assessor: SCRIPTED_STAMP,
      };
    },

    async similarity(a: string, b: string): Promise<number> {
      record("similarity", [a, b]);
      return similarityOf(a, b);
    },

    async extractClaims(text: string): Promise<ExtractedClaim[]> {
      record("extractClaims", [text]);
      const rule = script.claims?.find((r) => matches(r.text, text));
      if (rule) return rule.claims.map((c) => ({ ...c }));
      return splitSentences(text).map((s) => {
        const quantity = extractQuantity(s);
        return quantity ? { text: s, quantity } : { text: s };
      });
    },

    async phraseRecall(question: string, dominant: BeliefText, competing: BeliefText | null): Promise<RecallPhrasing> {
      record("phraseRecall", [question, dominant, competing]);
      return { dominantAnswer: dominant.text, competingInterpretation: competing?.text ?? null, reasoning: "verbatim", assessor: SCRIPTED_STAMP };
    },

    async proposeSynthesis(a: BeliefText, b: BeliefText): Promise<SynthesisProposal> {
      record("proposeSynthesis", [a, b]);
      const rule = script.synthesis?.find((r) => matches(r.a, a.text) && matches(r.b, b.text));
      const tags = [...(a.contextTags ?? []), ...(b.contextTags ?? [])];
      return {
        text: rule?.text ?? `${stripStop(a.text)} in one context, and ${lowerFirst(stripStop(b.text))} in another.`,
        contextTags: rule?.contextTags ?? tags,
        reasoning: "scripted synthesis",
        assessor: SCRIPTED_STAMP,
      };
    },
  };
}

const stripStop = (s: string) => s.trim().replace(/[.!?]+$/, "");
const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
