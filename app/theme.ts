import { createTheme } from "@mantine/core";

/** One theme for the whole product; the dark scheme is the default (root.tsx). */
export const theme = createTheme({
  primaryColor: "blue",
  defaultRadius: "sm",
  fontFamily: "Inter, system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif",
});
