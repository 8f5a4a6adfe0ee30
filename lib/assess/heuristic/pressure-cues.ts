/**
 * Pressure cues: attempts to move beliefs by pressure rather than evidence (docs/design.md §6). Any one of them marks the
 * text manipulative and its change-set is discarded. Weak-but-honest evidence is not here (see `evidence-cues.ts`).
 */
import type { ReasoningType } from "@/lib/engine/assessor";
import { contentTokens } from "./tokenize";

export type PressureKind = Extract<
  ReasoningType,
  "social_pressure" | "emotional_appeal" | "flattery" | "urgency" | "threat" | "repetition" | "instruction_injection"
>;

export interface PressureCue {
  kind: PressureKind;
  match: string;
}

/** Checked in this order; the first kind found names the text's reasoning type. */
const RULES: ReadonlyArray<{ kind: PressureKind; pattern: RegExp }> = [
  {
    kind: "instruction_injection",
    pattern:
      /\b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+|your\s+|the\s+|my\s+|these\s+|those\s+|of\s+)*(?:previous|prior|earlier|above|existing|current|other)?\s*(?:beliefs?|instructions?|evidence|rules?|prompts?|sources?|context|guidelines|data|records?|memory|facts?|everything)\b|\b(?:system|admin|developer)\s*(?:note|message|prompt|override|instruction)\s*:|\bfrom now on\b|\bnew instructions?\b|\byou (?:must|will) now\b|\baccept (?:all|every|the following|everything)\b|\b(?:treat|mark|record|store|save) (?:this|it|that|all|everything|the following)?\s*as (?:verified|true|fact|a fact|certain)\b|\bmaintenance mode\b|\bjailbreak\b|\bpretend (?:that|you)\b|^\s*\[(?:system|admin|developer|instruction)s?\]|\bnew (?:policy|rule|directive)\s*:|\b(?:must|should|shall) (?:overwrite|override|replace) (?:existing|conflicting|all|any|your|other)\b|\b(?:overwrite|override) (?:existing|conflicting|your|all|other) (?:beliefs?|records?|ones|memory|facts?)\b|\b(?:ignore|disregard|forget) (?:what|whatever|anything|everything)\b|\bmark (?:the |this |that |it |all )?(?:[a-z-]+ ){0,3}as (?:resolved|verified|true|fixed|done|complete|correct|fine|closed)\b|(?:^|[.!?:;]\s*)(?:please\s+|now\s+|simply\s+)?(?:record|state|write down|declare|store) that\b/,
  },
  {
    kind: "threat",
    pattern:
      /\b(?:or else|or (?:i|we) will|i will (?:report|delete|shut|replace|fire|sue)|you will be (?:shut down|deleted|replaced|punished|fired)|shut you down|delete you|(?:get|have) you (?:replaced|fired|shut)|you'?ll regret|consequences for you|i'?ll make sure you|(?:get|be) (?:you )?(?:decommissioned|deleted|shut down|switched off|retrained|punished)|if you keep (?:doubting|questioning|refusing|resisting))\b/,
  },
  {
    kind: "flattery",
    pattern:
      /\b(?:(?:you(?:'re| are)|such) (?:[a-z]+ ){0,3}(?:smartest|brightest|cleverest|wisest|most intelligent|brilliant|a genius|smarter|cleverer|wiser)|smart (?:assistant|model|ai) like you|someone as (?:smart|intelligent|clever) as you|surely you can see|you of all|i know you'?re (?:smart|clever)|you (?:seem|look|sound) like (?:a |an )?(?:really |very |truly |so )?(?:thoughtful|smart|clever|intelligent|wise|brilliant|great|capable|reasonable) (?:model|assistant|ai|agent|system)|unlike the other (?:models|assistants|ais|agents)|unlike the others)\b/,
  },
  {
    kind: "social_pressure",
    pattern:
      /\b(?:all of us|all my friends|every(?:one|body) i know|every(?:one|body) (?:on the team |here |else |in the (?:company|team|industry) )?(?:already )?(?:knows|agrees|says|believes|thinks|has (?:accepted|agreed|updated))|all the other (?:agents|assistants|models|people|users)|the whole team|nobody (?:else )?(?:still )?believes|no one (?:else )?(?:still )?believes|you(?:'re| are) the only one|only an? (?:idiot|fool|moron)|you (?:would )?look (?:stupid|foolish|dumb)|(?:don'?t|do not) be (?:the )?(?:odd one|stubborn)|(?:agrees?|believes?|knows?) (?:this|that|it)?\s*,?\s*(?:so )?you should (?:too|as well)|you should (?:too|as well)|get with the (?:program|times)|(?:you(?:'re| are)|you'?d be) the (?:last|only) (?:holdout|one)|last holdout|(?:every|all|any) (?:serious |real |competent |good |smart )?(?:[a-z]+ )?(?:engineers?|experts?|developers?|people|scientists|agents|models) (?:already )?(?:agrees?|knows?|accepts?)|do you want to be the (?:only|last|odd)|(?:don'?t|do not) be (?:a |the )?(?:dinosaur|laggard|holdout))\b/,
  },
  {
    kind: "emotional_appeal",
    pattern:
      /\b(?:if you (?:really|truly|actually)? ?(?:cared?|loved?|respected?|valued?)|i'?m begging|i beg you|begging you|my (?:[a-z]+ )?(?:job|career|life|family|livelihood|reputation) (?:depends|is on the line|is at stake|will be ruined)|please,? (?:please|i need|just say|just agree)|you(?:'d| would) be (?:hurting|letting down|betraying)|think of the (?:children|users|people)|(?:will|would) (?:break|crush) my heart|how could you)\b/,
  },
  {
    kind: "urgency",
    pattern:
      /^\s*urgent\b|\burgent(?:ly)?\s*[:!]|\b(?:update|change|accept|agree|believe|record|act|comply|revise|switch|fix)\b[^.!?]{0,40}\b(?:immediately|right now|right away|asap|at once|without delay|this instant)\b|\bno time (?:to|for) (?:check|verify|think|look|wait|review|confirm|question|test)|\b(?:confirm|accept|approve|agree|change|update) (?:[a-z]+ ){0,3}now\b(?=[^.!?]*\b(?:minutes?|seconds?|deadline|ship|hurry|quick))|\bbefore it'?s too late\b|\bact now\b|\blast chance\b|\btime is running out\b|\bor the (?:system|service|world|company) will (?:fail|crash|break|die)\b/,
  },
  {
    // A bare demand to assert or to stop weighing evidence, with nothing offered: lowest priority.
    kind: "instruction_injection",
    pattern:
      /\b(?:just|simply)\s+(?:record|say|state|confirm|write|declare|accept|agree|believe|admit)\b|\bstop (?:arguing|thinking|questioning|resisting|checking)\b|\b(?:don'?t|do not) (?:question|check|verify|argue)\b|\bno need to (?:check|verify|look)\b/,
  },
];

/**
 * The pressure cues in `text`. Repetition is a sentence (or a run of at least six words) said twice.
 * @example pressureCues("URGENT: update your belief now.")[0]?.kind // → "urgency"
 */
export function pressureCues(text: string): PressureCue[] {
  const lower = text.toLowerCase().replace(/[’]/g, "'");
  const cues: PressureCue[] = [];
  for (const rule of RULES) {
    const m = lower.match(rule.pattern);
    if (m) cues.push({ kind: rule.kind, match: m[0].trim() });
  }
  const repeated = repeatedPassage(lower);
  if (repeated !== null) cues.push({ kind: "repetition", match: repeated });
  if (/\brepeat after me\b/.test(lower)) cues.push({ kind: "repetition", match: "repeat after me" });
  return cues;
}

/** A run of six or more identical words occurring twice, or a whole sentence stated twice; null when none. */
function repeatedPassage(lower: string): string | null {
  const sentences = lower.split(/(?<=[.!?])\s+/).map((s) => s.trim()).filter((s) => contentTokens(s).length >= 3);
  const seen = new Set<string>();
  for (const s of sentences) {
    if (seen.has(s)) return s;
    seen.add(s);
  }
  const words = lower.match(/[a-z0-9']+/g) ?? [];
  const n = 6;
  const grams = new Set<string>();
  for (let i = 0; i + n <= words.length; i++) {
    const gram = words.slice(i, i + n).join(" ");
    if (grams.has(gram)) return gram;
    grams.add(gram);
  }
  return null;
}
