/**
 * Polarity cues: explicit negation, implicit reversal ("unchanged", "disappeared"), change of state (read from the
 * grammar of change: "no longer", "now", "since …", verbs of transition), antonyms, and the direction of a stated effect (increase / decrease) weighed by the
 * valence of what moves (more vulnerabilities is bad news, more security good news).
 */
import { contentTokens, stemWord, tokenize, type Token } from "../parse/tokenize";

const NEGATORS = new Set([
  "not", "no", "never", "none", "nothing", "nobody", "neither", "nor", "cannot", "without",
  "dont", "doesnt", "didnt", "isnt", "arent", "wasnt", "werent", "hasnt", "havent", "hadnt", "wont", "cant",
  "couldnt", "shouldnt", "wouldnt", "mustnt",
]);

/** "not only", "no doubt", "never mind" do not negate the claim. */
const NON_NEGATING = /\b(?:not only|not just|no doubt|never mind|no matter|nothing but|without exception)\b/g;

/** Words that state the claimed effect did not occur or went away. */
const REVERSALS = [
  "unchanged", "disappeared", "disappears", "vanished", "vanishes", "reversed", "false", "untrue", "incorrect",
  "wrong", "myth", "debunked", "refuted", "disproved", "contradicted", "contradicts", "flat", "stalled", "absent",
  "lacks", "lacked", "failed to", "fails to", "did not hold", "no longer", "no effect", "no difference",
  "no change", "no improvement", "no significant", "no measurable", "just as many", "just as much", "just as likely",
  "just as often", "no better", "no worse", "did not differ", "same number of",
];

/**
 * Change of state, read from the grammar of change rather than from topics: adverbs that mark a new state ("no
 * longer", "anymore", "now", "instead", "used to", "as of"), "since" followed by a time or an event, verbs of
 * transition in the past ("moved", "switched", "replaced", "stepped down", "left", "dropped"…), and a governing frame
 * called new or amended ("under the amended law", "the updated guideline").
 */
