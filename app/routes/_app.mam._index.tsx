import { PagePlaceholder } from "../components/PagePlaceholder";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";

export const meta = pageMeta(ru.pages.mam);

export default function MamPage() {
  return (
    <PagePlaceholder title={ru.pages.mam} />
  );
}
