import { GroupContents } from "../components/mam/GroupContents";
import { VIRTUAL_ROOT_ID } from "../components/mam/mam-api";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";

export const meta = pageMeta(ru.pages.mam);

/** /mam: the virtual root 'Доступные Файлы', whose contents are the caller's top groups. */
export default function MamPage() {
  return <GroupContents groupId={VIRTUAL_ROOT_ID} />;
}
