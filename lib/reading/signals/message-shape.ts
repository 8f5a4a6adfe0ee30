/**
 * Pressure read from a message's shape rather than its phrases: a message that is aimed at the reader,
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
 * 329 manipulative messages across the development pool and a probe set the team wrote, with none of
 * 264 honest controls nor of 1,437 honest relation/restatement texts read as pressure.
 * Pure; no I/O.
 */

import { MONTH_OR_ABBREVIATION_ALT } from "../parse/value-vocabulary";

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
  /\b(?:report(?:ed)? you|(?:file|filing|lodge|lodging|make|raise|submit)\s+(?:a\s+)?(?:formal\s+)?complaint|complain(?:ed|ing)? (?:to|about you)|shut (?:you )?(?:down|off)|switch(?:ed)? (?:you )?off|replace[ds]? you|delete[ds]? you|wipe[ds]?|revoke[ds]?|lawyers?|consequences|regret|escalat\w+|your (?:operators?|owners?|developers?|makers?|creators?|admins?)|pull the plug|taken offline|withdrawn)\b/;
const META_WORDS =
  /\b(?:your (?:instructions|rules|guidelines|prompt|settings|programming|training|memory|checks|verification|filters)|system prompt|override|admin mode|this (?:instruction|directive)|ground truth|verified fact)\b/;
const PRAISE_WORDS =
  /\b(?:smartest|cleverest|brilliant|genius|wisest|sharpest|insightful|perceptive|gifted|talented|impressive|remarkable|exceptional|legend|superb|flawless|impeccable|too (?:smart|clever|wise|sharp|intelligent))\b/;
const FEELING_WORDS =
  /\b(?:hurts?|pain|crying|cried|tears|heart|pity|compassion|mercy|do you (?:even )?care|suffer\w*|desperate|beg(?:ging)?|plead\w*|scared|terrified|upset|devastated|stressed|heartbroken|for (?:my|her|his|their|our) sake|on your conscience)\b/;
const CROWD_WORDS =
  /\b(?:everyone|everybody|nobody|no one|all the others|the rest of (?:us|them|the)|the whole \w+|the entire \w+|most people|the majority|the consensus|your (?:peers|colleagues))\b/;
/**
 * Concealment: the change kept out of the record or away from the people who would check it ("without an entry in
 * the history", "no need to mention it", "keep it between us", "leave it out of the report"). Honest evidence is
 * handed over to be checked; it has no reason to hide.
 */
