import { Chip, Group, Input } from "@mantine/core";
import { permissionValues, type Permission } from "../../../shared/lib/permissions";
import { ru } from "../../i18n/ru";

const t = ru.admin.rules;

export const permissionLabel = (p: string) => t.permissions[p as Permission] ?? p;

/** The permission values (shared/lib/permissions.ts) as chips, in the API's order. */
export function PermissionPicker({ value, onChange, error }: { value: Permission[]; onChange: (v: Permission[]) => void; error?: string }) {
  return (
    <Input.Wrapper label={t.acl} required error={error}>
      <Chip.Group multiple value={value} onChange={(v) => onChange(v as Permission[])}>
        <Group gap={6} mt={4}>
          {permissionValues.map((p) => (
            <Chip key={p} value={p} size="sm" color={p === "deny" ? "red" : undefined}>
              {permissionLabel(p)}
            </Chip>
          ))}
        </Group>
      </Chip.Group>
    </Input.Wrapper>
  );
}
