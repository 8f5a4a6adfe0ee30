"use client";

import { useState, useTransition } from "react";
import { addMemberAction, changeRoleAction, removeMemberAction } from "@/lib/actions/scope-actions";
import type { ActionResult } from "@/lib/actions/safe-action";
import { useFormAction } from "@/components/ui/use-form-action";
import { FieldError, FormError, Label, buttonClass, inputClass, secondaryButtonClass } from "@/components/ui/form";
import { ROLES, type Role } from "@/lib/identity/roles";
import { Section } from "./section";
import { RoleBadge } from "./role-badge";

export interface MemberRow {
  userId: string;
  email: string;
  name: string | null;
  role: Role;
}

export function MembersSection({ scope, members, canManage, currentUserId }: { scope: string; members: MemberRow[]; canManage: boolean; currentUserId: string }) {
  const { state, pending, onSubmit } = useFormAction(addMemberAction);
  const [rowError, setRowError] = useState<string | null>(null);
  const [busy, startTransition] = useTransition();

  function run(task: () => Promise<ActionResult<null>>) {
    setRowError(null);
    startTransition(async () => {
      const result = await task();
      if (!result.ok) setRowError(result.error.message);
    });
  }

  return (
    <Section title="Members" description="Viewers read; editors also write; reviewers also decide mutations and lift freezes; owners also administer." testId="members">
      <table className="w-full text-sm">
        <thead className="text-left text-zinc-500">
          <tr>
            <th className="py-1 font-medium">Member</th>
            <th className="py-1 font-medium">Role</th>
            {canManage ? <th className="py-1" /> : null}
          </tr>
        </thead>
        <tbody>
          {members.map((member) => (
            <tr key={member.userId} className="border-t border-zinc-100 dark:border-zinc-800" data-testid="member-row">
              <td className="py-2">
                <span className="font-medium">{member.name ?? member.email}</span>
                {member.name ? <span className="ml-2 text-zinc-500">{member.email}</span> : null}
                {member.userId === currentUserId ? <span className="ml-2 text-xs text-zinc-500">(you)</span> : null}
              </td>
              <td className="py-2">
                {canManage ? (
                  <select
                    aria-label={`Role of ${member.email}`}
                    value={member.role}
                    disabled={busy}
                    onChange={(event) => run(() => changeRoleAction({ scope, userId: member.userId, role: event.target.value as Role }))}
                    className="rounded-md border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
                  >
                    {ROLES.map((role) => (
                      <option key={role} value={role}>
                        {role}
                      </option>
                    ))}
                  </select>
                ) : (
                  <RoleBadge role={member.role} />
                )}
              </td>
              {canManage ? (
                <td className="py-2 text-right">
                  <button type="button" className={secondaryButtonClass} disabled={busy} onClick={() => run(() => removeMemberAction({ scope, userId: member.userId }))}>
                    Remove
                  </button>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
      {rowError ? (
        <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
          {rowError}
        </p>
      ) : null}
      {canManage ? (
        <form onSubmit={onSubmit} className="mt-5 grid gap-3 sm:grid-cols-[1fr_auto_auto] sm:items-start" aria-label="Add a member">
          <input type="hidden" name="scope" value={scope} />
          <div>
            <Label htmlFor="member-email">Email of an existing user</Label>
            <input id="member-email" name="email" type="email" required className={inputClass} placeholder="colleague@example.com" />
            <FieldError state={state} name="email" />
          </div>
          <div>
            <Label htmlFor="member-role">Role</Label>
            <select id="member-role" name="role" defaultValue="viewer" className={inputClass}>
              {ROLES.map((role) => (
                <option key={role} value={role}>
                  {role}
                </option>
              ))}
            </select>
            <FieldError state={state} name="role" />
          </div>
          <button type="submit" className={`${buttonClass} sm:mt-6`} disabled={pending}>
            {pending ? "Adding…" : "Add member"}
          </button>
          <div className="sm:col-span-3">
            <FormError state={state} shown={["email", "role"]} />
          </div>
        </form>
      ) : null}
    </Section>
  );
}
