import { Button, Menu } from "@mantine/core";
import { useLocation, useNavigate } from "@remix-run/react";
import { ru } from "../../i18n/ru";

const t = ru.assetActions;

/** The address parameter of the version shown; without it the viewer shows the latest. */
export const VERSION_PARAM = "v";

/** The version the address asks for, if it names one. */
export function wantedVersion(url: URL): number | null {
  const n = Number(url.searchParams.get(VERSION_PARAM));
  return Number.isInteger(n) && n > 0 ? n : null;
}

/**
 * «Версия 2 из 2»: which of the asset's versions the viewer shows, and a menu of all of them. The choice lives in
 * the address (?v=1), so a reload or a shared link shows the same version; the latest needs no parameter.
 */
export function VersionSwitcher({ versions, shown }: { versions: number[]; shown: number | null }) {
  const navigate = useNavigate();
  const location = useLocation();
  if (!versions.length || shown === null) return null;
  const latest = versions[0];
  const position = versions.length - versions.indexOf(shown);
  const go = (n: number) => {
    const params = new URLSearchParams(location.search);
    if (n === latest) params.delete(VERSION_PARAM);
    else params.set(VERSION_PARAM, String(n));
    const search = params.toString();
    navigate(`${location.pathname}${search ? `?${search}` : ""}`);
  };
  return (
    <Menu position="bottom-start">
      <Menu.Target>
        <Button size="xs" variant={shown === latest ? "default" : "light"} color={shown === latest ? undefined : "yellow"}>
          {t.versionOf(position, versions.length)}
        </Button>
      </Menu.Target>
      <Menu.Dropdown aria-label={t.versionSwitcher}>
        {versions.map((n, i) => (
          <Menu.Item key={n} onClick={() => go(n)} fw={n === shown ? 700 : undefined}>
            {t.versionOf(versions.length - i, versions.length)}
            {n === latest ? ` (${t.latest})` : ""}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
