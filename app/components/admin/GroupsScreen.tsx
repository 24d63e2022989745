import { Stack, Text, TextInput, Title } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useEffect, useState } from "react";
import { ru } from "../../i18n/ru";
import { rootGroups, searchGroups, teams } from "../../lib/admin-api";
import { showError } from "../../lib/notify";
import { GroupsTable, type GroupLine } from "./GroupsTable";
import { Pager } from "./Pager";
import { usePaged } from "./usePaged";
import { PAGE_SIZE } from "../../../functions/lib/constants";

const t = ru.admin.groups;

/**
 * /admin/groups: with no search text, the teams (groups with users) and the top-level groups; with text,
 * a paged /api/group/search. Each name opens /admin/group/{id}.
 */
export function GroupsScreen() {
  const [text, setText] = useState("");
  const [q] = useDebouncedValue(text.trim(), 250);
  const [overview, setOverview] = useState<{ teams: GroupLine[]; roots: GroupLine[] } | null>(null);
  const found = usePaged<GroupLine>((skip, take, signal) => (q ? searchGroups(q, skip, take, signal) : Promise.resolve([])), PAGE_SIZE, [
    q,
  ]);

  useEffect(() => {
    Promise.all([teams(), rootGroups()]).then(
      ([teamList, roots]) => setOverview({ teams: teamList, roots }),
      (error) => {
        showError(error);
        setOverview({ teams: [], roots: [] });
      },
    );
  }, []);

  return (
    <Stack gap="md">
      <TextInput
        label={t.searchTitle}
        placeholder={ru.admin.searchGroups}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        w={320}
      />
      {q ? (
        <>
          {found.rows === null ? (
            <Text c="dimmed">{ru.admin.loading}</Text>
          ) : found.rows.length === 0 ? (
            <Text c="dimmed">{ru.admin.empty}</Text>
          ) : (
            <GroupsTable groups={found.rows} />
          )}
          <Pager page={found.page} rows={found.rows?.length ?? 0} pageSize={PAGE_SIZE} onChange={found.setPage} />
        </>
      ) : overview === null ? (
        <Text c="dimmed">{ru.admin.loading}</Text>
      ) : (
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
