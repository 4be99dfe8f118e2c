/**
 * The site's icon, drawn here rather than kept as a binary file: a 16×16 ICO (one 32-bit BMP image) of a white
 * "F" on the accent blue of the stylesheet, with transparent corners. Browsers ask for /favicon.ico by themselves.
 */

const SIZE = 16;
const ACCENT = [0x0a, 0x58, 0xca]; // the stylesheet's --accent (light scheme)

/** The glyph, top row first: '#' white, '.' blue; the corners are cut round below. */
const GLYPH = [
  '................',
  '................',
  '................',
  '....########....',
  '....########....',
  '....##..........',
  '....##..........',
  '....#######.....',
  '....#######.....',
  '....##..........',
  '....##..........',
  '....##..........',
  '....##..........',
  '................',
  '................',
  '................',
];

const cornerCut = (x: number, y: number): boolean => {
  const dx = Math.min(x, SIZE - 1 - x);
  const dy = Math.min(y, SIZE - 1 - y);
  return dx + dy < 2;
};

function drawIcon(): Buffer {
  const headerBytes = 6 + 16;
  const infoBytes = 40;
  const pixelBytes = SIZE * SIZE * 4;
  const maskBytes = SIZE * 4; // 1 bit per pixel, rows padded to 4 bytes; all 0: the alpha channel decides
  const imageBytes = infoBytes + pixelBytes + maskBytes;
  const out = Buffer.alloc(headerBytes + imageBytes);
  // ICONDIR: reserved, type 1 (icon), one image; ICONDIRENTRY: size, colours, planes, bits, bytes, offset.
  out.writeUInt16LE(0, 0);
  out.writeUInt16LE(1, 2);
  out.writeUInt16LE(1, 4);
  out.writeUInt8(SIZE, 6);
  out.writeUInt8(SIZE, 7);
  out.writeUInt16LE(1, 10);
  out.writeUInt16LE(32, 12);
  out.writeUInt32LE(imageBytes, 14);
  out.writeUInt32LE(headerBytes, 18);
  // BITMAPINFOHEADER: the height counts the image and its mask.
  const info = headerBytes;
  out.writeUInt32LE(infoBytes, info);
  out.writeInt32LE(SIZE, info + 4);
  out.writeInt32LE(SIZE * 2, info + 8);
  out.writeUInt16LE(1, info + 12);
  out.writeUInt16LE(32, info + 14);
  out.writeUInt32LE(pixelBytes + maskBytes, info + 20);
  // Pixels bottom row first, as BGRA.
  for (let row = 0; row < SIZE; row++) {
    const y = SIZE - 1 - row;
    for (let x = 0; x < SIZE; x++) {
      const at = info + infoBytes + (row * SIZE + x) * 4;
      const white = GLYPH[y]?.[x] === '#';
      const [r, g, b] = white ? [0xff, 0xff, 0xff] : ACCENT;
      out.writeUInt8(b ?? 0, at);
      out.writeUInt8(g ?? 0, at + 1);
      out.writeUInt8(r ?? 0, at + 2);
      out.writeUInt8(cornerCut(x, y) ? 0 : 0xff, at + 3);
    }
  }
  return out;
}

export const FAVICON = drawIcon();
export const FAVICON_PATH = '/favicon.ico';
