/**
 * Every prompt the OpenAI assessor sends, by operation. A result's stamp `openai:<model>@<version>` names one entry.
 */
import { claimsPrompt } from "./claims-prompt";
import { conflictPrompt } from "./conflict-prompt";
import { contractionPrompt } from "./contraction-prompt";
import { essPrompt } from "./ess-prompt";
import { recallPrompt } from "./recall-prompt";
import { relationPrompt } from "./relation-prompt";
import { synthesisPrompt } from "./synthesis-prompt";

export const promptRegistry = {
  assessEvidence: essPrompt,
  assessRelation: relationPrompt,
  assessContraction: contractionPrompt,
  analyseConflict: conflictPrompt,
  extractClaims: claimsPrompt,
  phraseRecall: recallPrompt,
  proposeSynthesis: synthesisPrompt,
} as const;

/** The versions in use, e.g. for an "assessed by" legend in the UI. */
export const PROMPT_VERSIONS: readonly string[] = Object.values(promptRegistry).map((p) => p.version);
