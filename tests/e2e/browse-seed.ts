import { Client } from "../media/media";
import { ADMIN } from "./fixtures";

/** Seeds groups and assets for the browser tests through the API (the upload goes through /api/ul). */

export const base = `http://127.0.0.1:${process.env.MAM_E2E_PORT ?? "8790"}`;
import { VIRTUAL_ROOT_ID } from "../../shared/lib/constants";

export { VIRTUAL_ROOT_ID };
export const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

export class Seeder extends Client {
  static async admin() {
    const client = new Seeder(base);
    await client.login(ADMIN.login, ADMIN.password);
    return client;
  }

  async group(name: string, parent = VIRTUAL_ROOT_ID): Promise<string> {
    return (await this.call("/api/group/create", { json: { group_name: name, parent } })).group_id;
  }

  /** Assets without content (enough to fill a list), 100 per call. */
  async emptyAssets(groupId: string, count: number, name = (i: number) => `файл-${String(i).padStart(4, "0")}.txt`) {
    const ids: string[] = [];
    for (let start = 0; start < count; start += 100) {
      const assets = Array.from({ length: Math.min(100, count - start) }, (_, k) => ({
        asset_name: name(start + k),
        asset_mime: "text/plain",
        in_group: groupId,
      }));
      const out = await this.call<{ asset_id: string }[]>("/api/asset/create-list", { json: { assets } });
      ids.push(...out.map((a) => a.asset_id));
    }
    return ids;
  }

  /** A real file uploaded into a group through the resumable protocol (Client.upload). */
  async uploadInto(groupId: string, file: string, mime: string) {
    return (await this.upload(file, mime, groupId)).assetId;
  }
}
