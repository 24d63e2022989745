import type { Taxon } from "../../lib/metadata-api";

export interface TaxonRow {
  node: Taxon;
  /** 0 for a top-level taxon. */
  depth: number;
  /** The names from the top, joined by "/" (the form POST /api/taxonomy/create takes). */
  path: string;
}

/**
 * GET /api/taxonomy/tree answers the tree flat, each taxon after its parent and siblings by name, so the
 * display order is the answer's order; only the paths are worked out here.
 */
export function taxonRows(tree: readonly Taxon[]): TaxonRow[] {
  const paths = new Map<string, string>();
  return tree.map((node) => {
    const parentPath = node.parent ? paths.get(node.parent) : undefined;
    const path = parentPath ? `${parentPath}/${node.name}` : node.name;
    paths.set(node.taxon_id, path);
    return { node, depth: node.depth - 1, path };
  });
}
