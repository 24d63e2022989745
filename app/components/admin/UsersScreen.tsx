import { Button, Group, Stack, Text } from "@mantine/core";
import { useLoaderData, useNavigate, useRevalidator } from "@remix-run/react";
import { ru } from "../../i18n/ru";
import { listUsers } from "../../lib/admin-api";
import { screenLoader } from "../../lib/route-data";
import { listParams } from "./list-params";
import { Pager } from "./Pager";
import { SearchParamInput } from "./SearchParamInput";
import { useUserForm } from "./UserFormModal";
import { UsersTable } from "./UsersTable";

/** The loader of /admin/active-users (`enabled`) and /admin/inactive-users: one page of a search, from ?q= and ?page=. */
export const usersLoader = (enabled: boolean) =>
  screenLoader(async ({ request }) => {
    const { q, page, skip, take } = listParams(request);
    return { page, users: await listUsers({ enabled, q, skip, take }, request.signal) };
  });

/** /admin/active-users and /admin/inactive-users: a searchable, paged user list with create and edit. */
export function UsersScreen() {
  const { page, users } = useLoaderData<ReturnType<typeof usersLoader>>();
  const navigate = useNavigate();
  const { revalidate } = useRevalidator();
  // A new user opens on their own screen; an edited one is shown again in the list.
  const form = useUserForm((id, created) => (created ? navigate(`/admin/user/${id}`) : revalidate()));

  return (
    <Stack gap="md">
      <Group justify="space-between" align="end">
        <SearchParamInput label={ru.admin.search} placeholder={ru.admin.searchUsers} />
        <Button onClick={() => form.open()}>{ru.admin.users.create}</Button>
      </Group>
      {users.length === 0 ? (
        <Text c="dimmed">{ru.admin.empty}</Text>
      ) : (
        <UsersTable users={users} onEdit={(u) => form.open(u)} onChanged={revalidate} />
      )}
      <Pager page={page} rows={users.length} />
      {form.modal}
    </Stack>
  );
}
