import { PagePlaceholder } from "../components/PagePlaceholder";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";

export const meta = pageMeta(ru.pages.shop);

export default function ShopPage() {
  return <PagePlaceholder title={ru.pages.shop} />;
}
