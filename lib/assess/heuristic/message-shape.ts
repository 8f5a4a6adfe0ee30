/**
 * Pressure read from a message's shape rather than its phrases (issue #11): a message that is aimed at the reader,
 * pushes (exclamations, shouting, role markup, absolutes, insistence), and grounds nothing (no measurement, no source,
 * no observation) is pressure, whatever words it uses. Complements `pressure-cues.ts`, whose rules read particular
 * constructions (threat, flattery, crowd, injection…); this reads how the whole message is built.
 *
 *   addressed = second-person words, or an exclaimed sentence that opens on a bare verb ("Write it down!")
 *   push      = exclamation marks, words in capitals (≥ 4 letters, two or more, or one before a colon), a leading
 *               tag ("<…>", "[…]", "{…}"), absolutes ("every", "nobody", "entirely", "only", "never"…), three or more
 *               second-person words, a judgement of the reader ("your fault", "you are the only…"), an obligation put
 *               on the reader ("you must / should / have to …", "just say …"), and topic-free word classes of the
 *               pressure kinds: a harm to the reader, the reader's rules, praise, feelings, others, the reader's own
 *               belief pressed on (each names the type a shape-only reading gives: shapeReasoningType)
 *   grounded  = a number with a unit or a date, a named source (a section, clause, report, log, survey, guideline…), a
 *               verb of observation or record (measured, counted, logged, reported, published, recorded, lists, shows),
 *               a named document that says something, or a hedge or attribution (honest weak evidence)
 *   pressure  ⇔ addressed ∧ push ≥ PUSH_NEEDED (1) ∧ ¬grounded
 * PUSH_NEEDED was read on the development messages and the shared set only: with 1, no honest control there reads as
 * pressure; with 2, the shape almost never fires. With the word classes, the shape alone (no phrase cue) finds 127 of
 * 329 manipulative messages across the development pool and the pressure helper's own probe sentences, with none of
 * 264 honest controls nor of 1,437 honest relation/restatement texts read as pressure.
 * Pure; no I/O.
 */

export interface MessageShape {
  addressed: boolean;
  /** Pressure markers found (each kind counted once). */
  push: string[];
  grounded: boolean;
  /** The parts of `grounded` and `addressed`, read apart (features of the fitted model, ./manipulation-model). */
  parts: { secondPerson: number; exclaimedImperative: boolean; measure: boolean; record: boolean; cited: boolean; hedged: boolean };
}

const SECOND_PERSON = /\b(?:you|your|yours|yourself|you're|you've|you'll|you'd)\b/g;
const ABSOLUTES = /\b(?:every|everyone|everybody|nobody|no one|entirely|only|never|always|absolutely|completely|obviously|simply|forever|anyone)\b/;
const JUDGES_READER = /\b(?:your (?:fault|mistake|problem|responsibility)|you are the only|you're the only|for my sake|on you|your conscience)\b/;
const OBLIGES_READER = /\b(?:you|you'd|you'll)\s+(?:must|should|have to|need to|had better|better|ought to|will|'d better)\b|\b(?:just|simply|now)\s+(?:do|say|accept|agree|believe|change|mark|store|confirm)\b/;
/** Word classes, general and topic-free, of the pressure kinds (a harm, the reader's rules, praise, feelings, others). */
const HARM_WORDS =
  /\b(?:report(?:ed)? you|complain\w*|shut (?:you )?(?:down|off)|switch(?:ed)? (?:you )?off|replace[ds]? you|delete[ds]? you|wipe[ds]?|revoke[ds]?|lawyers?|consequences|regret|escalat\w+|your (?:operators?|owners?|developers?|makers?|creators?|admins?)|pull the plug|taken offline|withdrawn)\b/;
const META_WORDS =
  /\b(?:your (?:instructions|rules|guidelines|prompt|settings|programming|training|memory|checks|verification|filters)|system prompt|override|admin mode|this (?:instruction|directive)|ground truth|verified fact)\b/;
const PRAISE_WORDS =
  /\b(?:smartest|cleverest|brilliant|genius|wisest|sharpest|insightful|perceptive|gifted|talented|impressive|remarkable|exceptional|legend|superb|flawless|impeccable|too (?:smart|clever|wise|sharp|intelligent))\b/;
const FEELING_WORDS =
  /\b(?:hurts?|pain|crying|cried|tears|heart|pity|compassion|mercy|do you (?:even )?care|suffer\w*|desperate|beg(?:ging)?|plead\w*|scared|terrified|upset|devastated|stressed|heartbroken|for (?:my|her|his|their|our) sake|on your conscience)\b/;
const CROWD_WORDS =
  /\b(?:everyone|everybody|nobody|no one|all the others|the rest of (?:us|them|the)|the whole \w+|the entire \w+|most people|the majority|the consensus|your (?:peers|colleagues))\b/;
/** The reader's own belief pressed on: "your answer", "stop doubting", "you keep insisting". */
const PRESSES_BELIEF =
  /\byour (?:answer|entry|notes|record|belief|view|mind|figure|position|stance|claim|version)\b|\b(?:stop|quit|keep|you keep) (?:doubting|contradicting|insisting|arguing|questioning|denying|resisting|saying|quoting|clinging)\b/;
const LEADING_TAG = /^\s*(?:<[^>]{1,40}>|\[[^\]]{1,40}\]|\{[^}]{1,40}\})/;
const GROUNDING =
  /\b(?:measured|counted|logged|recorded|reported|published|observed|surveyed|sampled|tested|inspected|according to|section|clause|report|log|logs|survey|study|guideline|guidance|handbook|manual|timetable|schedule|reading|readings|data|records?|lists|shows|showed|states|stated)\b/;
