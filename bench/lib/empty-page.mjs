// What loading any page at all costs in the page-load measure (page-load.mjs): a page of one paragraph, with no style
// sheet, font, image or script, from a bare node:http server. A fresh browser's renderer starts, commits its first
// blank document and then the page's navigation (a new script context): on this 2-core machine that alone was
// 40-50 ms of main-thread CPU, which every page pays before any of its own work. Measured in turn with the site's
// pages, so the page's own cost (its figure less this one) can be read beside its total.
import http from 'node:http';

const PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
  '<title>Empty page</title></head><body><p>An empty page: the least a page load costs.</p></body></html>';

/** Serves the one-paragraph page at every path; `{ name, url, stop }`, as the bench's sites. */
export async function startEmptyPage() {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(PAGE) });
    res.end(PAGE);
  });
  await new Promise((resolve, reject) => server.listen(0, '127.0.0.1', resolve).once('error', reject));
  const { port } = server.address();
  return {
    name: 'an empty page',
    url: `http://127.0.0.1:${port}`,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
