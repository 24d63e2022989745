import { metadataTagCases } from "./authz";
import { declareMatrix } from "./authz/matrix";

// The authorization matrix (tests/api/authz/matrix.ts) for the tag and taxonomy routes.
declareMatrix([...metadataTagCases]);
