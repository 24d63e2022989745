import { integer, text } from "drizzle-orm/sqlite-core";

/** Unix seconds; every table stores times this way so SQL can compare them directly. */
export const unixTime = (name: string) => integer(name, { mode: "number" });

/** Primary keys are random UUIDs (text), never counters: ids leak nothing about volume or order. */
export const uuidKey = (name: string) => text(name).primaryKey();

export const nowSeconds = () => Math.floor(Date.now() / 1000);
