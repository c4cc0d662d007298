// The preview server (site/serve.mjs, `npm run serve`) sends the build's precompressed wasm and scripts: brotli
// before gzip when accepted, the identity bytes otherwise, each with its Content-Encoding and Vary.
import { expect, test } from "@playwright/test";
import { request as httpRequest } from "node:http";
import { readdirSync, readFileSync } from "node:fs";
import { brotliDecompressSync, gunzipSync } from "node:zlib";

const dist = "site/dist/_astro";
const base = new URL(`http://127.0.0.1:${Number(process.env.TSLAB_TEST_PORT ?? 4321)}`);

/** A raw GET (no client-side decoding), so the bytes and headers are exactly what the server sent. */
function get(path: string, acceptEncoding: string): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((done, fail) => {
    const req = httpRequest({ host: base.hostname, port: base.port, path, headers: { "accept-encoding": acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", fail);
    req.end();
  });
}

for (const ext of [".wasm", ".js"]) {
  test(`a built ${ext} asset is sent as brotli, gzip or plain by Accept-Encoding`, async () => {
    const name = readdirSync(dist).find((f) => f.endsWith(ext) && readdirSync(dist).includes(`${f}.br`));
    expect(name, `a ${ext} file with its .br in ${dist}`).toBeTruthy();
    const plain = readFileSync(`${dist}/${name}`);
    const br = await get(`/_astro/${name}`, "gzip, deflate, br");
    expect(br.status).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toBe("Accept-Encoding");
    expect(br.body.length).toBeLessThan(plain.length);
    expect(brotliDecompressSync(br.body).equals(plain)).toBe(true);
    const gz = await get(`/_astro/${name}`, "gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body).equals(plain)).toBe(true);
    const identity = await get(`/_astro/${name}`, "identity");
    expect(identity.headers["content-encoding"]).toBeUndefined();
    expect(identity.body.equals(plain)).toBe(true);
  });
}
