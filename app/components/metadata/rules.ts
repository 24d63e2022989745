import { z } from "zod";
import { assetClassBody } from "../../../shared/assets/schemas";
import { templateBody } from "../../../shared/fields/schemas";
import { listBody, recordBody } from "../../../shared/lists/schemas";
import { tagBody } from "../../../shared/tags/schemas";
import { createTaxonBody, taxonName } from "../../../shared/taxonomy/schemas";

/** The server's schemas the metadata forms validate with, so a rule is written once, in functions/. */
export { listBody, recordBody, tagBody, templateBody };
export const taxonPathBody = createTaxonBody;
export const taxonNameBody = z.object({ name: taxonName });
export const classNameBody = assetClassBody.pick({ name: true });
