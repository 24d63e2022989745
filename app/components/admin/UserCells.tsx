import { Anchor, Table, Text } from "@mantine/core";
import { Link } from "@remix-run/react";
import type { AdminUser } from "../../lib/admin-api";
import { UserBadges } from "./UserBadges";

/** Who a user is, in three cells: the name (to the user's screen), the login, and the kind badges. */
export function UserCells({ user }: { user: AdminUser }) {
  return (
    <>
      <Table.Td>
        <Anchor component={Link} to={`/admin/user/${user.user_id}`}>
          {user.user_name}
        </Anchor>
      </Table.Td>
      <Table.Td>
        <Text size="sm" ff="monospace">
          {user.login}
        </Text>
      </Table.Td>
      <Table.Td>
        <UserBadges user={user} />
      </Table.Td>
    </>
  );
}
