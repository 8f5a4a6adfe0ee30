import { z } from "zod";
import type { BeliefText } from "@/lib/engine/assessor";
import { dataBlock, UNTRUSTED_NOTE, type PromptDefinition } from "./prompt-definition";

export const contractionAnswerSchema = z
  .object({ contract: z.boolean(), severity: z.number().min(0).max(1), reasoning: z.string().min(1) })
  .refine((a) => (a.contract ? a.severity > 0 : true), { message: "severity must be > 0 when contract is true" });

export interface ContractionInput {
  belief: BeliefText;
  rebuttals: readonly string[];
  supports: readonly string[];
}

const list = (tag: string, items: readonly string[]) =>
  items.length === 0 ? `<${tag}>(none)</${tag}>` : items.map((t, i) => dataBlock(`${tag}_${i + 1}`, t)).join("\n");

/** Holistic contraction judgement when rebuttals have accumulated (docs/design.md §4.3). */
export const contractionPrompt: PromptDefinition<ContractionInput, z.infer<typeof contractionAnswerSchema>> = {
  name: "belief_contraction",
  version: "contraction-v1",
  schema: contractionAnswerSchema,
  messages: ({ belief, rebuttals, supports }) => [
    {
      role: "system",
      content:
        "A belief has accumulated rebuttals. Weigh all rebuttals against all supports as a whole. Set `contract` true " +
        "only if the belief should lose credence beyond what each piece already did; `severity` in (0,1] says how " +
        "much (1 retires the belief), and is 0 when `contract` is false. " +
        UNTRUSTED_NOTE,
    },
    { role: "user", content: [dataBlock("belief", belief.text), list("rebuttal", rebuttals), list("support", supports)].join("\n") },
  ],
};
