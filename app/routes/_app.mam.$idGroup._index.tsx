import { useParams } from "@remix-run/react";
import { GroupContents } from "../components/mam/GroupContents";
import { VIRTUAL_ROOT_ID } from "../components/mam/mam-api";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";

export const meta = pageMeta(ru.pages.group);

/** /mam/{idGroup}: one group's contents; the tree on the left comes from the /mam layout. */
export default function GroupPage() {
  const { idGroup } = useParams();
  const id = (idGroup ?? VIRTUAL_ROOT_ID).toLowerCase();
  return <GroupContents key={id} groupId={id} />;
}
