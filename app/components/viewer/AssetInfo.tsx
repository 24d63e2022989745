import { Anchor, Button, Group, Stack, Table, Text, Title, Tooltip } from "@mantine/core";
import { Link, useRevalidator } from "@remix-run/react";
import type { ReactNode } from "react";
import { ru } from "../../i18n/ru";
import { formatDateTime, formatSize } from "../../lib/format";
import type { AssetClass } from "../../lib/metadata-api";
import { editorPath, offersEdit } from "../editor/editable";
import { AssetTitle } from "./AssetTitle";
import { ClassPicker } from "./ClassPicker";
import type { AssetInfoData } from "./viewer-api";

const show = (value: unknown) =>
  value === null || value === undefined || value === ""
    ? ru.viewer.none
    : typeof value === "object"
      ? JSON.stringify(value)
      : String(value);

/** A user by name; an id whose name the caller may not read stays the id, with a hint why. */
function Person({ id, names }: { id: string | null; names: Record<string, string> }) {
  if (!id) return <>{ru.viewer.none}</>;
  if (names[id]) return <span title={id}>{names[id]}</span>;
  return (
    <Tooltip label={ru.viewer.userHidden}>
      <Text span size="sm" c="dimmed" ff="monospace">
        {id}
      </Text>
    </Tooltip>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap={4}>
      <Title order={4}>{title}</Title>
      {children}
    </Stack>
  );
}

/**
 * /asset/{id}: what the asset is, its versions and variants, technical fields, groups and access, as GET
 * /api/asset/info/{id} answers (the route's loader). The caller's rights are the server's list, shown as they are.
 */
export function AssetInfo({ info, classes }: { info: AssetInfoData; classes: AssetClass[] }) {
  const { asset } = info;
  const f = ru.viewer.fields;
  const revalidator = useRevalidator();
  const reload = () => revalidator.revalidate();
  const canUpdate = asset.asset_access.includes("update");
  const fields: [string, ReactNode][] = [
    [f.name, asset.name],
    [f.id, asset.asset_id],
    [
      f.class,
      <ClassPicker key="class" assetId={asset.asset_id} classId={asset.class} classes={classes} canEdit={canUpdate} onChanged={reload} />,
    ],
    [f.owner, <Person key="owner" id={asset.owner} names={info.names} />],
    [f.creator, <Person key="creator" id={asset.creator} names={info.names} />],
    [f.ctime, formatDateTime(asset.ctime)],
    [f.mtime, formatDateTime(asset.mtime)],
    [f.atime, formatDateTime(asset.atime)],
    [f.mime, asset.mimetype],
    [f.storage, show(asset.default_storage)],
  ];
  return (
    <Stack gap="lg">
      <Group justify="space-between" wrap="nowrap">
        <AssetTitle assetId={asset.asset_id} name={asset.name} canRename={canUpdate} order={2} onRenamed={reload} />
        {offersEdit(asset) && (
          <Button variant="light" component={Link} to={editorPath(asset.asset_id, `/asset/${asset.asset_id}`)}>
            {ru.editor.edit}
          </Button>
        )}
      </Group>
      <Table withRowBorders={false} verticalSpacing={2} aria-label={ru.viewer.info}>
        <Table.Tbody>
          {fields.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w={160}>{label}</Table.Th>
              <Table.Td>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Section title={ru.viewer.versions}>
        <Table aria-label={ru.viewer.versions}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{ru.viewer.version}</Table.Th>
              <Table.Th>{ru.assetActions.versionsWhen}</Table.Th>
              <Table.Th>{ru.assetActions.versionsWho}</Table.Th>
              <Table.Th>{ru.viewer.variantName}</Table.Th>
              <Table.Th>{ru.viewer.variantType}</Table.Th>
              <Table.Th>{ru.viewer.format}</Table.Th>
              <Table.Th>{ru.viewer.size}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {info.versions.flatMap(({ version, ctime, user_id, variants }) =>
              // A version's when and who head its first variant's row; an empty version still gets its row.
              (variants.length ? variants : [null]).map((v, i) => (
                <Table.Tr key={v?.variant_id ?? `v${version}`}>
                  <Table.Td>{i === 0 ? version : ""}</Table.Td>
                  <Table.Td style={{ whiteSpace: "nowrap" }}>{i === 0 ? formatDateTime(ctime) : ""}</Table.Td>
                  <Table.Td>{i === 0 && <Person id={user_id} names={info.names} />}</Table.Td>
                  {v === null ? (
                    <Table.Td colSpan={4} c="dimmed">
                      {ru.viewer.none}
                    </Table.Td>
                  ) : (
                    <>
                      <Table.Td>{v.file_name || v.name}</Table.Td>
                      <Table.Td>{v.variant_type}</Table.Td>
                      <Table.Td>{v.format || v.mime_type}</Table.Td>
                      <Table.Td>{formatSize(v.content_size)}</Table.Td>
                    </>
                  )}
                </Table.Tr>
              )),
            )}
          </Table.Tbody>
        </Table>
      </Section>
      <Section title={ru.viewer.techFields}>
        {info.tech.fields.length === 0 ? (
          <Text c="dimmed" size="sm">
            {ru.viewer.noTechFields}
          </Text>
        ) : (
          <Table aria-label={ru.viewer.techFields} verticalSpacing={2}>
            <Table.Tbody>
              {info.tech.fields.map((t) => (
                <Table.Tr key={t.name}>
                  <Table.Th w={200}>{t.name}</Table.Th>
                  <Table.Td>{show(t.value)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Section>
      <Section title={ru.viewer.memberOf}>
        {info.groups.length === 0 ? (
          <Text c="dimmed" size="sm">
            {ru.viewer.noGroups}
          </Text>
        ) : (
          <Group gap="xs">
            {info.groups.map((g) => (
              <Anchor key={g.group_id} component={Link} to={`/mam/${g.group_id}`}>
                {g.group_name}
              </Anchor>
            ))}
          </Group>
        )}
      </Section>
      <Section title={ru.viewer.access}>
        <Text size="sm">
          {ru.viewer.accessYours}: {asset.asset_access.join(", ") || ru.viewer.none}
        </Text>
        {info.users && (
          <Table aria-label={ru.viewer.accessUsers} verticalSpacing={2}>
            <Table.Tbody>
              {info.users.map((r) => (
                <Table.Tr key={r.rule_id}>
                  <Table.Td>{r.subj_name ?? r.subj_id ?? ru.viewer.accessHiddenTeam}</Table.Td>
                  <Table.Td>{r.acl.join(", ")}</Table.Td>
                  <Table.Td c="dimmed">{r.inherited ? (r.obj_name ?? ru.viewer.accessAbove) : ""}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Section>
    </Stack>
  );
}
