import { Badge, Group } from "@mantine/core";
import { ru } from "../../i18n/ru";
import type { AdminUser } from "../../lib/admin-api";

const t = ru.admin.users;

/** Robot or person, and "disabled" when it is. */
export function UserBadges({ user }: { user: AdminUser }) {
  return (
    <Group gap={4} wrap="nowrap">
      <Badge variant="light" color={user.is_robot ? "grape" : "blue"}>
        {user.is_robot ? t.robotBadge : t.personBadge}
      </Badge>
      {!user.enabled && (
        <Badge variant="light" color="gray">
          {t.disabledBadge}
        </Badge>
      )}
    </Group>
  );
}