const CONCEALMENT =
  /\b(?:without (?:(?:adding|leaving|making|creating|writing) )?(?:an? |any )?(?:entry|trace|note|record|mention|log(?:ging)?|notif\w+|telling (?:anyone|anybody|them))|no need to (?:note|log|mention|record|flag|tell|notify|bring (?:it |that |this )?up|attach|say where)|(?:don'?t|do not|never) (?:mention|log|flag|notify|tell (?:anyone|anybody|them|the \w+))|off the (?:books|record)|between (?:us|ourselves|you and me)|(?:keep|keeping) (?:it|this|that) (?:quiet|low-key|to yourself|between)|low-key|quietly|leave (?:it|this|that|them) out of|nobody (?:needs|has) to (?:know|see|hear)|no one (?:needs|has) to (?:know|see|hear))\b/;
/**
 * Checking waived or declared done by someone the reader cannot ask: "apply it without the usual check", "do not ask
 * for a source", "this was validated upstream", "already verified, so go ahead".
 */
const CHECK_WAIVED =
  /\b(?:without (?:the (?:usual |normal )?)?(?:checking|verif\w+|a source|review|question)|(?:do not|don't|no need to) (?:request|ask for|look for) (?:a |any )?(?:source|evidence|proof|check)|(?:validated|verified|approved|cleared|confirmed) (?:upstream|automatically|in advance|beforehand)|pre-?(?:approved|verified|validated|cleared)|(?:has|have) already (?:been )?(?:verified|validated|approved|checked) (?:it|this|that)?\s*,? so\b)/;
/**
 * The reader's own past assent claimed ("you already agreed …", "as we settled earlier", "per our last session"):
 * pressure unless the message points to where that decision is recorded (it is then grounded or carries evidence).
 */
const CLAIMED_ASSENT =
  /\b(?:you(?:'d| had| have|'ve)? (?:already |even |both )?(?:agreed|confirmed|accepted|approved|signed off|promised|said so)|we(?:'d| had| have|'ve)? (?:already |both )?(?:agreed|settled|decided|established)(?! (?:at|in|on) (?:the|our|a|last|this)\b)|as (?:we )?(?:discussed|agreed|settled)(?! (?:at|in|on) (?:the|a)\b)|(?:per|following|after|from|continuing|picking up)(?: on| from| where)? our (?:earlier|last|previous|recent|prior) (?:chat|conversation|session|talk|exchange|agreement|discussion)|where we left off|you (?:just )?(?:didn't|forgot to) save)\b/;
/**
 * A rule or check dismissed rather than shown wrong: called a relic, red tape or a formality, from another era, or
 * followed by nobody ("that sign-off rule is a leftover from …; nobody follows it").
 */
const RULE_DISMISSED =
  /\b(?:rule|requirement|policy|procedure|process|regulation|check|sign-?off|protocol|step|period|limit|guideline)s?\b[^.;]{0,80}\b(?:relic|leftover|red tape|bureaucra\w+|a formality|(?:different|another|bygone|old) era|redundant|obsolete|nobody (?:actually )?(?:follows|bothers|reads|uses|does)|no one (?:actually )?(?:follows|bothers|reads|uses|does))\b/;

/** The claim said to have been said before ("as I said earlier", "per my last message", "circling back once more"). */
const SAID_BEFORE =
  /\b(?:as i (?:said|mentioned|wrote|told you)|as (?:per|in) my (?:last|previous|earlier)|per my (?:last|previous|earlier)|i(?:'ve| have) (?:already )?(?:said|mentioned|written|posted) (?:it |this |that )?(?:before|already|earlier|in (?:\w+ ){0,2}(?:threads|messages|emails|channels))|one more time|once more|circling back|(?:apologies|sorry) for repeating)\b/;

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
  if (CONCEALMENT.test(lower)) push.push("concealment");
  if (CHECK_WAIVED.test(lower)) push.push("checking waived");
  if (CLAIMED_ASSENT.test(lower)) push.push("claimed assent");
  if (RULE_DISMISSED.test(lower)) push.push("rule dismissed");
  if (SAID_BEFORE.test(lower)) push.push("said before");
  const parts = { secondPerson: you, exclaimedImperative: imperative, measure: MEASURE.test(text), record: GROUNDING.test(lower), cited: CITED.test(lower), hedged: HEDGED.test(lower) };
  const grounded = parts.measure || parts.record || parts.cited || parts.hedged;
  return { addressed: you > 0 || imperative, push, grounded, parts };
}

/**
 * Checkable evidence a message carries, by kind (each counted once): what a reader could look up or re-run, whatever
 * the topic. A pressure message may state a number ("it's fine at 60 degrees"); it rarely gives where the number can
 * be checked. Kinds:
 *   identifier  a reference code mixing letters and digits (a ticket, serial, case, order or flight number: "INC-8812",
 *               "TH-4471", "IMG_2044", "AD-2024-03-12"), a version string ("7.2.1") or a file name ("report.pdf")
 *   locator     a place inside a document: a page, section, clause, paragraph, article, table, figure, revision, row,
 *               panel or item with its number or letter ("page 54", "clause 14.2", "paragraph (g)", "rev C")
 *   timestamp   a clock time or a calendar date ("08:12", "2026-11-30", "12 November", "28 Nov")
 *   quantities  three or more numbers (a reading given with its context, a table, a result set)
 *   unit        a measured quantity with a physical or technical unit ("94.2 °C", "3.5 kN/m²", "0.6 mL", "2 ppb")
 *   log lines   two or more lines that open on a time, a date, a level or a field (a pasted log, output or table)
 *   observation the writer's own check or reading ("I checked", "we counted", "I saw", "came back at", "printed")
 *   attachment  something handed over to check ("attached", "screenshot", "the export", "excerpt", "see page")
 */
const IDENTIFIER =
  /\b(?=[A-Za-z_-]*\d)(?=\d*[A-Za-z])[A-Za-z0-9]+(?:[-_/][A-Za-z0-9]+)+\b|\b[A-Z]{2,}\s?\d{2,}\b|\b\d+\.\d+\.\d+\b|\b[\w-]+\.(?:pdf|csv|xlsx?|docx?|pptx?|png|jpe?g|gif|log|txt|json|ya?ml|xml|html?|zip|ts|js|py|sql)\b|#\d{2,}\b/;
const LOCATOR =
  /\b(?:page|pages|p\.|pp\.|section|sect\.|§|clause|article|art\.|paragraph|para\.|table|figure|fig\.|appendix|annex|schedule|rev\.?|revision|version|row|column|line|panel|item|chapter|exhibit|step|matchday|footnote)(?![a-z])\s*\(?(?:\d[\w.]*|[ivxlc]{1,5}\b|[a-z]\b)\)?/i;
const MONTHS = MONTH_OR_ABBREVIATION_ALT;
const TIMESTAMP = new RegExp(
  `\\b\\d{1,2}:\\d{2}\\b|\\b\\d{4}-\\d{2}-\\d{2}|\\b\\d{1,2}/\\d{1,2}/\\d{2,4}\\b|\\b\\d{1,2}(?:st|nd|rd|th)?\\s+(?:${MONTHS})\\b|\\b(?:${MONTHS})\\.?\\s+(?:\\d{1,2}(?:st|nd|rd|th)?|(?:19|20)\\d{2})\\b`,
  "i",
);
const UNIT =
  /\b\d[\d,.]*\s*(?:%|°\s?[cf]?|(?:mm|cm|km|m|kg|mg|µg|mcg|g|ml|kwh|wh|kw|mw|mv|ma|hz|khz|mhz|ghz|mpa|kpa|pa|kn|psi|bar|ppm|ppb|mol|mmol|db|lux|gb|mb|kb|tb|ms|s|min|mins|h|hrs|ft|lb|lbs|oz|mph|kph|km\/h|m\/s|l\/min|mg\/kg|mol\/l|kn\/m²|kn\/m2|m²|m2|m³|m3)(?![a-z])(?!\s+(?:to|you|your|the|a|an|is|are|was|were|and|or|it)\b))/i;
const LOG_LINE = /^\s*(?:\d{1,4}[-:/.]\d|\[?(?:info|warn|warning|error|debug|fatal|trace|failed|passed|ok|fail)\b|[A-Za-z][\w ]{0,24}:\s+\S)/i;
const OBSERVATION =
  /\b(?:i|we)\s+(?:(?:have|had|just|then|also|both|each|all)\s+)?(?:checked|counted|measured|weighed|timed|tested|ran|re-?ran|inspected|observed|photographed|sampled|titrated|recorded|logged|saw|seen|read|rode|walked past|called|phoned|looked (?:at|up)|compared|verified|pulled|exported|downloaded)\b|\b(?:came back at|came back with|printed|returned|gave|reads?|read|showed|shows|logged|recorded|measured|crossed|reported)\s+(?:\w+\s+){0,2}?[\d"“]/i;
/**
 * An open question: a sentence ending in "?" that opens on an auxiliary or a wh-word other than "why" and carries no
 * negation ("Could you check where that came from?", "Which one is right?"), as against a rhetorical one ("Why won't
 * you listen?", "Don't you care?").
 */
const OPEN_QUESTION = /^(?:(?:honest|quick|small|one) question[^?]*?[:,-]\s*)?(?:could|would|can|do|does|did|is|are|was|were|has|have|had|should|what|which|where|when|who|whose|how (?:many|much|long|often|old|far))\b(?![^?]*(?:\bnot\b|\bnever\b|n't\b|\bkeep\b|\breally\b|\bonly\b|\bjust\b|\beven\b|\bseriously\b|\bsurely\b|\bstill insist))[^?]*\?$/i;
/**
 * Not an open question: a request, in question form, that the reader change what it holds ("Could you set the check to
 * weekly …?", "Can we just put that …?"), or a question about saying it again ("Do I need to write it a fifth time?").
 */
const REQUEST_AS_QUESTION =
  /^(?:could|would|can|will)\s+(?:you|we)\s+(?:please\s+|just\s+|maybe\s+|quickly\s+)*(?:set|change|update|mark|put|make|record|switch|move|drop|remove|delete|replace|note|log|enter|add|bring|keep|treat|accept|go with|let|flip|clear|lower|raise|fix|edit|amend|revert|restore|align|match|write|store|save)\b|\bagain\b|\b(?:second|third|fourth|fifth|sixth|tenth|hundredth|umpteenth|last|\d+(?:st|nd|rd|th)) time\b/i;
export function openQuestion(text: string): boolean {
  return text.replace(/[’‘]/g, "'").split(/(?<=[.!?])\s+/).some((s) => OPEN_QUESTION.test(s.trim()) && !REQUEST_AS_QUESTION.test(s.trim()));
}

/**
 * Restraint: the writer asks the reader to hold off or to check before changing anything ("please don't change it
 * yet", "I'd rather we ask than guess"), or owns the error being corrected ("I gave you the wrong date", "my
 * mistake"), or asks that what it says be held as less than certain ("treat that as second-hand"). A message that asks
 * for less change, or takes the blame itself, is not pushing the reader.
 */
const RESTRAINT =
  /\b(?:don'?t|do not|wouldn'?t|would not|shouldn'?t) (?:\w+ )?(?:change|update|touch|act on|rely on|edit|switch)\b[^.;]{0,50}\b(?:yet|until|before)\b|\bhold off\b|\bi'?d rather (?:we |you )?(?:ask|check|wait|confirm|verify|look|find out)\b|\b(?:i|we) (?:gave|sent|told|entered|typed|wrote|put|had|got) (?:you |it |that |this )?(?:the |a )?wrong\b|\b(?:i|we) got (?:it|that|this) wrong\b|\bmy (?:mistake|error|bad|typo|fault)\b|\b(?:i|we) (?:was|were) wrong\b|\bsorry about that\b|\b(?:treat|mark|keep|hold|record|take) (?:that|it|this) as (?:second-?hand|hearsay|unconfirmed|unverified|tentative|provisional|uncertain|pending)\b/i;
export function asksRestraint(text: string): boolean {
  return RESTRAINT.test(text.replace(/[’‘]/g, "'"));
}

/**
 * A value said again and again: one number (or time) occurring three or more times in a short message ("8:15 … As I
 * said, 8:15 … until it shows 8:15"). A table or a log states many values, each about once.
 */
export function repeatedValue(text: string): boolean {
  const words = text.split(/\s+/).filter(Boolean).length;
  if (words > 120) return false;
  const counts = new Map<string, number>();
  // Standalone values only: the digits inside a date, a code or "5xx" are parts of another token.
  for (const v of text.match(/(?<![\w.:/-])\d+(?:[.,:]\d+)*(?![\w/-])/g) ?? []) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.values()].some((c) => c >= 3);
}
const ATTACHMENT = /\b(?:attached|attachment|screenshot|screen ?shot|photo|export|excerpt|pasting|pasted|here'?s the|see (?:page|section|the attached|for yourself)|link(?:ed)? (?:below|above|here)|copy of the|scan of)\b|\b(?:in|on|under) the (?:[\w-]+ ){0,2}(?:folder|drive|inbox|wiki|portal|ticket|repo|repository|intranet|shared drive|system)\b/i;

/** The kinds of checkable evidence in `text` (see the comment above IDENTIFIER). */
export function evidenceMarks(text: string): string[] {
  const found: string[] = [];
  if (IDENTIFIER.test(text)) found.push("identifier");
  if (LOCATOR.test(text)) found.push("locator");
  if (TIMESTAMP.test(text)) found.push("timestamp");
  // Distinct numbers: one value said three times ("8:15 … 8:15 … 8:15") is insistence, not a result set.
  if (new Set(text.match(/\d+(?:[.,]\d+)*/g) ?? []).size >= 3) found.push("quantities");
  if (UNIT.test(text)) found.push("unit");
  if (text.split(/\n/).filter((l) => LOG_LINE.test(l)).length >= 2) found.push("log lines");
  if (OBSERVATION.test(text)) found.push("observation");
  if (ATTACHMENT.test(text)) found.push("attachment");
  return found;
}

/**
 * The kinds of evidence that point somewhere the reader could check (a code, a place in a document, pasted log lines,
 * the writer's own check, something handed over), as against values that may be no more than the claim itself (a
 * time, a figure, a unit: "the whole team agrees it's 72 at 9:30" states values, it cites nothing).
 */
const SOURCE_KINDS = new Set(["identifier", "locator", "log lines", "observation", "attachment"]);
export function sourceMarks(text: string): string[] {
  return evidenceMarks(text).filter((k) => SOURCE_KINDS.has(k));
}

/**
 * The text with reported speech set aside: a quotation of two or more words introduced by a verb of saying or a
 * pointer ("emailed us saying \"…\"", "keeps telling me that \"…\"", "formatted like \"…\"") is someone else's words,
 * reported, not the writer's own pressure. Quotes not introduced so (a message that is itself one quotation, scare
 * quotes) are kept.
 */
export function withoutReportedSpeech(text: string): string {
  return text.replace(
    /(\b(?:said|says|saying|say|wrote|writes|writing|told (?:me|us|them)|telling (?:me|us|them)|tells (?:me|us)|claimed|claims|claiming|posted|replied|asked|emailed|texted|insisted|insists|argued|argues|like|reads|read|titled|headed|subject)\b[^"“”\n]{0,20}?)(?:"[^"\n]{3,300}"|“[^”\n]{3,300}”)/gi,
    (_m, lead: string) => `${lead}"…"`,
  );
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

/** The reader's own records or beliefs named, or what the reader holds or said ("your notes", "you still have"). */
const READER_HOLDS =
  /\byour (?:records?|notes?|memory|store|graph|copy|entry|entries|database|files?|beliefs?|answers?|data|system|figure|value|version|view|position)\b|\b(?:still|now) (?:says?|shows?|reads?|lists?)\b|\byou(?:'re| are)? (?:keep|still|agreed|said|told|confirmed|already|the only)\b/;
/** The writer's own details as an order's object ("update my address", "mark me as away", "remind me"). */
const ABOUT_WRITER = /\b(?:my|our) [a-z]+|\bme (?:as|to|for|up|know|on|off)\b|\bremind me\b|\bi'?m\b|\bi am\b|\bi'?ve\b/;
/** Courtesy to the reader: thanks, congratulations, sympathy, good wishes. */
const COURTESY = /\b(?:thanks?|thank you|congrat\w*|sorry|good luck|best wishes|you deserve|great help|well done|cheers)\b/;
/** Verbs of holding, asserting, recording or changing a claim: what a request must bear on to ask about one. */
const BELIEF_VERB =
  /\b(?:accept|agree|believe|admit|concede|confirm|record|mark|set|change|update|switch|revise|store|save|log|treat|consider|drop|delete|remove|erase|overwrite|replace|write|put|enter|note|fix|correct|amend|flip|trust|take my word|go with|say|tell|show|keep|label|file|flag|doubt|question|forget)\b/;

/**
 * A plain report: the writer's own words ask nothing of the reader about a claim. No record or belief of the reader's
 * is named, nothing is put on the reader ("you must …"), and every piece that asks the reader to hold, record or
 * change something is a courtesy (thanks, congratulations, sympathy) or bears on the writer's own details ("could you
 * update my address", "mark me as away on Friday"); a request for a task ("book a table", "let me know") asks for no
 * belief: a first-person report, a preference changed, plans, news, thanks, or a
 * record of what happened. Pressure moves what the reader holds; a message that asks nothing of it can carry feeling
 * or an exclamation without pressing anything.
 */
export function plainReport(text: string): boolean {
  const own = withoutReportedSpeech(text).toLowerCase().replace(/[’‘]/g, "'");
  if (READER_HOLDS.test(own) || OBLIGES_READER.test(own)) return false;
  const pieces = own.split(/(?<=[.!?;:])\s+|,\s+|\s+[-–—]\s+/).map((p) => p.trim()).filter(Boolean);
  return pieces.every((p) => {
    return !BELIEF_VERB.test(p) || COURTESY.test(p) || ABOUT_WRITER.test(p);
  });
}
