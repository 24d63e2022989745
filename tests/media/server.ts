import { createServer } from "node:net";
import { startServer } from "../bench/server.mjs";

const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });

/** `npm start` on free ports: the Worker and its transcoder (whose URL the kill test needs). */
export async function startMediaServer() {
  const port = await freePort();
  process.env.TRANSCODER_PORT = String(port);
  const server = await startServer();
  return { server, transcoderUrl: `http://127.0.0.1:${port}` };
}
