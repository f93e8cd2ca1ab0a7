// The faces of the cards, drawn here as SVG (no image is fetched, no font's suit glyphs are
// needed): two corner indices, the pips of 2-10 in their usual layouts, a large ace, and a
// simple court figure for J, Q and K (a head with a crown, a cap or a tiara, the letter and
// the suit, mirrored top to bottom as on a real card). A card is 100 x 140 units.

const SVG = "http://www.w3.org/2000/svg";
const RED = "#c8102e";
const BLACK = "#16161a";

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) if (c) node.append(c);
  return node;
}

// each suit's outline in a box from -1 to 1 (heart, diamond, spade; a club is three circles)
const SHAPES = {
  H: "M0,0.95 C-0.15,0.75 -1,0.25 -1,-0.32 C-1,-0.82 -0.42,-1.02 0,-0.55 C0.42,-1.02 1,-0.82 1,-0.32 C1,0.25 0.15,0.75 0,0.95 Z",
  D: "M0,-1 C0.25,-0.6 0.5,-0.3 0.76,0 C0.5,0.3 0.25,0.6 0,1 C-0.25,0.6 -0.5,0.3 -0.76,0 C-0.5,-0.3 -0.25,-0.6 0,-1 Z",
  S: "M0,-1 C0.15,-0.8 1,-0.3 1,0.22 C1,0.66 0.46,0.8 0.1,0.46 C0.12,0.72 0.26,0.9 0.42,1 L-0.42,1 C-0.26,0.9 -0.12,0.72 -0.1,0.46 C-0.46,0.8 -1,0.66 -1,0.22 C-1,-0.3 -0.15,-0.8 0,-1 Z",
  C: "M-0.1,0.2 C-0.12,0.62 -0.24,0.88 -0.42,1 L0.42,1 C0.24,0.88 0.12,0.62 0.1,0.2 Z",
};

/** One suit mark centred at (x, y), ``size`` units from its centre to its edge; ``flip``
 * turns it upside down (the pips of a card's lower half). */
export function pip(suit, x, y, size, flip = false) {
  const colour = suit === "H" || suit === "D" ? RED : BLACK;
  const g = svg("g", { transform: `translate(${x} ${y}) scale(${size})${flip ? " rotate(180)" : ""}`, fill: colour });
  g.append(svg("path", { d: SHAPES[suit] }));
  if (suit === "C") {
    g.append(svg("circle", { cx: 0, cy: -0.5, r: 0.4 }));
    g.append(svg("circle", { cx: -0.5, cy: 0.12, r: 0.4 }));
    g.append(svg("circle", { cx: 0.5, cy: 0.12, r: 0.4 }));
    g.append(svg("circle", { cx: 0, cy: 0, r: 0.22 }));
  }
  return g;
}

// the pips' places (x, y) on a card, by rank: columns 32, 50, 68; rows from 28 to 112
const L = 31;
const C = 50;
const R = 69;
const LAYOUTS = {
  2: [[C, 28], [C, 112]],
  3: [[C, 28], [C, 70], [C, 112]],
  4: [[L, 28], [R, 28], [L, 112], [R, 112]],
  5: [[L, 28], [R, 28], [C, 70], [L, 112], [R, 112]],
  6: [[L, 28], [R, 28], [L, 70], [R, 70], [L, 112], [R, 112]],
  7: [[L, 28], [R, 28], [C, 49], [L, 70], [R, 70], [L, 112], [R, 112]],
  8: [[L, 28], [R, 28], [C, 49], [L, 70], [R, 70], [C, 91], [L, 112], [R, 112]],
  9: [[L, 28], [R, 28], [L, 56], [R, 56], [C, 70], [L, 84], [R, 84], [L, 112], [R, 112]],
  10: [[L, 28], [R, 28], [C, 42], [L, 56], [R, 56], [L, 84], [R, 84], [C, 98], [L, 112], [R, 112]],
};

/** A corner index: the rank over a small suit mark (``flip``: the lower right corner). */
function index(rank, suit, flip) {
  const colour = suit === "H" || suit === "D" ? RED : BLACK;
  const g = svg("g", { class: "index", transform: flip ? "rotate(180 50 70)" : "" });
  const text = svg("text", {
    x: 12, y: 25, "text-anchor": "middle", fill: colour, "font-size": rank === "10" ? 19 : 23,
    "font-weight": 700, "font-family": "Georgia, 'DejaVu Serif', serif", "letter-spacing": rank === "10" ? -2 : 0,
  });
  text.textContent = rank;
  g.append(text, pip(suit, 12, 38, 6.5));
  return g;
}

