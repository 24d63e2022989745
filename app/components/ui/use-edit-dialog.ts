import { useRevalidator } from "@remix-run/react";
import { useState } from "react";

/**
 * A list screen's create-or-edit dialog: closed, or open on a row (edit) or on none (create). Each opening gets a
 * fresh key, so the form starts from that row's values; a save reloads the screen's loader and closes the dialog.
 */
export function useEditDialog<T>() {
  const { revalidate } = useRevalidator();
  const [open, setOpen] = useState<{ key: number; row?: T } | null>(null);
  return {
    open,
    create: () => setOpen({ key: Date.now() }),
    edit: (row: T) => setOpen({ key: Date.now(), row }),
    close: () => setOpen(null),
    saved: () => {
      revalidate();
      setOpen(null);
    },
  };
}
