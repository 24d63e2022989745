import { Center, Loader } from "@mantine/core";
import { ru } from "../i18n/ru";

/** Shown while the navigation guard decides (server render and hydration of guarded screens). */
export function PageLoader() {
  return (
    <Center h="100vh" aria-label={ru.app.loading} role="status">
      <Loader />
    </Center>
  );
}