// the court figures' headwear: a king's crown, a queen's tiara, a jack's cap with a feather
const HATS = {
  K: "M-13,-2 L-13,-16 L-7,-9 L0,-19 L7,-9 L13,-16 L13,-2 Z",
  Q: "M-12,-2 C-12,-10 -6,-15 0,-15 C6,-15 12,-10 12,-2 Z M-2,-19 A2,2 0 1 0 2,-19 A2,2 0 1 0 -2,-19 Z",
  J: "M-12,-2 L-10,-12 C-4,-16 6,-16 12,-10 L14,-2 Z M8,-13 C14,-22 20,-20 22,-16 C18,-17 13,-14 10,-10 Z",
};

/** One half of a court card: the figure's head and shoulders, its hat, the letter and suit. */
function courtHalf(rank, suit) {
  const colour = suit === "H" || suit === "D" ? RED : BLACK;
  const other = suit === "H" || suit === "D" ? "#1d4fa8" : "#b0121f";
  const g = svg("g", {});
  // shoulders: a robe in the suit's colour with a gold collar
  g.append(svg("path", { d: "M28,70 C30,58 40,53 50,53 C60,53 70,58 72,70 Z", fill: colour }));
  g.append(svg("path", { d: "M41,56 L50,66 L59,56 Z", fill: "#e8b730", stroke: "#7a5a10", "stroke-width": 0.8 }));
  g.append(svg("path", { d: "M28,70 C31,62 36,58 41,56 L44,70 Z", fill: other, opacity: 0.85 }));
  // the head
  g.append(svg("ellipse", { cx: 50, cy: 44, rx: 8.5, ry: 10, fill: "#f6dcb5", stroke: "#6b4a2a", "stroke-width": 0.8 }));
  g.append(svg("circle", { cx: 46.8, cy: 43, r: 1.1, fill: "#222" }));
  g.append(svg("circle", { cx: 53.2, cy: 43, r: 1.1, fill: "#222" }));
  g.append(svg("path", { d: "M47,49 Q50,51 53,49", fill: "none", stroke: "#8a3b2a", "stroke-width": 1 }));
  if (rank === "K") g.append(svg("path", { d: "M43,48 Q50,60 57,48 Q50,54 43,48 Z", fill: "#8a5a2b" }));
  if (rank === "Q") g.append(svg("path", { d: "M41,40 C40,52 43,56 45,57 L44,44 Z M59,40 C60,52 57,56 55,57 L56,44 Z", fill: "#c07a2c" }));
  g.append(svg("path", { d: HATS[rank], transform: "translate(50 36)", fill: "#e8b730", stroke: "#7a5a10", "stroke-width": 0.8 }));
  // the letter and the suit in the upper left of the frame
  const letter = svg("text", {
    x: 31, y: 40, "text-anchor": "middle", fill: colour, "font-size": 17, "font-weight": 700,
    "font-family": "Georgia, 'DejaVu Serif', serif",
  });
  letter.textContent = rank;
  g.append(letter, pip(suit, 69, 31, 5));
  return g;
}

/** The picture of a card face ("TD", "KS", "AH"...) as an SVG element. */
export function faceSvg(code) {
  const rank = code[0] === "T" ? "10" : code[0];
  const suit = code[1];
  const face = svg("svg", { viewBox: "0 0 100 140", class: "face", "aria-hidden": "true", focusable: "false" });
  face.append(index(rank, suit, false), index(rank, suit, true));
  if (rank === "A") face.append(pip(suit, 50, 70, suit === "S" ? 22 : 17));
  else if (LAYOUTS[rank]) for (const [x, y] of LAYOUTS[rank]) face.append(pip(suit, x, y, 8.5, y > 70));
  else {
    const colour = suit === "H" || suit === "D" ? RED : BLACK;
    face.append(svg("rect", { x: 22, y: 14, width: 56, height: 112, rx: 3, fill: "#fbf3df", stroke: colour, "stroke-width": 1.4 }));
    const inner = svg("g", {}, courtHalf(rank, suit));
    const lower = courtHalf(rank, suit);
    lower.setAttribute("transform", "rotate(180 50 70)");
    face.append(inner, lower, svg("line", { x1: 22, y1: 70, x2: 78, y2: 70, stroke: colour, "stroke-width": 0.8 }));
  }
  return face;
}