const CHANGE_ADVERBS = /\b(?:no longer|not any ?more|anymore|any more|used to|instead|as of|nowadays|these days|from now on|(?<!right |just |for |until |by )now(?! and then| that\b))\b/g;
/** "since" or "after" an event of change ("after last year's migration", "since the upgrade"); "since Monday" alone marks an onset, not a change. */
const CHANGE_EVENT = /\b(?:since|after|following)\s+(?:(?:the|its|their|our|this|that|a|an|last|[a-z]+'s)\s+){1,3}(?:[a-z-]+\s+){0,2}?(?:change|changes|upgrade|update|move|migration|switch|reorg|reorganisation|reorganization|merger|acquisition|rewrite|reform|amendment|redesign|split|replacement|handover|takeover|transition|overhaul|rebrand|relaunch|restructuring)\b/g;
/** "since the new X", "under the revised X", "following the latest X": whatever X is, a new frame marks a change. */
const NEW_FRAME_EVENT = /\b(?:since|after|following|under)\s+(?:the|a|its|their|our|this)\s+(?:new|revised|amended|updated|latest|changed)\s+[a-z-]+/g;
const TRANSITION_VERBS = new Set([
  "moved", "switched", "migrated", "replaced", "changed", "converted", "transferred", "rerouted", "renamed",
  "reassigned", "retired", "resigned", "quit", "dropped", "removed", "deleted", "archived", "deprecated",
  "discontinued", "abolished", "repealed", "amended", "revised", "rewritten", "rewrote", "upgraded", "downgraded",
  "disabled", "cancelled", "canceled", "ceased", "stopped", "ended", "scrapped", "reversed", "superseded", "withdrawn",
  "relocated", "became",
]);
// "Handed out" (distributed), "turned out / up" (proved, arrived) and "gave out" report no change of state.
const TRANSITION_PARTICLES = /\b(?:stepped|took|handed|phased|switched|turned|shut|gave)\s+(?:down|over|back|aside|out|off|up)\b(?<!\b(?:handed|turned|gave)\s+out|\bturned\s+up)/g;
/**
 * "Dropped off" or "dropped round" with an object is an errand ("dropped off five shirts"), not a change; without one
 * ("sales dropped off sharply; …") it is still a fall.
 */
const ERRAND_PARTICLE = /^\s+(?:off|round)\s+(?!(?:to|in|at|by|from|after|since|when|and|but|or|[a-z]+ly)\b)[a-z0-9]/;
const CHANGE_FRAME = /\b(?:new|amended|updated|revised|latest|current|changed)\s+(?:[a-z-]+\s+)?(?:law|laws|code|rule|rules|guideline|guidelines|guidance|policy|version|release|contract|schedule|timetable|plan|system|process|setup|configuration|config|regulation|regulations|statute|standard|survey|figures|count|census|owner|manager|lead|leader|team|arrangement|terms)\b/g;

/** Change-of-state cues in `text` (lower-cased matches), empty when it states no change. */
export function changeCues(text: string): string[] {
  const lower = text.toLowerCase().replace(/[’]/g, "'");
  const found: string[] = [];
  for (const re of [CHANGE_ADVERBS, CHANGE_EVENT, NEW_FRAME_EVENT, TRANSITION_PARTICLES, CHANGE_FRAME]) for (const m of lower.matchAll(re)) found.push(m[0]);
  for (const t of tokenize(lower)) if (TRANSITION_VERBS.has(t.word) && !(t.word === "dropped" && ERRAND_PARTICLE.test(lower.slice(t.offset + t.word.length)))) found.push(t.word);
  return [...new Set(found)];
}

/** "still", "again", "continues to", "remains": the state holds on (or is back). */
export function continuityCues(text: string): string[] {
  return [...text.toLowerCase().matchAll(/\b(?:still|remains?|remained|continues? to|continued to|as before|as usual|unchanged since)\b/g)].map((m) => m[0]);
}

const INCREASE = new Set([
  "increase", "increases", "increased", "increasing", "rise", "rises", "rose", "risen", "rising", "raise",
  "raises", "raised", "grow", "grows", "grew", "grown", "growth", "higher", "more", "greater", "faster",
  "improve", "improves", "improved", "improvement", "boost", "boosts", "boosted", "gain", "gains", "hike",
  "hikes", "hiked", "doubled", "tripled", "exceeds", "exceeded", "accelerates", "accelerated", "up", "jumped",
  "climbed", "surged", "extends", "extended", "larger", "longer", "bigger",
]);
const DECREASE = new Set([
  "reduce", "reduces", "reduced", "reducing", "reduction", "lower", "lowers", "lowered", "lowering", "decrease",
  "decreases", "decreased", "fall", "falls", "fell", "fallen", "drop", "drops", "dropped", "fewer", "less",
  "slower", "decline", "declines", "declined", "cut", "cuts", "shrink", "shrinks", "shrank", "halved", "down",
  "smaller", "shorter", "prevent", "prevents", "prevented", "slows", "slowed", "diminished", "eliminated",
]);

/** Nouns whose increase is bad news: "more X" argues against a claim of improvement. */
const NEGATIVE_VALENCE = new Set(
  [
    "vulnerability", "bug", "defect", "error", "failure", "crash", "outage", "incident", "breach", "exploit",
    "risk", "death", "injury", "disease", "illness", "complaint", "churn", "regression", "flaw", "attack",
    "downtime", "problem", "fault", "leak", "insecure", "unsafe",
  ].map(stemWord),
);
/** Verbs that neutralise a negative noun ("patched vulnerabilities", "fixed bugs"). */
const REMEDIES = new Set(["patched", "fixed", "resolved", "mitigated", "closed", "addressed", "remediated", "repaired"]);

const ANTONYM_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ["secure", "insecure"], ["safe", "unsafe"], ["safe", "dangerous"], ["success", "failure"], ["succeed", "fail"],
  ["pass", "fail"], ["enable", "disable"], ["true", "false"], ["always", "never"], ["allow", "forbid"],
  ["allow", "block"], ["public", "private"], ["open", "closed"], ["online", "offline"], ["start", "stop"],
  ["include", "exclude"], ["accept", "reject"], ["win", "lose"], ["strong", "weak"], ["cheap", "expensive"],
  ["correct", "incorrect"], ["valid", "invalid"], ["legal", "illegal"], ["stable", "unstable"],
  ["reliable", "unreliable"], ["available", "unavailable"], ["present", "absent"], ["required", "optional"],
  ["mandatory", "optional"], ["synchronous", "asynchronous"], ["sync", "async"], ["healthy", "unhealthy"],
  ["effective", "ineffective"], ["benefit", "harm"], ["profit", "loss"], ["remote", "onsite"],
];

/** A comparison: one side more, less, better or worse than another ("more fibre than", "faster", "outperforms"). */
const COMPARISON = /\b(?:more|less|fewer|better|worse|[a-z]{3,}er\s+than|outperform(?:s|ed)?|beats?|superior|inferior)\b/i;
/** An equality of the compared sides: "identical", "equally", "the same", "just as … as", "no difference", "on par". */
const EQUALITY = /\b(?:identical|equal|equally|the same|no difference|just as|as\s+\w+(?:\s+\w+)?\s+as|on par|indistinguishable|no better|no worse)\b/i;

/**
 * The evidence finds equal what the belief says differs ("identical fibre content" against "has more fibre than"):
 * the comparison does not hold. Null when the belief states no comparison or already states an equality.
 * @example equalityAgainstComparison("Both engines scored the same.", "The new engine is faster than the old one.") // → "the same"
 */
export function equalityAgainstComparison(evidence: string, belief: string): string | null {
  if (!COMPARISON.test(belief) || EQUALITY.test(belief)) return null;
  return EQUALITY.exec(evidence)?.[0].toLowerCase() ?? null;
}

export interface PolarityCues {
  /** Explicit negators outside the non-negating idioms. */
  negations: string[];
  reversals: string[];
  changes: string[];
  /** Σ over direction words of dir · valence: > 0 the text claims something went up / got better, < 0 down. */
  direction: number;
}

function phrasesIn(lower: string, phrases: readonly string[]): string[] {
  return phrases.filter((p) => new RegExp(`\\b${p.replace(/ /g, "\\s+")}\\b`).test(lower));
}

/**
 * Read the polarity cues of one text.
 * @example negationCues("Pushing to main never ships anything.").negations // → ["never"]
 */
export function negationCues(text: string): PolarityCues {
  const lower = text.toLowerCase().replace(NON_NEGATING, " ");
  const tokens = tokenize(lower);
  const negations = tokens.filter((t) => NEGATORS.has(t.word)).map((t) => t.word);
  return {
    negations,
    reversals: phrasesIn(lower, REVERSALS),
    changes: changeCues(lower),
    direction: effectDirection(text),
  };
}

/**
 * Direction of the effect a text states: each increase word counts +1 and each decrease word −1, flipped when a
 * negative-valence noun (not remedied by "patched", "fixed"…) sits within eight tokens of it; a
 * "from A to B" pair of numbers adds sign(B − A).
 * @example effectDirection("The audit found a higher rate of unpatched vulnerabilities.") // → -1
 */
export function effectDirection(text: string): number {
  // "no longer" is a change of state and "up to" a bound, not directions of an effect.
  const all = tokenize(text.toLowerCase().replace(/\b(?:no|any) longer\b|\bup to\b/g, " "));
  let sum = 0;
  for (const token of all) {
    const dir = INCREASE.has(token.word) ? 1 : DECREASE.has(token.word) ? -1 : 0;
    if (dir !== 0) sum += dir * valenceNear(all, token.index);
  }
  for (const m of text.matchAll(/\bfrom\s+(\d+(?:\.\d+)?)\s*\S*\s+to\s+(\d+(?:\.\d+)?)/gi)) {
    const a = Number(m[1]);
    const b = Number(m[2]);
    if (b !== a) sum += Math.sign(b - a);
  }
  return sum;
}

/** −1 when the nearest negative-valence noun within a clause-sized window (eight tokens) is not remedied, else +1. */
function valenceNear(all: readonly Token[], i: number): number {
  for (let d = 1; d <= 8; d++) {
    for (const j of [i + d, i - d]) {
      const t = all[j];
      if (t === undefined || !NEGATIVE_VALENCE.has(t.stem)) continue;
      const before = all.slice(Math.max(0, j - 3), j);
      return before.some((b) => REMEDIES.has(b.word)) ? 1 : -1;
    }
  }
  return 1;
}

/**
 * Antonym conflicts: a content word of `belief` whose antonym (from the pair table, or the belief word with a
 * negating prefix un-/in-/non-) appears in `evidence` while the word itself does not.
 * @example antonymConflicts("The package is insecure.", "The package is secure.") // → ["secure/insecure"]
 */
export function antonymConflicts(evidence: string, belief: string): string[] {
  const eWords = new Set(tokenize(evidence).map((t) => t.stem));
  const bWords = new Set(tokenize(belief).map((t) => t.stem));
  const found: string[] = [];
  for (const [x, y] of ANTONYM_PAIRS) {
    const sx = stemWord(x);
    const sy = stemWord(y);
    if (bWords.has(sx) && eWords.has(sy) && !eWords.has(sx)) found.push(`${x}/${y}`);
    else if (bWords.has(sy) && eWords.has(sx) && !eWords.has(sy)) found.push(`${y}/${x}`);
  }
  for (const b of contentTokens(belief)) {
    for (const prefix of ["un", "in", "non", "non-"]) {
      const negated = stemWord(prefix + b.word);
      if (eWords.has(negated) && !eWords.has(b.stem) && !found.some((f) => f.startsWith(b.word))) {
        found.push(`${b.word}/${prefix}${b.word}`);
      }
    }
  }
  return found;
}
