/**
 * Change-of-state cues (read from the grammar of change: "no longer", "now", "since …", verbs of transition) and
 * antonym pairs across two statements.
 */
import { contentTokens, stemWord, tokenize } from "../parse/tokenize";

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
