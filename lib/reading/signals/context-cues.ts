/**
 * Scope and context cues: phrases that narrow where, for whom or when a claim holds without saying it is false
 * ("only for team X", "in the production repo", "enterprise plans are exempt", "older adults were not studied",
 * "in regions where…", dates). Each cue yields a context tag when it names the scope.
 */

import { MONTH_ALT } from "../parse/value-vocabulary";

export type ContextCueKind =
  | "restrictive"
  | "holds_for"
  | "exception"
  | "not_studied"
  | "leading_scope"
  | "subgroup"
  | "conditional_strength"
  | "separate_part"
  | "frame_of_reference"
  | "date"
  | "restricted_subject";

export interface ContextCue {
  kind: ContextCueKind;
  /** The matched text. */
  match: string;
  /** The scope it names, lower-cased and cut to six words, e.g. "internal tools repository"; "" when it names none. */
  tag: string;
  /** The whole scope phrase, uncut (for comparing with the belief). */
  scope: string;
  /** Strong cues decide CONTEXTUALIZES alone; weak ones (dates, time zones) yield to negation and conflicts. */
  strong: boolean;
}

const GROUP_NOUNS =
  "team|teams|office|offices|region|regions|repo|repos|repository|repositories|customers|customer|users|user|" +
  "plan|plans|tier|tiers|environment|environments|cluster|clusters|country|countries|department|departments|" +
  "adults|children|patients|projects|project|services|service|engineers|developers|accounts|account|" +
  "platform|platforms|version|versions|market|markets|segment|segments|locations|sites|stores|devices|browsers|" +
  "connections|networks|phones|machines|nights|weekends|holidays|tenants|tenancies|members|students|employees|workers|" +
  "drivers|owners|buyers|sellers|residents|visitors|people|infants|babies|women|men|smokers|clients";
const MONTHS = MONTH_ALT;
const STUDY_NOUNS = /\b(?:trial|study|studies|experiment|survey|analysis|meta-analysis|review|audit|benchmark|load test|a\/b test|sample|cohort|interview|poll)\b/;
const DISCOURSE = /^(?:for example|for instance|in fact|in practice|in general|in total|in short|in addition|on average|in other words|in contrast|on the other hand|in particular|for now|in the end|in summary|for years|in recent|in my|in our experience)/;

interface CueRule {
  kind: ContextCueKind;
  pattern: RegExp;
  strong: boolean;
  /** Capture group holding the scope, if any. */
  tagGroup?: number;
}

