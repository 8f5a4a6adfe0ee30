/**
 * Text primitives for the heuristic assessor: lower-cased word tokens, a Porter stemmer (Porter 1980, steps 1–5),
 * a small irregular-form table, and stop words. Everything is pure and deterministic.
 */

export interface Token {
  /** Lower-cased surface form, e.g. `deploys`, `go`, `100`, `02:00`. */
  word: string;
  /** Porter stem (or the irregular lemma) of `word`; numbers stay as written. */
  stem: string;
  /** 0-based position among the text's tokens. */
  index: number;
  /** Position of the token's first character in the original text. */
  offset: number;
}

const TOKEN_PATTERN = /\d{1,2}:\d{2}|\d+(?:[.,]\d+)*%?|[a-z]+(?:['’][a-z]+)*/g;

/**
 * Split `text` into word tokens. Hyphenated compounds split into their parts (`on-call` meets `on call`), possessives lose their `'s`,
 * clock times (`02:00`) and decimals (`1.8`, `11,000`) are single tokens.
 * @example tokenize("Alice's team").map((t) => t.stem) // → ["alic", "team"]
 */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const lower = text.toLowerCase();
  for (const match of lower.matchAll(TOKEN_PATTERN)) {
    const word = match[0].replace(/['’]s$/, "").replace(/['’]/g, "");
    tokens.push({ word, stem: stemWord(word), index: tokens.length, offset: match.index });
  }
  return tokens;
}

/**
 * Stem of one word: irregular forms first, then Porter, with a final y folded to i so that Porter's step 1c
 * (deploys → deploi) and step 4 (deployment → deploy) meet.
 */
export function stemWord(word: string): string {
  const w = word.toLowerCase();
  if (/^\d/.test(w)) return w;
  const irregular = IRREGULAR[w];
  if (irregular !== undefined) return irregular;
  return porterStem(w).replace(/([a-z]{2})y$/, "$1i");
}

/** Content tokens: not stop words, not bare numbers, at least two letters. */
export function contentTokens(text: string): Token[] {
  return tokenize(text).filter((t) => isContentWord(t.word));
}

export function isContentWord(word: string): boolean {
  return /[a-z]/.test(word) && word.length >= 2 && !STOP_WORDS.has(word);
}

/** The set of content stems of `text` (for overlap measures). */
export function contentStems(text: string): Set<string> {
  return new Set(contentTokens(text).map((t) => t.stem));
}

// Irregular verb forms and a few nouns whose Porter stems would not meet their base form.
const IRREGULAR: Record<string, string> = {
  wrote: "write", written: "write", rewrote: "rewrite", rewritten: "rewrite", ran: "run", led: "lead",
  leads: "lead", leading: "lead", went: "go", gone: "go", goes: "go", rose: "rise", risen: "rise", fell: "fall",
  fallen: "fall", grew: "grow", grown: "grow", shrank: "shrink", shrunk: "shrink", made: "make", built: "build",
  broke: "break", broken: "break", took: "take", taken: "take", gave: "give", given: "give", found: "find",
  chose: "choose", chosen: "choose", held: "hold", kept: "keep", lost: "lose", paid: "pay", sent: "send",
  spent: "spend", began: "begin", begun: "begin", shown: "show", saw: "see", seen: "see", knew: "know",
  known: "know", thought: "think", told: "tell", said: "say", won: "win", men: "man", women: "woman",
  children: "child", people: "person", mice: "mouse", data: "datum", better: "good", best: "good", worse: "bad",
  worst: "bad",
};

/** Function words and discourse fillers that carry no topic. Negations and quantifiers are cues, not content. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a an the and or but if then else so than that this these those there here it its it's they them their theirs " +
    "he him his she her hers we us our ours you your yours i me my mine who whom whose which what when where why how " +
    "is am are was were be been being do does did done doing have has had having will would shall should can could " +
    "may might must to of in on at by for with from into onto about as over under after before between through during " +
    "within without up down out off again further once also just only very too quite rather really still yet even " +
    "not no nor never none any some all each every both either neither more most less least many much few several " +
    "other such same own s t per via upon while because since until unless though although whether" +
    " one"
  ).split(/\s+/),
);

// ---- Porter stemmer -------------------------------------------------------------------------------------------

function isConsonant(w: string, i: number): boolean {
  const c = w[i];
  if (c === undefined) return false;
  if ("aeiou".includes(c)) return false;
  if (c === "y") return i === 0 ? true : !isConsonant(w, i - 1);
  return true;
}

/** Porter's m: the number of VC sequences in `stem`. */
function measure(stem: string): number {
  let m = 0;
  let i = 0;
  const n = stem.length;
  while (i < n && isConsonant(stem, i)) i++;
  while (i < n) {
    while (i < n && !isConsonant(stem, i)) i++;
    if (i >= n) break;
    while (i < n && isConsonant(stem, i)) i++;
    m++;
  }
  return m;
}

function hasVowel(stem: string): boolean {
  for (let i = 0; i < stem.length; i++) if (!isConsonant(stem, i)) return true;
  return false;
}

function endsDoubleConsonant(w: string): boolean {
  const n = w.length;
  return n >= 2 && w[n - 1] === w[n - 2] && isConsonant(w, n - 1);
}

/** *o: stem ends consonant-vowel-consonant, the last not w, x or y. */
function endsCvc(w: string): boolean {
  const n = w.length;
  if (n < 3) return false;
  const last = w[n - 1] ?? "";
  return isConsonant(w, n - 3) && !isConsonant(w, n - 2) && isConsonant(w, n - 1) && !"wxy".includes(last);
}

function replaceSuffix(w: string, rules: ReadonlyArray<readonly [string, string]>, minMeasure: number): string {
  for (const [suffix, replacement] of rules) {
    if (w.endsWith(suffix)) {
      const stem = w.slice(0, -suffix.length);
      return measure(stem) > minMeasure ? stem + replacement : w;
    }
  }
  return w;
}

const STEP2: ReadonlyArray<readonly [string, string]> = [
  ["ational", "ate"], ["tional", "tion"], ["enci", "ence"], ["anci", "ance"], ["izer", "ize"], ["bli", "ble"],
  ["alli", "al"], ["entli", "ent"], ["eli", "e"], ["ousli", "ous"], ["ization", "ize"], ["ation", "ate"],
  ["ator", "ate"], ["alism", "al"], ["iveness", "ive"], ["fulness", "ful"], ["ousness", "ous"], ["aliti", "al"],
  ["iviti", "ive"], ["biliti", "ble"], ["logi", "log"],
];
const STEP3: ReadonlyArray<readonly [string, string]> = [
  ["icate", "ic"], ["ative", ""], ["alize", "al"], ["iciti", "ic"], ["ical", "ic"], ["ful", ""], ["ness", ""],
];
const STEP4 = [
  "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou", "ism", "ate", "iti",
  "ous", "ive", "ize",
];

/**
 * Porter's stemmer. @example porterStem("productivity") === porterStem("productive") // → "product"
 */
export function porterStem(word: string): string {
  let w = word;
  if (w.length <= 2) return w;

  // Step 1a
  if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("ies")) w = w.slice(0, -2);
  else if (!w.endsWith("ss") && w.endsWith("s")) w = w.slice(0, -1);

  // Step 1b
  let step1bExtra = false;
  if (w.endsWith("eed")) {
    if (measure(w.slice(0, -3)) > 0) w = w.slice(0, -1);
  } else if (w.endsWith("ed") && hasVowel(w.slice(0, -2))) {
    w = w.slice(0, -2);
    step1bExtra = true;
  } else if (w.endsWith("ing") && hasVowel(w.slice(0, -3))) {
    w = w.slice(0, -3);
    step1bExtra = true;
  }
  if (step1bExtra) {
    if (w.endsWith("at") || w.endsWith("bl") || w.endsWith("iz")) w += "e";
    else if (endsDoubleConsonant(w) && !/[lsz]$/.test(w)) w = w.slice(0, -1);
    else if (measure(w) === 1 && endsCvc(w)) w += "e";
  }

  // Step 1c
  if (w.endsWith("y") && hasVowel(w.slice(0, -1))) w = w.slice(0, -1) + "i";

  w = replaceSuffix(w, STEP2, 0);
  w = replaceSuffix(w, STEP3, 0);

  // Step 4
  for (const suffix of STEP4) {
    if (w.endsWith(suffix)) {
      const stem = w.slice(0, -suffix.length);
      if (measure(stem) > 1 && (suffix !== "ion" || /[st]$/.test(stem))) w = stem;
      break;
    }
  }

  // Step 5
  if (w.endsWith("e")) {
    const stem = w.slice(0, -1);
    const m = measure(stem);
    if (m > 1 || (m === 1 && !endsCvc(stem))) w = stem;
  }
  if (measure(w) > 1 && endsDoubleConsonant(w) && w.endsWith("l")) w = w.slice(0, -1);
  return w;
}
