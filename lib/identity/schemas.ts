import { z } from "zod";
import { ROLES } from "@/lib/access/roles";

export const emailSchema = z.string().trim().toLowerCase().pipe(z.email("not a valid email address"));
export const passwordSchema = z.string().min(8, "at least 8 characters").max(1024, "at most 1024 characters");
export const userNameSchema = z.string().trim().min(1).max(120);
/** Lowercase words joined by single dashes, 2–48 characters: safe in URLs and in Neo4j/SQL as data. */
export const slugSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(2, "at least 2 characters")
  .max(48, "at most 48 characters")
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "lowercase letters, digits and single dashes only");
export const scopeNameSchema = z.string().trim().min(1, "required").max(120, "at most 120 characters");
export const roleSchema = z.enum(ROLES, { error: "must be viewer, editor, reviewer or owner" });
export const idSchema = z.string().min(1).max(64);
export const tokenNameSchema = z.string().trim().min(1, "required").max(80, "at most 80 characters");
