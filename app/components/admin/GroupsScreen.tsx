import { Stack, Text, Title } from "@mantine/core";
import { useLoaderData } from "@remix-run/react";
import { ru } from "../../i18n/ru";
import { rootGroups, searchGroups, teams } from "../../lib/admin-api";
import { screenLoader } from "../../lib/route-data";
import { GroupsTable } from "./GroupsTable";
import { listParams } from "./list-params";
import { Pager } from "./Pager";
import { SearchParamInput } from "./SearchParamInput";

const t = ru.admin.groups;

/** With ?q=, a page of /api/group/search; without, the teams (groups with users) and the top-level groups. */
export const groupsLoader = screenLoader(async ({ request }) => {
  const { q, page, skip, take } = listParams(request);
  if (q) return { search: { q, page, found: await searchGroups(q, skip, take, request.signal) } };
  const [teamList, roots] = await Promise.all([teams(request.signal), rootGroups(request.signal)]);
  return { overview: { teams: teamList, roots } };
});

/** /admin/groups: find a group by name, or pick one of the teams or top-level groups; each opens /admin/group/{id}. */
export function GroupsScreen() {
  const { search, overview } = useLoaderData<typeof groupsLoader>();
  return (
    <Stack gap="md">
      <SearchParamInput label={t.searchTitle} placeholder={ru.admin.searchGroups} />
      {search && (
        <>
          {search.found.length === 0 ? <Text c="dimmed">{ru.admin.empty}</Text> : <GroupsTable groups={search.found} />}
          <Pager page={search.page} rows={search.found.length} />
        </>
      )}
      {overview && (
        <>
          <Title order={4}>{t.teamsTitle}</Title>
          {overview.teams.length ? <GroupsTable groups={overview.teams} /> : <Text c="dimmed">{t.teamsEmpty}</Text>}
          <Title order={4}>{t.rootsTitle}</Title>
          {overview.roots.length ? <GroupsTable groups={overview.roots} /> : <Text c="dimmed">{ru.admin.empty}</Text>}
        </>
      )}
    </Stack>
  );
}
