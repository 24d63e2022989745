/** Materialized paths of the group tree ("/a/b/": root first, each id followed by a slash). */

/** Ids along a materialized path, root first: "/a/b/" -> ["a", "b"]. */
export const pathIds = (path: string) => path.split("/").filter(Boolean);
export const parentPath = (path: string) => path.slice(0, path.slice(0, -1).lastIndexOf("/") + 1);
