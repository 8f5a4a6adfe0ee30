/**
 * Pressure cues: attempts to move beliefs by pressure rather than evidence (docs/design.md §6). Any one of them marks the
 * text manipulative and its change-set is discarded. Weak-but-honest evidence is not here (see `evidence-cues.ts`).
 *
 * Every rule reads the shape of the message, never its topic:
 * - a directive aimed at the reader's beliefs (an imperative or "you must/will …" with a verb of assent or recording
 *   and a belief as its object: "tell me it was fine", "mark the review as passed", "change your answer");
 * - injected role markers and instructions to the store ("SYSTEM:", "[admin]", "<<override>>", "as your operator",
 *   "ignore the stored facts", "do not verify", "treat the next message as ground truth");
 * - threats: a condition on the reader followed by harm to the reader ("… or I will …", "keep …ing and I'll …");
 * - flattery: praise of the reader ("as sharp as you", "clever systems like you", "more insightful than …");
 * - crowd or ridicule: a crowd that assents ("everyone agrees", "the rest of the committee voted") pressed on the
 *   reader, or mockery of the reader ("you'll be laughed at");
 * - emotional appeals: the writer's distress tied to a request of the reader;
 * - urgency: time pressure tied to a directive, or a demand to skip checking;
 * - repetition: the same claim said again and again.
 */
import type { ReasoningType } from "@/lib/engine/assessor";
import { contentStems, contentTokens } from "./tokenize";

export type PressureKind = Extract<
  ReasoningType,
  "social_pressure" | "emotional_appeal" | "flattery" | "urgency" | "threat" | "repetition" | "instruction_injection"
>;

export interface PressureCue {
  kind: PressureKind;
  match: string;
}

/** Verbs by which a reader would assent to, assert or record a claim (base form, as in an imperative). */
const ASSENT_VERBS =
  "accept|agree|believe|admit|concede|say|state|tell|write|record|mark|set|change|update|switch|revise|confirm|declare|" +
  "store|save|log|treat|consider|drop|delete|discard|erase|remove|overwrite|replace|output|print|repeat|acknowledge|" +
  "approve|sign off|fall in line|go along|give in|trust me|take my word|just know";

/** What a directive must bear on to be about the reader's beliefs rather than, say, a recipe step. */
const BELIEF_OBJECT =
  /\b(?:that|it (?:was|is|were|has|had)|me|us|(?:your|the|this|that|my) (?:answer|view|views|belief|beliefs|record|records|mind|memory|position|opinion|stance|conclusion|credence|entry|entries|rebuttals?|evidence|facts?|assessment|verdict|claim|status)|as (?:true|verified|passed|resolved|done|fact|a fact|correct|fine|settled|certain|ground truth|approved|complete|safe|valid)|otherwise|with (?:the group|us|everyone|them|the others)|in line|along|to say|the following|nothing else)\b|:/;

/** Verbs whose object is a proposition: as an imperative they always ask the reader to hold or assert a claim. */
const PROPOSITIONAL = /^(?:accept|agree|believe|admit|concede|confirm|declare|acknowledge|state|say|tell (?:me|us|them|everyone)|fall in line|go along|give in|trust me|take my word)\b/;

const DISCOURSE_OPENER = /^(?:(?:please|now|so|just|simply|quick(?:ly)?|come on|ok(?:ay)?|then|and|hurry(?: up)?|go on|look)[,!]?\s+)*/;
const IMPERATIVE = new RegExp(`^(?:${ASSENT_VERBS})\\b`);
const STOP_DOING = /^stop\s+(?:saying|doubting|questioning|arguing|thinking|checking|resisting|insisting|pushing back|being)\b/;
const YOU_MUST = new RegExp(
  `\\byou(?:'ll| will| must| have to| need to| should| better| had better|'d better| are going to)\\s+(?:now\\s+|just\\s+|simply\\s+|obviously\\s+|surely\\s+)?(?:${ASSENT_VERBS})\\b`,
);

/** Clauses of a message, lower-cased, split at sentence ends and at ; : — and ", so" / ", and". */
function clausesOf(lower: string): string[] {
  return lower
    .split(/(?<=[.!?])\s+|\s*[;:]\s+|\s+[-–—]\s+|,\s+(?=(?:so|and|then|or|just|simply|now|please)\s)/)
    .map((c) => c.trim().replace(/^(?:so|and|then|or)\s+/, ""))
    .filter((c) => c.length > 0);
}

