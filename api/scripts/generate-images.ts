// Draws the shop's demo pictures as SVG into api/public/images: one per demo product, plus the
// two home-page tile backgrounds. The output is committed; the shop never downloads pictures.
//   npm run images:generate -w api
import fs from 'node:fs';
import path from 'node:path';
import { DEMO_PRODUCTS, type DemoProduct } from '../src/db/seed/demo-products.js';

const OUT_DIR = path.resolve(import.meta.dirname, '..', 'public', 'images');
const WIDTH = 800;
const HEIGHT = 600;

/** Deterministic per product, so regenerating gives the same pictures. */
function random(seedText: string): () => number {
  let seed = 2166136261;
  for (const char of seedText) seed = Math.imul(seed ^ char.charCodeAt(0), 16777619) >>> 0;
  return () => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return seed / 2 ** 32;
  };
}

const pick = <T>(rand: () => number, items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
const between = (rand: () => number, min: number, max: number) => min + rand() * (max - min);
const fmt = (n: number) => n.toFixed(1);

interface Scene {
  skyTop: string;
  skyBottom: string;
  sun: string;
  sea: string;
  seaDeep: string;
  land: string;
}

const SCENES: readonly Scene[] = [
  { skyTop: '#4a90c9', skyBottom: '#bfe1f6', sun: '#fff6c9', sea: '#2f7fb5', seaDeep: '#14507c', land: '#6f9a7a' },
  { skyTop: '#f28c5b', skyBottom: '#fde2b0', sun: '#fff1c1', sea: '#c0715a', seaDeep: '#5b3a52', land: '#7a5566' },
  { skyTop: '#2b5d8a', skyBottom: '#9cc7e4', sun: '#ffffff', sea: '#1f5f86', seaDeep: '#0d3553', land: '#4f7360' },
  { skyTop: '#7fc4e8', skyBottom: '#e6f4fb', sun: '#fffbe0', sea: '#3aa3c7', seaDeep: '#17708f', land: '#93b48b' },
  { skyTop: '#433a6b', skyBottom: '#e49b8a', sun: '#ffd7a8', sea: '#5a5680', seaDeep: '#27264a', land: '#4a3f5e' },
  { skyTop: '#5fa8d3', skyBottom: '#d9eef7', sun: '#ffffff', sea: '#1b8aa8', seaDeep: '#0b5168', land: '#b7a57a' },
];

const HULL_COLOURS = ['#ffffff', '#f4f1ea', '#1f3a5f', '#0f1c2e', '#b22d2d', '#2f5d50', '#d8d2c4', '#3c4a57'];
const SAIL_COLOURS = ['#ffffff', '#fbf7ee', '#f3efe2', '#e9e4d8'];
const ACCENTS = ['#c0392b', '#1f6fb2', '#f1c40f', '#16a085', '#e67e22', '#8e44ad', '#2c3e50'];

function background(rand: () => number, scene: Scene, horizon: number, id: string): string {
  const sunX = between(rand, 90, 710);
  const sunY = between(rand, 60, horizon - 90);
  const clouds = Array.from({ length: 2 + Math.floor(rand() * 3) }, () => {
    const x = between(rand, 0, WIDTH);
    const y = between(rand, 40, horizon - 120);
    const w = between(rand, 70, 160);
    return `<g fill="#ffffff" opacity="${fmt(between(rand, 0.55, 0.85))}"><ellipse cx="${fmt(x)}" cy="${fmt(y)}" rx="${fmt(w)}" ry="${fmt(w / 4.5)}"/><ellipse cx="${fmt(x + w * 0.35)}" cy="${fmt(y - w / 7)}" rx="${fmt(w / 2.2)}" ry="${fmt(w / 4)}"/></g>`;
  });
  const landStart = between(rand, -100, 300);
  const landWidth = between(rand, 250, 500);
  const landHeight = between(rand, 18, 55);
  const land = `<path d="M${fmt(landStart)},${horizon} Q${fmt(landStart + landWidth * 0.3)},${fmt(horizon - landHeight)} ${fmt(landStart + landWidth * 0.55)},${fmt(horizon - landHeight * 0.7)} T${fmt(landStart + landWidth)},${horizon} Z" fill="${scene.land}" opacity="0.8"/>`;
  const waves = Array.from({ length: 9 }, (_, row) => {
    const y = horizon + 14 + row * row * 4.2 + row * 6;
    const amp = 1.5 + row * 0.9;
    const step = 40 + row * 12;
    let d = `M0,${fmt(y)}`;
    for (let x = 0; x < WIDTH + step; x += step) d += ` q${fmt(step / 4)},${fmt(-amp)} ${fmt(step / 2)},0 t${fmt(step / 2)},0`;
    return `<path d="${d}" fill="none" stroke="#ffffff" stroke-opacity="${fmt(0.12 + row * 0.03)}" stroke-width="${fmt(1 + row * 0.35)}"/>`;
  });
  return `
  <defs>
    <linearGradient id="sky-${id}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${scene.skyTop}"/><stop offset="1" stop-color="${scene.skyBottom}"/></linearGradient>
    <linearGradient id="sea-${id}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${scene.sea}"/><stop offset="1" stop-color="${scene.seaDeep}"/></linearGradient>
    <radialGradient id="sun-${id}"><stop offset="0" stop-color="${scene.sun}"/><stop offset="0.45" stop-color="${scene.sun}" stop-opacity="0.9"/><stop offset="1" stop-color="${scene.sun}" stop-opacity="0"/></radialGradient>
  </defs>
  <rect width="${WIDTH}" height="${horizon}" fill="url(#sky-${id})"/>
  <circle cx="${fmt(sunX)}" cy="${fmt(sunY)}" r="70" fill="url(#sun-${id})"/>
  ${clouds.join('\n  ')}
  ${land}
  <rect y="${horizon}" width="${WIDTH}" height="${HEIGHT - horizon}" fill="url(#sea-${id})"/>
  ${waves.join('\n  ')}`;
}

function sailingBoat(rand: () => number, cx: number, waterline: number, scale: number, product?: DemoProduct): string {
  const length = 330 * scale;
  const bow = cx + length / 2;
  const stern = cx - length / 2;
  const freeboard = 30 * scale;
  const hull = pick(rand, HULL_COLOURS);
  const sail = pick(rand, SAIL_COLOURS);
  const accent = pick(rand, ACCENTS);
  const mastX = cx + length * between(rand, 0.02, 0.12);
  const mastTop = waterline - freeboard - between(rand, 300, 360) * scale;
  const boomY = waterline - freeboard - 28 * scale;
  const boomEnd = stern + length * 0.12;
  const catamaran = product?.slug.includes('catamaran') ?? false;
  const hullPath = `M${fmt(stern)},${fmt(waterline - freeboard)} L${fmt(bow + 18 * scale)},${fmt(waterline - freeboard - 6 * scale)} Q${fmt(bow - 10 * scale)},${fmt(waterline + 4 * scale)} ${fmt(bow - 40 * scale)},${fmt(waterline + 8 * scale)} L${fmt(stern + 14 * scale)},${fmt(waterline + 8 * scale)} Z`;
  const secondHull = catamaran
    ? `<path d="${hullPath}" fill="${hull}" transform="translate(${fmt(-26 * scale)},${fmt(-10 * scale)})" opacity="0.75"/>`
    : '';
  const cabin = `<path d="M${fmt(stern + length * 0.28)},${fmt(waterline - freeboard)} L${fmt(stern + length * 0.33)},${fmt(waterline - freeboard - 18 * scale)} L${fmt(stern + length * 0.62)},${fmt(waterline - freeboard - 18 * scale)} L${fmt(stern + length * 0.7)},${fmt(waterline - freeboard)} Z" fill="#f7f7f2" stroke="#9aa3ab" stroke-width="1"/>`;
  const windows = `<rect x="${fmt(stern + length * 0.37)}" y="${fmt(waterline - freeboard - 12 * scale)}" width="${fmt(length * 0.2)}" height="${fmt(5 * scale)}" rx="2" fill="#24323f"/>`;
  const mainsail = `<path d="M${fmt(mastX - 3)},${fmt(mastTop + 8)} Q${fmt(mastX - length * 0.22)},${fmt((mastTop + boomY) / 2)} ${fmt(boomEnd)},${fmt(boomY - 4)} L${fmt(mastX - 3)},${fmt(boomY - 4)} Z" fill="${sail}" stroke="#c9c4b6" stroke-width="1.2"/>`;
  const battens = Array.from({ length: 4 }, (_, i) => {
    const t = (i + 1) / 5;
    const y = mastTop + 8 + (boomY - mastTop - 12) * t;
    const x = mastX - 3 - (mastX - boomEnd) * t * 0.92;
    return `<line x1="${fmt(mastX - 3)}" y1="${fmt(y)}" x2="${fmt(x)}" y2="${fmt(y + 3)}" stroke="#d8d3c6" stroke-width="1"/>`;
  });
  const jib = `<path d="M${fmt(mastX + 3)},${fmt(mastTop + 30 * scale)} Q${fmt(mastX + length * 0.3)},${fmt((mastTop + boomY) / 2 + 40 * scale)} ${fmt(bow + 10 * scale)},${fmt(waterline - freeboard - 10 * scale)} L${fmt(mastX + 3)},${fmt(waterline - freeboard - 18 * scale)} Z" fill="${sail}" stroke="#c9c4b6" stroke-width="1.2"/>`;
  const stripe = `<path d="M${fmt(stern + 4)},${fmt(waterline - freeboard + 8 * scale)} L${fmt(bow + 8 * scale)},${fmt(waterline - freeboard + 3 * scale)}" stroke="${accent}" stroke-width="${fmt(4 * scale)}"/>`;
  const sailNumber = `<text x="${fmt(mastX - length * 0.14)}" y="${fmt(mastTop + (boomY - mastTop) * 0.45)}" font-family="Helvetica, Arial, sans-serif" font-size="${fmt(22 * scale)}" font-weight="700" fill="${accent}" opacity="0.85">${Math.floor(between(rand, 10, 999))}</text>`;
  const reflection = `<ellipse cx="${fmt(cx)}" cy="${fmt(waterline + 16 * scale)}" rx="${fmt(length * 0.55)}" ry="${fmt(7 * scale)}" fill="#000000" opacity="0.18"/>`;
  return `
  ${reflection}
  ${secondHull}
  <line x1="${fmt(mastX)}" y1="${fmt(mastTop)}" x2="${fmt(mastX)}" y2="${fmt(waterline - freeboard)}" stroke="#5b6670" stroke-width="${fmt(4 * scale)}"/>
  <line x1="${fmt(mastX)}" y1="${fmt(mastTop)}" x2="${fmt(bow + 16 * scale)}" y2="${fmt(waterline - freeboard - 6 * scale)}" stroke="#7d8790" stroke-width="1"/>
  <line x1="${fmt(mastX)}" y1="${fmt(mastTop)}" x2="${fmt(stern + 4)}" y2="${fmt(waterline - freeboard)}" stroke="#7d8790" stroke-width="1"/>
  ${mainsail}
  ${battens.join('')}
  ${sailNumber}
  ${jib}
  <line x1="${fmt(mastX)}" y1="${fmt(boomY)}" x2="${fmt(boomEnd)}" y2="${fmt(boomY)}" stroke="#5b6670" stroke-width="${fmt(4 * scale)}"/>
  ${cabin}
  ${windows}
  <path d="${hullPath}" fill="${hull}" stroke="#2b3640" stroke-width="1.5"/>
  ${stripe}
  <path d="M${fmt(bow - 40 * scale)},${fmt(waterline + 8 * scale)} q${fmt(30 * scale)},${fmt(-6 * scale)} ${fmt(60 * scale)},${fmt(2 * scale)}" stroke="#ffffff" stroke-width="3" fill="none" opacity="0.8"/>`;
}

function motorYacht(rand: () => number, cx: number, waterline: number, scale: number, decks: number): string {
  const length = 520 * scale;
  const bow = cx + length / 2;
  const stern = cx - length / 2;
  const freeboard = 46 * scale;
  const hull = pick(rand, HULL_COLOURS.slice(0, 6));
  const superstructure = hull === '#ffffff' || hull === '#f4f1ea' ? '#f7f7f4' : '#ffffff';
  const glass = pick(rand, ['#1b2631', '#22313f', '#2c3e50', '#10202c']);
  const accent = pick(rand, ACCENTS);
  const deckTop = waterline - freeboard;
  const hullPath = `M${fmt(stern)},${fmt(deckTop + 4 * scale)} L${fmt(bow - length * 0.08)},${fmt(deckTop - 8 * scale)} L${fmt(bow + 22 * scale)},${fmt(deckTop - 14 * scale)} Q${fmt(bow - 20 * scale)},${fmt(waterline + 6 * scale)} ${fmt(bow - 80 * scale)},${fmt(waterline + 10 * scale)} L${fmt(stern + 10 * scale)},${fmt(waterline + 10 * scale)} Z`;
  const deckHeight = 34 * scale;
  const levels = Array.from({ length: decks }, (_, level) => {
    const start = stern + length * (0.12 + level * 0.06);
    const end = bow - length * (0.22 + level * 0.07);
    const bottom = deckTop - level * deckHeight;
    const top = bottom - deckHeight + 4 * scale;
    const rake = 40 * scale;
    const body = `<path d="M${fmt(start)},${fmt(bottom)} L${fmt(start + 6 * scale)},${fmt(top)} L${fmt(end - rake)},${fmt(top)} L${fmt(end)},${fmt(bottom)} Z" fill="${superstructure}" stroke="#aab2b9" stroke-width="1"/>`;
    const band = `<path d="M${fmt(start + 18 * scale)},${fmt(bottom - 8 * scale)} L${fmt(start + 20 * scale)},${fmt(top + 8 * scale)} L${fmt(end - rake - 4 * scale)},${fmt(top + 8 * scale)} L${fmt(end - 14 * scale)},${fmt(bottom - 8 * scale)} Z" fill="${glass}"/>`;
    return body + band;
  });
  const topDeck = deckTop - decks * deckHeight;
  // The radar arch stands on the middle of the top deck.
  const topStart = stern + length * (0.12 + (decks - 1) * 0.06);
  const topEnd = bow - length * (0.22 + (decks - 1) * 0.07) - 40 * scale;
  const archX = (topStart + topEnd) / 2 - 35 * scale;
  const arch = `<path d="M${fmt(archX)},${fmt(topDeck + 4 * scale)} L${fmt(archX + 20 * scale)},${fmt(topDeck - 36 * scale)} L${fmt(archX + 60 * scale)},${fmt(topDeck - 36 * scale)} L${fmt(archX + 70 * scale)},${fmt(topDeck + 4 * scale)}" fill="none" stroke="${superstructure}" stroke-width="${fmt(7 * scale)}"/>`;
  const radar = `<rect x="${fmt(archX + 24 * scale)}" y="${fmt(topDeck - 44 * scale)}" width="${fmt(32 * scale)}" height="${fmt(5 * scale)}" rx="2" fill="#5b6670"/>`;
  const portholes = Array.from({ length: 5 + decks }, (_, i) => {
    const x = stern + length * (0.22 + i * (0.5 / (5 + decks)));
    return `<rect x="${fmt(x)}" y="${fmt(deckTop + 12 * scale)}" width="${fmt(22 * scale)}" height="${fmt(6 * scale)}" rx="3" fill="${glass}" opacity="0.85"/>`;
  });
  const boot = `<path d="M${fmt(stern + 10 * scale)},${fmt(waterline + 2 * scale)} L${fmt(bow - 76 * scale)},${fmt(waterline + 2 * scale)}" stroke="${accent}" stroke-width="${fmt(5 * scale)}"/>`;
  const wake = `<path d="M${fmt(stern - 10)},${fmt(waterline + 6 * scale)} q${fmt(-60 * scale)},${fmt(10 * scale)} ${fmt(-160 * scale)},${fmt(4 * scale)}" stroke="#ffffff" stroke-width="${fmt(6 * scale)}" fill="none" opacity="0.6"/>`;
  const bowWave = `<path d="M${fmt(bow - 90 * scale)},${fmt(waterline + 10 * scale)} q${fmt(40 * scale)},${fmt(-14 * scale)} ${fmt(90 * scale)},${fmt(2 * scale)}" stroke="#ffffff" stroke-width="4" fill="none" opacity="0.85"/>`;
  const reflection = `<ellipse cx="${fmt(cx)}" cy="${fmt(waterline + 20 * scale)}" rx="${fmt(length * 0.55)}" ry="${fmt(9 * scale)}" fill="#000000" opacity="0.2"/>`;
  return `
  ${reflection}
  ${wake}
  ${levels.reverse().join('\n  ')}
  ${arch}
  ${radar}
  <path d="${hullPath}" fill="${hull}" stroke="#2b3640" stroke-width="1.5"/>
  ${portholes.join('')}
  ${boot}
  ${bowWave}`;
}

function svg(title: string, body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="${title}">
  <title>${title}</title>${body}
</svg>
`;
}

function productPicture(product: DemoProduct): string {
  const rand = random(product.slug);
  const scene = pick(rand, SCENES);
  const horizon = between(rand, 330, 380);
  const waterline = horizon + between(rand, 110, 150);
  const cx = between(rand, 360, 440);
  let boat: string;
  if (product.category === 'sailing-boats') {
    boat = sailingBoat(rand, cx, waterline, between(rand, 0.85, 1.05), product);
  } else {
    const decks = 1 + Number(product.priceEur > 2_000_000) + Number(product.priceEur > 8_000_000) + Number(product.priceEur > 20_000_000);
    boat = motorYacht(rand, cx, waterline, between(rand, 0.95, 1.12), decks);
  }
  return svg(product.name, background(rand, scene, horizon, product.slug) + boat);
}

function sailingTile(): string {
  const rand = random('tile-sailing-boats');
  const horizon = 340;
  const fleet = [sailingBoat(rand, 170, 430, 0.45), sailingBoat(rand, 600, 420, 0.5), sailingBoat(rand, 380, 520, 0.85)];
  return svg('Sailing boats', background(rand, SCENES[0]!, horizon, 'tile-sail') + fleet.join(''));
}

function yachtsTile(): string {
  const rand = random('tile-yachts');
  const horizon = 350;
  return svg('Yachts', background(rand, SCENES[1]!, horizon, 'tile-yacht') + motorYacht(rand, 400, 500, 1.05, 3));
}

fs.mkdirSync(OUT_DIR, { recursive: true });
for (const product of DEMO_PRODUCTS) fs.writeFileSync(path.join(OUT_DIR, `${product.slug}.svg`), productPicture(product));
fs.writeFileSync(path.join(OUT_DIR, 'tile-sailing-boats.svg'), sailingTile());
fs.writeFileSync(path.join(OUT_DIR, 'tile-yachts.svg'), yachtsTile());
console.log(`wrote ${DEMO_PRODUCTS.length + 2} pictures to ${path.relative(process.cwd(), OUT_DIR)}`);
