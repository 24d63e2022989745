import { Anchor, Badge, Button, Group, Table, Text } from "@mantine/core";
import { Link } from "@remix-run/react";
import { ru } from "../../i18n/ru";
import type { AccessRule } from "../../lib/admin-api";
import { useState } from "react";
import { permissionLabel } from "./PermissionPicker";
import { RuleAclEditor } from "./RuleEditRow";
import { DataTable } from "../ui/DataTable";
import { DangerButton, RowActions } from "../ui/RowActions";

const t = ru.admin.rules;

/** Where a rule's subject or object lives in the admin area (assets have their own info screen). */
function EntityLink({ id, type, name }: { id: string; type: "user" | "group" | "asset"; name: string | null }) {
  const to = type === "user" ? `/admin/user/${id}` : type === "group" ? `/admin/group/${id}` : `/asset/${id}`;
  return (
    <Group gap={6} wrap="nowrap">
      <Anchor component={Link} to={to} size="sm">
        {name ?? id}
      </Anchor>
      <Text size="xs" c="dimmed">
        {t.types[type]}
      </Text>
    </Group>
  );
}

/** Access rules: who, on what, which permissions; «Изменить» edits the permissions in the row, and delete. */
export function RulesTable({
  rules,
  onDelete,
  onSaved,
}: {
  rules: AccessRule[];
  onDelete: (rule: AccessRule) => void;
  onSaved: () => void;
}) {
  const c = t.columns;
  const [editing, setEditing] = useState<string | null>(null);
  return (
    <DataTable minWidth={700} striped verticalSpacing="xs" head={[c.subject, c.object, c.acl, c.actions]} rows={rules}>
      {(r) => (
        <Table.Tr key={r.rule_id} data-testid="rule-row">
          <Table.Td>
            <EntityLink id={r.subj_id} type={r.subj_type} name={r.subj_name} />
          </Table.Td>
          <Table.Td>
            <EntityLink id={r.obj_id} type={r.obj_type} name={r.obj_name} />
          </Table.Td>
          <Table.Td>
            {editing === r.rule_id ? (
              <RuleAclEditor rule={r} onDone={() => setEditing(null)} onSaved={onSaved} />
            ) : (
              <Group gap={4}>
                {r.acl.map((p) => (
                  <Badge key={p} variant="light" color={p === "deny" ? "red" : "teal"}>
                    {permissionLabel(p)}
                  </Badge>
                ))}
              </Group>
            )}
          </Table.Td>
          <RowActions gap={4}>
            {editing !== r.rule_id && (
              <Button size="xs" variant="subtle" onClick={() => setEditing(r.rule_id)}>
                {ru.adminExtra.editRule.button}
              </Button>
            )}
            <DangerButton onClick={() => onDelete(r)}>{ru.admin.delete}</DangerButton>
          </RowActions>
        </Table.Tr>
      )}
    </DataTable>
  );
}
