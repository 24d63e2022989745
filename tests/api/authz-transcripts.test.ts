import { transcriptCases } from "./authz";
import { declareMatrix } from "./authz/matrix";

// The authorization matrix (tests/api/authz/matrix.ts) for transcripts.
declareMatrix([...transcriptCases]);
