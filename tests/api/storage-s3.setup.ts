/**
 * vitest globalSetup (runs in Node, not workerd): a real S3-compatible server for the presigned
 * upload path. @20minutes/s3rver verifies SigV4 signatures, header and query (presigned) alike.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
// @ts-expect-error -- the package ships no types
import S3rver from "@20minutes/s3rver";

declare module "vitest" {
  export interface ProvidedContext {
    s3Url: string;
  }
}

export const s3Bucket = "mam-test";

export default async function setup(project: TestProject) {
  const directory = mkdtempSync(path.join(tmpdir(), "mam-s3-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: s3Bucket }] });
  const { port } = await server.run();
  project.provide("s3Url", `http://127.0.0.1:${port}`);
  return async () => {
    await server.close();
    rmSync(directory, { recursive: true, force: true });
  };
}
