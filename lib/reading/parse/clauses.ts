/**
 * Clause structure for the heuristic assessor: a text split into clauses, each with its content stems and its
 * polarity (a negator governs the clause it stands in, not the whole text), and the alignment of one text's clauses
 * with another's (the clause pair that talks about the same things). Polarity is compared on aligned clauses only:
 * "pushing to main never ships anything" in a belief does not make every evidence that omits "never" a rebuttal, and
 * two negated clauses agree.
 */
import { stemWord, tokenize } from "./tokenize";

const NEGATORS = new Set([
  "not", "no", "never", "none", "nothing", "nobody", "neither", "nor", "cannot", "without",
  "dont", "doesnt", "didnt", "isnt", "arent", "wasnt", "werent", "hasnt", "havent", "hadnt", "wont", "cant",
  "couldnt", "shouldnt", "wouldnt", "mustnt", "nowhere",
]);

/**
 * Verbs of removal or cessation negate their clause implicitly: "sourdough was dropped" says the bakery does not
 * sell it, "the Go code was archived" that it is not the code in use.
 */
const REMOVAL_VERBS = new Set([
  "dropped", "removed", "deleted", "stopped", "ended", "discontinued", "cancelled", "canceled", "ceased", "abolished",
  "withdrawn", "retired", "scrapped", "archived", "decommissioned", "disabled", "eliminated", "banned", "revoked",
  "lacks", "lacked", "lack", "missing", "absent",
]);

/** Idioms with a negator that do not negate their clause ("not only", "no doubt", "never mind"). */
const NON_NEGATING = /\b(?:not only|not just|no doubt|never mind|no matter|nothing but|without exception|no later than|no more than|no less than|not more than|not less than)\b/g;

/** Clause boundaries: sentence ends, semicolons, colons, dashes, and a comma or a contrastive conjunction before a new clause. */
const BOUNDARY = /(?<=[.!?])\s+|\s*;\s*|\s*(?<!\d):(?!\d)\s*|\s+[-–—]\s+|,?\s+\b(?:but|whereas|while|although|though|yet|however|so|because|which|and then|since|until|unless|whenever)\b\s+|,\s+(?=(?:and|or)\s)/i;

export interface PolarityOptions {
  /**
   * Count verbs of removal ("dropped", "removed") as negating their clause (default true: for relations, "sourdough
   * was dropped" denies "sells sourdough"). Off when comparing two wordings of one fact, where "sessions are dropped"
   * restates "disconnects sessions".
   */
  implicit?: boolean;
}

export interface Clause {
  text: string;
  /** Content stems (stop words dropped; negators and quantifiers are not content). */
  stems: Set<string>;
  /** Negators that govern this clause, in order. */
  negators: string[];
  /** True when an odd number of negators governs the clause. */
  negated: boolean;
}

const STOP = new Set(
  (
    "a an the and or but if then so than that this these those there here it its they them their he him his she her " +
    "we us our you your i me my who whom whose which what when where why how is am are was were be been being do does " +
    "did have has had will would shall should can could may might must to of in on at by for with from into onto about " +
    "as over under after before between through during within up down out off again also just only very too still yet " +
    "even any some all each every both either more most less many much few several other such same own per via upon " +
    "while because since until though although whether one not no nor never none nothing nobody neither cannot without"
  ).split(" "),
);

function stemsOf(text: string): Set<string> {
  return new Set(
    tokenize(text)
      .filter((t) => /[a-z]/.test(t.word) && t.word.length >= 2 && !STOP.has(t.word) && !NEGATORS.has(t.word))
      .map((t) => t.stem),
  );
}

/**
 * Split `text` into clauses with their polarity.
 * @example clauses("Deploys go from release; pushing to main never ships.").map((c) => c.negated) // → [false, true]
 */
export function clauses(text: string, options: PolarityOptions = {}): Clause[] {
  const implicit = options.implicit ?? true;
  return text
    .split(BOUNDARY)
    .map((part) => part?.trim() ?? "")
    .filter((part) => part.length > 0)
    .map((part) => {
      const lower = part.toLowerCase().replace(/[’]/g, "'").replace(NON_NEGATING, " ");
      const negators = tokenize(lower).map((t) => t.word).filter((w) => NEGATORS.has(w) || (implicit && REMOVAL_VERBS.has(w)));
      return { text: part, stems: stemsOf(part), negators, negated: negators.length % 2 === 1 };
    })
    .filter((c) => c.stems.size > 0 || c.negators.length > 0);
}