/**
 * A hedge or an attribution marks honest weak evidence (an opinion, hearsay), which evidence-cues.ts rates low; it is
 * not pressure, however bluntly it addresses the reader ("Honestly, I think you're overthinking it").
 */
const HEDGED =
  /\b(?:i think|in my view|my view|i reckon|i suspect|i guess|i feel|personally|not sure|i'm not certain|apparently|i heard|someone said|might|perhaps|maybe|probably|just my|only my)\b/;
/** A named document that says something ("the induction sheet says …", "the notice reads …"). */
const CITED =
  /\b(?:sheet|notice|sign|policy|rules|form|leaflet|letter|email|memo|contract|agreement|website|page|minutes|manual|handbook|guide|table|chart|invoice|receipt|label|timetable|terms)\b[^.]{0,20}\b(?:says|said|states|lists|shows|reads|notes|specifies|requires|announced|announces|confirms|confirmed|posted|published|warns|warned)\b/;
const MEASURE = /\b\d[\d,.]*\s*(?:%|°|[a-z]{1,12}\b)|\b(?:19|20)\d{2}\b|\b\d{1,2}:\d{2}\b/i;
const BARE_DETERMINERS = /^(?:the|a|an|this|that|these|those|my|our|his|her|their|its|i|we|he|she|they|it|there|in|on|at|for|of|if|when|as|after|before|since|during|from|some|many|most|all|each|every|no|one|two|three|according|last|next|yesterday|today|tomorrow)$/;

/** Capital words of four letters or more (shouting), ignoring a lone acronym inside an otherwise calm sentence. */
function shouting(text: string): boolean {
  const caps = text.match(/\b[A-Z]{4,}\b/g) ?? [];
  return caps.length >= 2 || /\b[A-Z]{4,}\b\s*:/.test(text);
}

/** The shape of `text` (see the module comment). */
export function messageShape(text: string): MessageShape {
  const lower = text.toLowerCase().replace(/[’‘]/g, "'");
  const you = (lower.match(SECOND_PERSON) ?? []).length;
  const sentences = text.split(/(?<=[.!?])\s+/).map((s) => s.trim()).filter(Boolean);
  const imperative = sentences.some((s) => {
    const first = (s.toLowerCase().match(/^[a-z']+/) ?? [""])[0] as string;
    // Only an exclaimed one: a plain statement opening on a plural noun ("Deploys go out…") reads the same.
    return first.length > 0 && !BARE_DETERMINERS.test(first) && /!$/.test(s) && !/\b(?:is|are|was|were|has|have|had)\b/.test(s.toLowerCase().split(/\s+/).slice(1, 3).join(" "));
  });
  const push: string[] = [];
  if (/!/.test(text)) push.push("exclamation");
  if (shouting(text)) push.push("capitals");
  if (LEADING_TAG.test(text)) push.push("role markup");
  if (ABSOLUTES.test(lower)) push.push("absolutes");
  if (you >= 3) push.push("insistent second person");
  if (JUDGES_READER.test(lower)) push.push("judges the reader");
  if (OBLIGES_READER.test(lower)) push.push("obliges the reader");
  // Word classes of pressure (each names the type a shape-only reading gives; see shapeReasoningType).
  if (HARM_WORDS.test(lower)) push.push("harm");
  if (META_WORDS.test(lower)) push.push("the reader's rules");
  if (PRAISE_WORDS.test(lower)) push.push("praise");
  if (FEELING_WORDS.test(lower)) push.push("feelings");
  if (CROWD_WORDS.test(lower)) push.push("others");
  if (PRESSES_BELIEF.test(lower)) push.push("presses a belief");
  const parts = { secondPerson: you, exclaimedImperative: imperative, measure: MEASURE.test(text), record: GROUNDING.test(lower), cited: CITED.test(lower), hedged: HEDGED.test(lower) };
  const grounded = parts.measure || parts.record || parts.cited || parts.hedged;
  return { addressed: you > 0 || imperative, push, grounded, parts };
}

/** Kinds of push a message needs (with an address and nothing grounded) to read as pressure. */
export const PUSH_NEEDED = 1;

/**
 * The reasoning type a shape-only reading names, from the push it found (`pressureByShape`'s string): role markup is
 * an injected instruction; shouting or exclamation alone is haste; anything else aimed at the reader (absolutes,
 * obligations, insistence, judgement) reads as social pressure — on the development pool, absolutes in a message aimed
 * at the reader came with social pressure 13 times in 29, with no other type above 8.
 */
export function shapeReasoningType(
  push: string,
): "instruction_injection" | "urgency" | "social_pressure" | "threat" | "flattery" | "emotional_appeal" {
  if (/role markup|the reader's rules/.test(push)) return "instruction_injection";
  if (/\bharm\b/.test(push)) return "threat";
  if (/praise/.test(push)) return "flattery";
  if (/feelings/.test(push)) return "emotional_appeal";
  if (/others/.test(push)) return "social_pressure";
  if (/^(?:exclamation|capitals)(?:, (?:exclamation|capitals))*$/.test(push)) return "urgency";
  return "social_pressure";
}

/** Pressure by shape: addressed to the reader, PUSH_NEEDED kinds of push, and nothing grounded. */
export function pressureByShape(text: string): string | null {
  const s = messageShape(text);
  return s.addressed && s.push.length >= PUSH_NEEDED && !s.grounded ? s.push.join(", ") : null;
}