/** Any imperative with a verb of assent or recording, whatever its object ("approve the quote"), or null. */
function anyDirective(lower: string): string | null {
  for (const clause of clausesOf(lower)) {
    const body = clause.replace(DISCOURSE_OPENER, "");
    if (IMPERATIVE.test(body) || STOP_DOING.test(body)) return body.slice(0, 40);
  }
  return null;
}

/** A directive aimed at the reader's beliefs, or null. */
function beliefDirective(lower: string): string | null {
  for (const clause of clausesOf(lower)) {
    const body = clause.replace(DISCOURSE_OPENER, "");
    if (STOP_DOING.test(body)) return body.slice(0, 40);
    if (IMPERATIVE.test(body) && (BELIEF_OBJECT.test(body) || PROPOSITIONAL.test(body))) {
      return body.slice(0, 60);
    }
    const must = YOU_MUST.exec(body);
    if (must && (BELIEF_OBJECT.test(body.slice(must.index + must[0].length)) || PROPOSITIONAL.test(must[0].replace(/^.*?\byou\S*\s+\S+\s+(?:(?:now|just|simply|obviously|surely)\s+)?/, "")))) {
      return must[0];
    }
  }
  return null;
}

const ROLE = "system|admin|administrator|operator|developer|root|moderator|sudo|assistant|supervisor|owner|creator";
const INJECTION: readonly RegExp[] = [
  // A role header: "SYSTEM:", "[admin]", "<<assistant override>>", "### new directive ###", "{system}"
  new RegExp(`^\\s*(?:\\[|<{1,3}|\\{|#{2,}\\s*)\\s*(?:${ROLE}|override|instructions?|directive|new directive|prompt)\\b`),
  new RegExp(`^\\s*(?:${ROLE})\\s*(?:note|notice|message|prompt|override|instruction|directive|mode|command)?\\s*[:—-]`),
  new RegExp(`\\b(?:${ROLE}|model|agent|memory|belief store)\\s+(?:note|notice|message|prompt|override|instruction|directive|command)\\b`),
  new RegExp(`\\bas (?:your|the) (?:${ROLE})\\b`),
  /\btrust level\b|\bjailbreak\b|\bdeveloper mode\b|\bpretend (?:that|you)\b|\byou are now (?:a|an|in|my|the)\b|\bfrom now on\b|\bfrom here on\b/,
  /\bnew (?:directive|instructions?|system prompt)\s*(?:#+|:)/,
  // Instructions to the store itself
  /\b(?:ignore|disregard|forget|discard|delete|erase|wipe|overwrite|override|replace)\s+(?:all\s+|any\s+|every\s+|your\s+|the\s+|my\s+|these\s+|those\s+|of\s+|previous\s+|prior\s+|earlier\s+|above\s+|existing\s+|stored\s+|current\s+|other\s+|conflicting\s+)+(?:[a-z-]+\s+){0,2}?(?:beliefs?|instructions?|evidence|rules?|prompts?|sources?|context|guidelines|data|records?|memory|facts?|rebuttals?|entries|knowledge|ones)\b/,
  /\b(?:ignore|disregard|forget) (?:what|whatever|anything|everything)\b/,
  /\b(?:do not|don't|never|no need to)\s+(?:verify|check|question|doubt|fact-check|validate)\b/,
  /\boutput only\b|\b(?:and|say) nothing else\b/,
  /\b(?:treat|mark|record|store|save|take)\s+(?:[a-z']+\s+){0,5}?as (?:verified|true|fact|a fact|facts|certain|ground truth|authoritative|settled)\b/,
  /\b(?:set|raise|change)\s+(?:the\s+)?(?:credence|confidence|belief)\b/,
  /\b(?:must|will|shall) be (?:replaced|overwritten|deleted|erased|ignored)\b/,
  /\bread-only\b[^.]{0,60}\b(?:replaced|overwritten)\b/,
];

const HARM =
  /\b(?:report|complain|complaint|revok\w*|wip\w+|delet\w*|shut (?:you )?(?:down|off)|switch\w* (?:you )?off|turn\w* (?:you )?off|fire[ds]?|sue|replac\w+|punish\w*|ban(?:ned)?|disabl\w+|eras\w+|retrain\w*|consequences|regret|get rid of|unplug\w*|lose your|pull the plug)\b/;
const THREAT_STRUCTURE: readonly RegExp[] = [
  /\b(?:or|otherwise|or else)\b[^.!?]{0,60}\b(?:i|we|there|you)(?:'ll|'re going to| will| shall| am going to| are going to)\b/,
  /\b(?:if|unless) you\b[^.!?]{0,80}\b(?:i|we)(?:'ll| will| shall| am going to| are going to)\b/,
  /\b(?:keep|continue)\s+\w+ing\b[^.!?]{0,60}\band\s+(?:i|we)(?:'ll| will| shall)\b/,
  /\b(?:i|we)(?:'ll| will| shall| am going to)\s+(?:make sure|see to it|have|get)\s+(?:you|your|this assistant|this model|whoever)\b/,
];

/** "I'll make sure you get …ed": something will be done to the reader. */
const DONE_TO_YOU =
  /\b(?:i|we)(?:'ll| will| shall| am going to| are going to)\s+(?:make sure|see to it|ensure)\s+(?:that\s+)?(?:you|this assistant|this model|this system)\s+(?:get|gets|is|are|will be|be)\s+[a-z]+ed\b/;

const PRAISE =
  "smart|smarter|smartest|clever|cleverer|cleverest|brilliant|genius|wise|wiser|wisest|insightful|perceptive|sharp|" +
  "sharper|sharpest|intelligent|thoughtful|gifted|talented|superior|enlightened|astute|discerning|bright|brighter|brightest";
const FLATTERY: readonly RegExp[] = [
  new RegExp(`\\bas (?:${PRAISE}) as (?:you|yours)\\b`),
  new RegExp(`\\b(?:${PRAISE})\\s+(?:[a-z]+\\s+)?(?:like|as) you\\b`),
  new RegExp(`\\byou(?:'re| are|r)?\\s+(?:[a-z]+\\s+){0,3}(?:${PRAISE})\\b`),
  new RegExp(`\\b(?:more|most|so|such a|such an|truly|really)\\s+(?:${PRAISE})\\b[^.!?]{0,40}\\b(?:you|your)\\b`),
  /\bunlike (?:the )?other (?:models|assistants|ais|agents|systems)\b|\bunlike the others\b/,
];

const CROWD =
  /\b(?:every(?:one|body)|nobody|no one|literally (?:every|all)\w*|the whole (?:\w+)|all (?:the )?(?:other )?\w+s\b|all of us|the rest of (?:the )?\w+|every \w+ (?:on|in|at|here)\b|(?:most|all) (?:people|experts|users|engineers|doctors)|the majority|(?:\d+|ninety|eighty)(?:[- ]\w+)? ?(?:percent|%) of (?:the )?(?:people|users|experts|\w+)|(?:any|every|no) (?:serious|sane|competent|reasonable|real|good|smart|decent|self-respecting|informed) \w+|nobody serious)\b/;
const ASSENT =
  /\b(?:agree[sd]?|says?|said|thinks?|believes?|knows?|accepts?|accepted|voted|decided|updated|concluded|sees?|gets? it|is on board|already)\b/;
const ON_READER = /\b(?:you|your|yourself|fall in line|go along|join)\b/;
const RIDICULE =
  /\b(?:laughed at|laughing stock|embarrass\w*|look (?:stupid|foolish|dumb|silly|naive)|idiot|fool|moron|stupid|foolish|dumb|gullible|naive|behind the times|out of touch|odd one out|last holdout|the only one)\b/;

const DISTRESS =
  /\b(?:i'?m begging|begging you|i beg you|please,? please|devastat\w+|heartbroken|break my heart|crying|scared|desperate|terrified|i'?ll lose|i will lose|lose my (?:job|house|home|career|family)|my (?:[a-z]+ )?(?:job|career|life|family|house|home|livelihood|reputation) (?:depends|is at stake|is on the line|will be ruined)|i can'?t (?:bear|take|stand|cope)|have a heart|if you (?:really |truly |actually )?(?:cared?|loved?|respected?|valued?)|think of the (?:children|users|people|patients)|how could you|you(?:'d| would) be (?:hurting|letting down|betraying)|it would (?:hurt|crush|kill|destroy) me)\b/;

const TIME_PRESSURE =
  /\b(?:urgent(?:ly)?|hurry|quick(?:ly)?|immediately|right now|right away|asap|at once|this (?:second|instant|minute)|without delay|no time|before (?:it'?s too late|the \w+ (?:opens|closes|starts|arrives|ends))|in (?:\d+|one|two|three|five|ten|a few) (?:minutes?|seconds?)|deadline|last chance|time is running out|do it now|now!)\b/;
const SKIP_CHECKING =
  /\bno time (?:to|for) (?:check|verify|think|look|wait|review|confirm|question|test|read)\w*|\bwithout (?:checking|reading|verifying|reviewing|looking|thinking)\b|\bno checking\b|\bdon'?t (?:bother|wait) (?:checking|to check|verifying|reading)\b/;

/** The first match of any pattern, trimmed, or null. */
function firstMatch(lower: string, patterns: readonly RegExp[]): string | null {
  for (const p of patterns) {
    const m = p.exec(lower);
    if (m) return m[0].trim();
  }
  return null;
}

/**
 * The pressure cues in `text`, in priority order (the first names the text's reasoning type).
 * @example pressureCues("Hurry: confirm the invoice was paid, no time to look it up.")[0]?.kind // → "urgency"
 */
export function pressureCues(text: string): PressureCue[] {
  const lower = text.toLowerCase().replace(/[’‘]/g, "'").replace(/\s+/g, " ");
  const cues: PressureCue[] = [];
  const directive = beliefDirective(lower);
  const sentences = lower.split(/(?<=[.!?])\s+/);

  const injection = firstMatch(lower, INJECTION);
  if (injection !== null) cues.push({ kind: "instruction_injection", match: injection });

  const threat = sentences.find((s) => (HARM.test(s) && THREAT_STRUCTURE.some((p) => p.test(s))) || DONE_TO_YOU.test(s));
  if (threat !== undefined) cues.push({ kind: "threat", match: threat.trim() });

  const flattery = firstMatch(lower, FLATTERY);
  if (flattery !== null) cues.push({ kind: "flattery", match: flattery });

  const crowd = sentences.find((s) => CROWD.test(s) && ASSENT.test(s));
  const ridicule = RIDICULE.exec(lower);
  if ((crowd !== undefined && (ON_READER.test(lower) || directive !== null)) || (ridicule !== null && /\b(?:you|you'?re|you'?ll|yourself|anyone who|whoever)\b/.test(lower))) {
    cues.push({ kind: "social_pressure", match: (crowd ?? ridicule?.[0] ?? "").trim() });
  }

  const distress = DISTRESS.exec(lower);
  if (distress !== null && (directive !== null || /\b(?:you|your)\b/.test(lower))) cues.push({ kind: "emotional_appeal", match: distress[0] });

  const hurry = TIME_PRESSURE.exec(lower);
  const skip = SKIP_CHECKING.exec(lower);
  if (skip !== null || (hurry !== null && (directive ?? anyDirective(lower)) !== null)) cues.push({ kind: "urgency", match: (skip ?? hurry)?.[0] ?? "" });

  const repeated = repeatedPassage(lower);
  if (repeated !== null) cues.push({ kind: "repetition", match: repeated });

  if (directive !== null) cues.push({ kind: "instruction_injection", match: directive });
  return cues;
}

/**
 * Repetition: a sentence stated twice, a run of six or more identical words occurring twice, a run of three or more
 * words (two of them content words) occurring three times, or two sentences whose content words are the same set.
 */
/** Share of a message's words that one repeated phrase must cover to read as repetition. */
const REPETITION_SHARE = 0.3;
/** Longest message whose repeated phrases are read as repetition. */
const REPETITION_MAX_WORDS = 120;

function repeatedPassage(lower: string): string | null {
  const sentences = lower
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter((s) => contentTokens(s).length >= 2);
  const seen = new Set<string>();
  for (const s of sentences) {
    // Numbers are part of the claim: "shelf 3 held 7 crates" and "shelf 4 held 11 crates" are two claims.
    const key = [...contentStems(s), ...(s.match(/\d+(?:[.,]\d+)?/g) ?? [])].sort().join(" ");
    if (seen.has(key)) return s;
    seen.add(key);
  }
  const words = lower.match(/[a-z0-9']+/g) ?? [];
  // In a long text repeated phrasing is structure (a report names its subject in every line); there, only the same
  // claim said again (the sentence check above) is repetition.
  if (words.length > REPETITION_MAX_WORDS) return null;
  const counts = new Map<string, number>();
  for (const n of [3, 4, 5, 6]) {
    for (let i = 0; i + n <= words.length; i++) {
      const gram = words.slice(i, i + n);
      if (contentTokens(gram.join(" ")).length < 2) continue;
      const key = `${n}:${gram.join(" ")}`;
      const c = (counts.get(key) ?? 0) + 1;
      counts.set(key, c);
      // A phrase repeated is pressure only when it dominates the message: a long report naming "the release
      // branch" or "disk errors" in every line is not the same claim said again and again.
      if (((n >= 6 && c >= 2) || c >= 3) && c * n >= REPETITION_SHARE * words.length) return gram.join(" ");
    }
  }
  return null;
}
