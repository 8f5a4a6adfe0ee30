import { z } from "zod";
import { dataBlock, UNTRUSTED_NOTE, type PromptDefinition } from "./prompt-definition";

export const claimsAnswerSchema = z.object({
  claims: z
    .array(
      z.object({
        text: z.string().min(1),
        quantity: z.object({ value: z.number(), unit: z.string() }).nullable(),
      }),
    )
    .max(200),
});

/** Claim extraction (docs/design.md §4.7): atomic, self-contained factual claims the text asserts. */
export const claimsPrompt: PromptDefinition<{ text: string }, z.infer<typeof claimsAnswerSchema>> = {
  name: "claim_extraction",
  version: "claims-v1",
  schema: claimsAnswerSchema,
  messages: ({ text }) => [
    {
      role: "system",
      content:
        "List the atomic factual claims the text asserts, each as one complete, self-contained, falsifiable sentence " +
        "in the text's own words where possible (resolve pronouns). Skip questions, instructions, greetings and " +
        "pressure. When a claim states one main quantity, give it as `quantity` {value, unit} (unit \"\" if none), " +
        "else null. " +
        UNTRUSTED_NOTE,
    },
    { role: "user", content: dataBlock("text", text) },
  ],
};
