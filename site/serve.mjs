// Static server for the built site (site/dist): sends the build's precompressed .br/.gz when the client accepts them.
// `astro preview` compresses only text on the fly and never the wasm, hence this small server for `npm run serve`.
import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const types = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8", ".json": "application/json", ".wasm": "application/wasm", ".svg": "image/svg+xml",
  ".png": "image/png", ".ico": "image/x-icon", ".txt": "text/plain; charset=utf-8", ".xml": "application/xml",
};

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const root = resolve(option("dir", fileURLToPath(new URL("./dist", import.meta.url))));
const host = option("host", "127.0.0.1");
const port = Number(option("port", process.env.PORT ?? 4321));

/** The file a URL path names: itself, its index.html, or its .html (Astro's directory and file build formats). */
function fileFor(urlPath) {
  const path = normalize(decodeURIComponent(urlPath)).replace(/^(\.\.[/\\])+/, "");
  const base = join(root, path);
  if (!base.startsWith(root)) return null;
  for (const candidate of [base, join(base, "index.html"), `${base}.html`])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return null;
}

/** br before gzip (smaller), each only when the client accepts it and the build wrote it. */
function encodingFor(file, accept) {
  for (const [token, suffix] of [["br", ".br"], ["gzip", ".gz"]])
    if (new RegExp(`\\b${token}\\b`).test(accept) && existsSync(file + suffix)) return { token, path: file + suffix };
  return null;
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://localhost");
  const file = fileFor(url.pathname);
  if (!file) {
    const notFound = fileFor("/404.html");
    res.writeHead(404, { "Content-Type": types[".html"] });
    if (notFound && req.method !== "HEAD") createReadStream(notFound).pipe(res);
    else res.end("not found");
    return;
  }
  const encoded = encodingFor(file, String(req.headers["accept-encoding"] ?? ""));
  const sent = encoded ? encoded.path : file;
  const headers = {
    "Content-Type": types[extname(file)] ?? "application/octet-stream",
    "Content-Length": statSync(sent).size,
    "Vary": "Accept-Encoding",
    // Hashed build assets never change under one name; pages are revalidated.
    "Cache-Control": url.pathname.startsWith("/_astro/") ? "public, max-age=31536000, immutable" : "no-cache",
  };
  if (encoded) headers["Content-Encoding"] = encoded.token;
  res.writeHead(200, headers);
  if (req.method === "HEAD") res.end();
  else createReadStream(sent).pipe(res);
});

server.listen(port, host, () => console.log(`serving ${root} on http://${host}:${port}/`));