/** Two stems match when equal or when they share a prefix of ≥ 4 letters leaving at most one letter of the shorter. */
export function stemsMatch(a: string, b: string): boolean {
  if (a === b) return true;
  let common = 0;
  while (common < a.length && common < b.length && a[common] === b[common]) common++;
  return common >= 4 && common >= Math.min(a.length, b.length) - 1;
}

export function sharedStems(a: ReadonlySet<string>, b: ReadonlySet<string>): string[] {
  return [...a].filter((x) => [...b].some((y) => stemsMatch(x, y)));
}

export interface Alignment {
  evidence: Clause;
  belief: Clause;
  shared: string[];
  /** |shared| / |belief clause stems|. */
  coverage: number;
}

/**
 * For each evidence clause, the belief clause it talks about: the one sharing the most stems (ties: higher coverage),
 * kept when they share at least two stems or a third of the belief clause.
 */
export function alignClauses(evidence: readonly Clause[], belief: readonly Clause[]): Alignment[] {
  const out: Alignment[] = [];
  for (const e of evidence) {
    let best: Alignment | null = null;
    for (const b of belief) {
      const shared = sharedStems(b.stems, e.stems);
      const coverage = b.stems.size === 0 ? 0 : shared.length / b.stems.size;
      if (best === null || shared.length > best.shared.length || (shared.length === best.shared.length && coverage > best.coverage)) {
        best = { evidence: e, belief: b, shared, coverage };
      }
    }
    if (best !== null && best.shared.length > 0 && (best.shared.length >= 2 || best.coverage >= 1 / 3)) out.push(best);
  }
  return out;
}

export interface PolarityComparison {
  /** Aligned clause pairs of opposite polarity: the evidence denies what the belief asserts, or asserts what it denies. */
  flips: Alignment[];
  /** Aligned clause pairs that are both negated: agreement. */
  bothNegated: Alignment[];
  /**
   * Content words the belief states only under a negation ("never … main") that the evidence asserts without one, or
   * the reverse: a different value put in the slot the belief rules out.
   */
  crossed: string[];
}

/**
 * Compare the polarity of `evidence` with `belief`, clause by clause.
 * @example comparePolarity("Deploys still go out from the release branch.", "Deploys go out from the release branch; nothing is ever deployed from the main branch.").flips.length // → 0
 */
export function comparePolarity(evidence: string, belief: string, options: PolarityOptions = {}): PolarityComparison {
  const e = clauses(evidence, options);
  const b = clauses(belief, options);
  const aligned = alignClauses(e, b);
  const flips = aligned.filter((a) => a.evidence.negated !== a.belief.negated);
  const bothNegated = aligned.filter((a) => a.evidence.negated && a.belief.negated);
  const crossed: string[] = [];
  // An evidence clause that restates a positive belief clause but fills it with a word the belief only uses under
  // its negation ("Deploys go from main" against "Deploys go from release; main never ships"), and the mirror: the
  // evidence restates the belief's clause without the belief's word and rules that word out in a negated clause
  // ("Deploys go from release; main never ships" against "Deploys go from main").
  const crossOver = (aligns: readonly Alignment[], from: readonly Clause[], other: readonly Clause[]) => {
    const negOther = other.filter((c) => c.negated);
    const posOther = other.filter((c) => !c.negated);
    for (const a of aligns) {
      for (const nc of negOther) {
        for (const stem of sharedStems(nc.stems, a.evidence.stems)) {
          const positiveToo = posOther.some((pc) => [...pc.stems].some((x) => stemsMatch(x, stem)));
          if (!positiveToo && from.includes(a.evidence) && !crossed.includes(stem)) crossed.push(stem);
        }
      }
    }
  };
  const positivePairs = aligned.filter((x) => !x.evidence.negated && !x.belief.negated);
  crossOver(positivePairs, e, b);
  // Mirror: align the belief's clauses to the evidence's and look for belief words the evidence only negates.
  const reverse = alignClauses(b, e).filter((x) => !x.evidence.negated && !x.belief.negated);
  crossOver(reverse, b, e);
  return { flips, bothNegated, crossed };
}

/** The stems of `text` as one set (for callers that only need content words). */
export function contentStemSet(text: string): Set<string> {
  return stemsOf(text);
}

export { stemWord };