const RULES: readonly CueRule[] = [
  {
    kind: "restrictive",
    pattern: /\b(?:only|mainly|mostly|primarily|chiefly|largely|particularly|especially|exclusively)\s+(?:[a-z]+\s+){0,2}?(?:for|in|on|among|when|where|if|within|under|to|during|while)\s+([^.;,:]{2,60})/g,
    strong: true,
    tagGroup: 1,
  },
  {
    kind: "holds_for",
    // "is held on Fridays" (takes place) is a passive, not "held for" (was true for).
    pattern: /\b(?:holds|hold|(?<!\b(?:is|are|was|were|be|been|being)\s)held|applies|apply|applied|is true|are true|was true|is valid|works|worked)\s+(?:only\s+)?(?:for|in|to|when|if|during|while|on|at)\s+([^.;,:]{2,60})/g,
    strong: true,
    tagGroup: 1,
  },
  {
    kind: "exception",
    pattern: /\b(?:exempt|exempted|except|excepting|exceptions?|excluded from|(?:is|are|were|was|be|been)\s+excluded|does not apply|doesn't apply|do not apply|don't apply|does not cover|doesn't cover|do not cover|unless|other than|with the exception of)\b/g,
    strong: true,
  },
  {
    // A verb of restriction names the scope it is held to: "limited to", "restricted to", "confined to", "reserved for".
    kind: "restrictive",
    pattern: /\b(?:limited|restricted|confined|reserved|capped|reduced)\s+(?:to|for)\s+([^.;,:]{2,60})/g,
    strong: true,
    tagGroup: 1,
  },
  {
    kind: "not_studied",
    pattern: /\b(?:not|never)\s+(?:been\s+)?(?:studied|tested|measured|included|covered|examined|evaluated|sampled|observed|considered)\b/g,
    strong: true,
  },
  {
    kind: "subgroup",
    pattern: new RegExp(
      `\\b(?:for|in|among|at|on)\\s+(?:the\\s+|our\\s+|its\\s+|their\\s+)?((?!the\\b|a\\b|an\\b|our\\b)(?:[a-z0-9-]+\\s+){1,2}(?:${GROUP_NOUNS}))\\b`,
      "g",
    ),
    strong: true,
    tagGroup: 1,
  },
  { kind: "subgroup", pattern: /\bfor\s+(team\s+[a-z0-9-]+)/g, strong: true, tagGroup: 1 },
  {
    // A group narrowed by a postmodifier: "in patients older than eighty", "for tenants without a contract".
    kind: "subgroup",
    pattern: new RegExp(
      `\\b(?:for|in|among)\\s+(?:the\\s+)?((?:${GROUP_NOUNS})\\s+(?:older|younger|over|under|aged|above|below|with|without|who|whose|outside)\\b[^.;,:]{0,40})`,
      "g",
    ),
    strong: true,
    tagGroup: 1,
  },
  {
    kind: "conditional_strength",
    pattern: /\b(?:weaker|stronger|smaller|larger|negligible|minimal|marginal|depends|depending|varies|vary|differs|differ|shrinks|shrink|only appears?)\b[^.;]{0,40}?\b(?:when|where|if|for|in|among|on|by|with)\s+([^.;,:]{2,60})/g,
    strong: true,
    tagGroup: 1,
  },
  {
    kind: "separate_part",
    pattern: /\b(?:is|are|as|a|an)\s+(?:separate|distinct|different)\s+([a-z-]+(?:\s+[a-z-]+)?)/g,
    strong: true,
    tagGroup: 1,
  },
  { kind: "frame_of_reference", pattern: /\b(?:utc|gmt|local time|time ?zone|pst|pdt|cet|cest|est|edt)\b/g, strong: false },
  {
    // A date that bounds when the claim holds ("until March", "as of 2024"); "in June" only dates an observation.
    kind: "date",
    pattern: new RegExp(`\\b(?:until|before|as of|through)\\s+((?:early\\s+|late\\s+|mid-)?(?:(?:${MONTHS})(?:\\s+\\d{4})?|(?:19|20)\\d{2}|q[1-4](?:\\s+\\d{4})?))\\b`, "g"),
    strong: false,
    tagGroup: 1,
  },
];

/**
 * A sentence opening with a frame — "For / In / Among / Within / Under / At / During / When / If … ," (a condition; "after X happened" only orders events) — that
 * is not a study description or a discourse marker: the rest of the sentence holds inside that frame. Without a comma,
 * a short prepositional frame ends where the main clause starts with a determiner or pronoun ("At weekends the …").
 */
const LEADING_SCOPE = /(?:^|[.;]\s+)((?:for|in|among|within|under|outside|across|on|at|during|over|throughout|when|whenever|if)\s+([^,;.]{3,60}))[,;]/g;
const LEADING_SCOPE_BARE = /^((?:for|in|among|within|under|outside|across|on|at|during|over|throughout)\s+((?:[a-z-]+\s+){0,3}[a-z-]+))\s+(?=(?:the|their|its|this|that|these|those|our|his|her|it|they|we)\s)/;
/**
 * A subject narrowed by a relative clause, a participle or a postmodifier before its verb: "Members who joined before
 * 2020 pay …", "Orders placed after noon ship …", "Tenants with pets need …". The sentence is about that subset.
 */
const RESTRICTED_SUBJECT = new RegExp(
  "(?:^|[.;]\\s+)((?:(?!(?:is|are|was|were|has|have|had|does|do|did|be|been)\\b)[a-z-]+\\s+){0,3}?(?!(?:is|was|has|does|this|its|his|as|us|thus|always)\\b)[a-z-]+s)\\s+((?:who|that|whose)\\s+[^,.;]{3,50}?|(?:[a-z]+ed|sent|made|built|bought|held|kept|sold|paid|given|taken|written|shown|found|run|done|brought|left)\\s+(?:by|in|at|from|for|before|after|during|under|on|via|through)\\s+[^,.;]{2,40}?|(?:with|without|aged|older than|younger than|over|under)\\s+[^,.;]{2,40}?)\\s+" +
    "(?:need|get|pay|must|can|may|are|were|have|only|take|go|receive|qualify|still|also|do|don't|cannot|can't|should|will|is|was|has|need only)\\b",
  "g",
);
/** Frames that are not scopes: an observer's report ("when we tested"), a time span ("in a week"), a count. */
const NOT_A_SCOPE = /^(?:(?:we|i|you|one)\b|(?:a|an|one)\s+(?:minute|hour|day|week|month|year|few|couple|while|row|sense|way|nutshell|word)\b|\S*\d)/;

/**
 * Context cues in `text`, in order of rule.
 * @example contextCues("That only holds for the internal tools repository.")[0]?.tag // → "the internal tools repository"
 */
export function contextCues(text: string): ContextCue[] {
  const lower = text.toLowerCase();
  const cues: ContextCue[] = [];
  for (const rule of RULES) {
    for (const m of lower.matchAll(rule.pattern)) {
      // A scope inside a comparison's baseline ("than colleagues in the office") does not narrow the claim.
      if (rule.kind === "subgroup" && /\bthan\s+(?:[a-z-]+\s+){0,4}$/.test(lower.slice(Math.max(0, m.index - 40), m.index))) continue;
      // Alternatives in one rule capture in different groups: the first one that matched names the scope.
      const scope = rule.tagGroup === undefined ? "" : cleanScope(m.slice(rule.tagGroup).find((g) => g !== undefined) ?? "");
      cues.push({ kind: rule.kind, match: m[0].trim(), tag: cutTag(scope), scope, strong: rule.strong });
    }
  }
  const bare = LEADING_SCOPE.test(lower) ? [] : [...lower.matchAll(new RegExp(LEADING_SCOPE_BARE.source, "g"))];
  LEADING_SCOPE.lastIndex = 0;
  for (const m of [...lower.matchAll(LEADING_SCOPE), ...bare]) {
    const phrase = m[1] ?? "";
    const scope = m[2] ?? "";
    // Without a comma the frame is read loosely: weak (a conflict outweighs it), and never an instance ("on a test").
    const comma = !bare.includes(m);
    if (DISCOURSE.test(phrase) || STUDY_NOUNS.test(scope) || NOT_A_SCOPE.test(scope) || (!comma && /^(?:a|an)\s/.test(scope))) continue;
    if (/^(?:(?:19|20)\d{2}|(?:the\s+)?(?:past|last|next)\b)/.test(scope)) continue;
    const cleaned = cleanScope(scope);
    cues.push({ kind: "leading_scope", match: phrase, tag: cutTag(cleaned), scope: cleaned, strong: comma });
  }
  for (const m of lower.matchAll(RESTRICTED_SUBJECT)) {
    const subject = m[1] ?? "";
    // Not a pronoun or a determiner-only subject, and not a study's description ("studies that …").
    if (/^(?:they|these|those|we|you|people|things|ones)$/.test(subject.trim()) || STUDY_NOUNS.test(subject)) continue;
    const scope = cleanScope(`${subject} ${m[2] ?? ""}`);
    cues.push({ kind: "restricted_subject", match: scope, tag: cutTag(scope), scope, strong: false });
  }
  return cues;
}

const TAG_STOP = /^(?:the|a|an|our|its|their|this|that)\s+/;

function cleanScope(raw: string): string {
  return raw.trim().replace(/\s+/g, " ").replace(TAG_STOP, "");
}

const cutTag = (scope: string) => scope.split(" ").slice(0, 6).join(" ");

/** Context tags a text names (deduplicated, strong cues first). */
export function contextTags(text: string): string[] {
  const cues = contextCues(text);
  const ordered = [...cues.filter((c) => c.strong), ...cues.filter((c) => !c.strong)];
  return [...new Set(ordered.map((c) => c.tag).filter((t) => t.length > 0))];
}

/**
 * The text opens by pointing back at the claim it comments on ("It…", "This is true…", "The effect…", "Its…"), or
 * names "this limit" / "that rule": it is about the belief even when it shares no word with it.
 */
export function refersBack(text: string): boolean {
  // Each clause may open by pointing back ("For requests from the office, the limit does not apply").
  return text
    .split(/[,;:]\s+/)
    .some((clause) => opensByPointingBack(clause));
}

function opensByPointingBack(text: string): boolean {
  const lower = text.trim().toLowerCase();
  if (/^(?:it|its|it's|this|that|these|those|they|such)\b/.test(lower)) return true;
  if (
    /^the\s+(?:effect|effects|result|results|finding|findings|gain|gains|claim|rule|policy|trend|change|improvement|increase|decrease|difference|advantage|benefit|benefits|relationship|correlation|association|figure|numbers?|statement|limit)\b/.test(
      lower,
    )
  ) {
    return true;
  }
  return /\b(?:this|that|the same)\s+(?:limit|rule|policy|claim|effect|figure|number|value|setting|belief|statement|result|finding)\b/.test(lower);
}
