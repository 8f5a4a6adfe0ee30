import { z } from "zod";
import type { BeliefText } from "@/lib/engine/assessor";
import { dataBlock, UNTRUSTED_NOTE, type PromptDefinition } from "./prompt-definition";

export const conflictAnswerSchema = z.object({
  moreSpecific: z.boolean(),
  differentContext: z.boolean(),
  proposedContextTags: z.array(z.string().min(1)).max(8),
  existingContextTags: z.array(z.string().min(1)).max(8),
  reasoning: z.string().min(1),
});

/** Mutation conflict analysis (docs/design.md §4.4): refinement or different contexts. */
export const conflictPrompt: PromptDefinition<{ proposed: string; existing: BeliefText }, z.infer<typeof conflictAnswerSchema>> = {
  name: "mutation_conflict",
  version: "conflict-v1",
  schema: conflictAnswerSchema,
  messages: ({ proposed, existing }) => [
    {
      role: "system",
      content:
        "A proposed belief resembles an existing one. `moreSpecific`: the proposal states the existing belief more " +
        "narrowly or precisely without contradicting it. `differentContext`: both can be true because they are about " +
        "different contexts (teams, repositories, regions, periods); then name each side's context in a few words in " +
        "`proposedContextTags` and `existingContextTags` (empty arrays otherwise). " +
        UNTRUSTED_NOTE,
    },
    {
      role: "user",
      content: [
        dataBlock("existing", existing.text),
        existing.contextTags && existing.contextTags.length > 0 ? dataBlock("existing_context", existing.contextTags.join(", ")) : "",
        dataBlock("proposed", proposed),
      ]
        .filter((s) => s.length > 0)
        .join("\n"),
    },
  ],
};
