import { z } from "zod";
import { assetClassBody } from "../../../functions/assets/schemas";
import { templateBody } from "../../../functions/fields/schemas";
import { listBody, recordBody } from "../../../functions/lists/schemas";
import { tagBody } from "../../../functions/tags/schemas";
import { createTaxonBody, taxonName } from "../../../functions/taxonomy/schemas";

/** The server's schemas the metadata forms validate with, so a rule is written once, in functions/. */
export { listBody, recordBody, tagBody, templateBody };
export const taxonPathBody = createTaxonBody;
export const taxonNameBody = z.object({ name: taxonName });
export const classNameBody = assetClassBody.pick({ name: true });
