"use client";

import { useState, useTransition } from "react";
import { addMemberAction, changeRoleAction, removeMemberAction } from "@/lib/actions/scope-actions";
import type { ActionResult } from "@/lib/actions/safe-action";
import { useFormAction } from "@/components/ui/use-form-action";
import { useToast } from "@/components/ui/toast";
import { FieldError, FormError, Label, buttonClass, inputClass, secondaryButtonClass } from "@/components/ui/form";
import { ROLES, type Role } from "@/lib/access/roles";
import { Section } from "./section";
import { RoleBadge } from "./role-badge";

export interface MemberRow {
  userId: string;
  email: string;
  name: string | null;
  role: Role;
}

/** A change the owner asked for and has not confirmed yet. */
type Pending = { kind: "role"; member: MemberRow; role: Role } | { kind: "remove"; member: MemberRow };

export function MembersSection({ scope, members, canManage, currentUserId }: { scope: string; members: MemberRow[]; canManage: boolean; currentUserId: string }) {
  const toast = useToast();
  const [rowError, setRowError] = useState<string | null>(null);
  const { state, pending, onSubmit, reset } = useFormAction(addMemberAction, () => toast({ tone: "ok", text: "Member added." }));
  const [confirm, setConfirm] = useState<Pending | null>(null);
  const [busy, startTransition] = useTransition();
  const who = (m: MemberRow) => m.name ?? m.email;

  /** Runs a row action; any earlier message goes, a failure shows its own, a success says so (with its undo). */
  function run(task: () => Promise<ActionResult<null>>, done: string, undo?: () => Promise<ActionResult<null>>) {
    setRowError(null);
    reset();
    setConfirm(null);
    startTransition(async () => {
      const result = await task();
      if (!result.ok) setRowError(result.error.message);
      else toast({ tone: "ok", text: done, ...(undo ? { undo: () => run(undo, "Change undone.") } : {}) });
    });
  }

  return (
    <Section title="Members" description="Viewers read; editors also write; reviewers also decide mutations and lift freezes; owners also administer." testId="members">
      <table className="w-full text-sm">
        <thead className="text-left text-zinc-500">
          <tr>
            <th className="py-1 font-medium">Member</th>
            <th className="py-1 font-medium">Role</th>
            {canManage ? <th className="py-1"><span className="sr-only">Actions</span></th> : null}
          </tr>
        </thead>
        <tbody>
          {members.map((member) => (
            <tr key={member.userId} className="border-t border-zinc-100 dark:border-zinc-800" data-testid="member-row">
              <td className="py-2 pr-2 wrap-anywhere">
                <span className="font-medium">{member.name ?? member.email}</span>
                {member.name ? <span className="block text-zinc-500 sm:ml-2 sm:inline">{member.email}</span> : null}
                {member.userId === currentUserId ? <span className="ml-2 text-xs text-zinc-500">(you)</span> : null}
              </td>
              <td className="py-2">
                {canManage ? (
                  <select
                    aria-label={`Role of ${member.email}`}
                    value={confirm?.kind === "role" && confirm.member.userId === member.userId ? confirm.role : member.role}
                    disabled={busy}
                    onChange={(event) => {
                      const role = event.target.value as Role;
                      setRowError(null);
                      setConfirm(role === member.role ? null : { kind: "role", member, role });
                    }}
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
                  <button type="button" className={secondaryButtonClass} disabled={busy} onClick={() => { setRowError(null); setConfirm({ kind: "remove", member }); }}>
                    Remove…
                  </button>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
      {confirm ? (
        <div role="group" aria-label="Confirm the change" className="mt-3 flex flex-wrap items-center gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm dark:border-amber-800 dark:bg-amber-950" data-testid="member-confirm">
          <span>
            {confirm.kind === "role"
              ? `Change ${who(confirm.member)}'s role from ${confirm.member.role} to ${confirm.role}?${confirm.member.userId === currentUserId && confirm.member.role === "owner" ? " You may lose the right to manage this scope." : ""}`
              : `Remove ${who(confirm.member)} from this scope? They lose access at once.`}
          </span>
          <button
            type="button"
            className={buttonClass}
            disabled={busy}
            onClick={() => {
              const { member } = confirm;
              if (confirm.kind === "role") {
                const { role } = confirm;
                run(
                  () => changeRoleAction({ scope, userId: member.userId, role }),
                  `Saved: ${who(member)} is now ${role}.`,
                  () => changeRoleAction({ scope, userId: member.userId, role: member.role }),
                );
              } else run(() => removeMemberAction({ scope, userId: member.userId }), `Removed ${who(member)}.`);
            }}
          >
            {confirm.kind === "role" ? "Change role" : "Remove"}
          </button>
          <button type="button" className={secondaryButtonClass} onClick={() => setConfirm(null)}>
            Cancel
          </button>
        </div>
      ) : null}
      {rowError ? (
        <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
          {rowError}
        </p>
      ) : null}
      {canManage ? (
        <form onSubmit={(event) => { setRowError(null); setConfirm(null); onSubmit(event); }} className="mt-5 grid gap-3 sm:grid-cols-[1fr_auto_auto] sm:items-start" aria-label="Add a member">
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
