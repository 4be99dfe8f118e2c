/**
 * The vector scan's inner loop: for every stored row, an upper bound of its score against the query, as float64
 * in an output array (vector-index.ts re-scores in float only the few rows whose bound can matter). Rows are int8
 * (a quarter of float32's memory traffic), the query int16; per row the loop takes the exact 32-bit integer dot
 * product (16 components per step: sign-extend, i32x4.dot_i16x8_s, add) and turns it into the bound
 * `(scale · queryScale) · (dot + l1 / 2)` with the row's scale and Σ|component| kept in the row's last 12 bytes.
 * Computing the bound here leaves the selection one comparison per row (~0.3 ms for 100k rows; reading three
 * arrays per row and computing the bound in JavaScript made the whole selection ~1.3 ms). The module is assembled here from its few instructions (no
 * build step, no binary file); where WebAssembly SIMD is missing, a JavaScript loop over the same memory layout
 * computes the same numbers.
 *
 * Layout inside the memory: rows of `stride` bytes (dims int8 components, zero padding, then the row's l1 as
 * int32 at stride − 12 and its scale as float64 at stride − 8; stride a multiple of 16), a query of `stride`
 * int16 whose components past dims are zero (so a row's tail never counts in its dot product), and one float64
 * per row for the results.
 */

/** Bytes at the end of each row for its l1 (int32) and scale (float64). */
export const ROW_TAIL = 12;

/** The part of the WebAssembly API used here (the project's TypeScript libs do not declare it). */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Memory: new (descriptor: { initial: number }) => WasmMemory;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
  validate(bytes: Uint8Array): boolean;
}
const wasm = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;

export const WASM_PAGE = 65_536;

/** A zeroed, growable memory of `pages` 64 KiB pages (an ArrayBuffer where WebAssembly is missing). */
export function newMemory(pages: number): WasmMemory {
  if (wasm) return new wasm.Memory({ initial: pages });
  let buffer = new ArrayBuffer(pages * WASM_PAGE);
  return {
    get buffer() {
      return buffer;
    },
    grow(delta) {
      const old = buffer.byteLength / WASM_PAGE;
      const next = new ArrayBuffer(buffer.byteLength + delta * WASM_PAGE);
      new Uint8Array(next).set(new Uint8Array(buffer));
      buffer = next;
      return old;
    },
  };
}

export type DotFn = (
  queryByte: number,
  rowsByte: number,
  rows: number,
  stride: number,
  outByte: number,
  queryScale: number,
) => void;

export interface DotKernel {
  readonly simd: boolean;
  /** Binds the kernel to a memory; the function follows the memory as it grows. */
  bind(memory: WasmMemory): DotFn;
}

const leb = (n: number): number[] => {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
};
const name = (s: string) => [...leb(s.length), ...Buffer.from(s)];
const vec = (items: number[][]) => [...leb(items.length), ...items.flat()];
const section = (id: number, body: number[]) => [id, ...leb(body.length), ...body];

const I32 = 0x7f;
const F64 = 0x7c;
const V128 = 0x7b;
const get = (i: number) => [0x20, i];
const set = (i: number) => [0x21, i];
const tee = (i: number) => [0x22, i];
const i32 = (n: number) => [0x41, n]; // small non-negative constants only (< 64)
const simd = (op: number) => [0xfd, ...leb(op)];
const V128_LOAD = [...simd(0), 4, 0]; // align 2^4, offset 0
const EXTEND_LOW_I8 = simd(0x87); // i16x8.extend_low_i8x16_s
const EXTEND_HIGH_I8 = simd(0x88); // i16x8.extend_high_i8x16_s
const I32X4_ADD = simd(0xae);
const I32X4_DOT_I16 = simd(0xba); // i32x4.dot_i16x8_s
const lane = (i: number) => [...simd(0x1b), i]; // i32x4.extract_lane
const I32_ADD = 0x6a;
const I32_SUB = 0x6b;
const I32_LT_U = 0x49;
const I32_EQZ = 0x45;
const I32_LOAD = [0x28, 2, 0];
const F64_LOAD = [0x2b, 3, 0];
const F64_STORE = [0x39, 3, 0];
const F64_ADD = 0xa0;
const F64_MUL = 0xa2;
const F64_FROM_I32 = 0xb7; // f64.convert_i32_s
const F64_HALF = [0x44, ...new Uint8Array(new Float64Array([0.5]).buffer)];
const BLOCK = [0x02, 0x40];
const LOOP = [0x03, 0x40];
const END = 0x0b;
const BR_IF = (depth: number) => [0x0d, depth];

/**
 * (func (export "dots") (param q rows n stride out qs)): for each of n rows, with dot = Σ rows[r][d]·q[d] over
 * `stride` components (16 per step), out[r] = (scale[r] · qs) · (dot + 0.5 · l1[r]) in float64, the same
 * operations in the same order as the JavaScript loop. Locals: 6 = component index, 7 = query pointer,
 * 8 = row vector, 9 = sum.
 */
function dotsModule(): Uint8Array {
  const [Q, ROW, N, STRIDE, OUT, QS, D, QP, V, ACC] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
  // The row pointer has moved past the row: its tail sits just below it.
  const tail = (back: number, load: number[]) => [...get(ROW), ...i32(back), I32_SUB, ...load];
  // acc += dot(extend(v half), q[qp + offset])
  const half = (extend: number[], offset: number) => [
    ...get(ACC),
    ...get(V),
    ...extend,
    ...get(QP),
    ...simd(0),
    4,
    offset,
    ...I32X4_DOT_I16,
    ...I32X4_ADD,
    ...set(ACC),
  ];
  const body = [
    ...BLOCK,
    ...get(N),
    I32_EQZ,
    ...BR_IF(0),
    ...LOOP, // rows
    ...i32(0),
    ...set(D),
    ...get(Q),
    ...set(QP),
    ...simd(12),
    ...new Array<number>(16).fill(0), // v128.const 0
    ...set(ACC),
    ...LOOP, // 16 components at a time
    ...get(ROW),
    ...V128_LOAD,
    ...set(V),
    ...half(EXTEND_LOW_I8, 0),
    ...half(EXTEND_HIGH_I8, 16),
    ...get(ROW),
    ...i32(16),
    I32_ADD,
    ...set(ROW),
    ...get(QP),
    ...i32(32),
    I32_ADD,
    ...set(QP),
    ...get(D),
    ...i32(16),
    I32_ADD,
    ...tee(D),
    ...get(STRIDE),
    I32_LT_U,
    ...BR_IF(0),
    END,
    ...get(OUT),
    ...tail(8, F64_LOAD), // scale
    ...get(QS),
    F64_MUL,
    ...get(ACC),
    ...lane(0),
    ...get(ACC),
    ...lane(1),
    I32_ADD,
    ...get(ACC),
    ...lane(2),
    ...get(ACC),
    ...lane(3),
    I32_ADD,
    I32_ADD,
    F64_FROM_I32,
    ...F64_HALF,
    ...tail(ROW_TAIL, I32_LOAD), // l1
    F64_FROM_I32,
    F64_MUL,
    F64_ADD,
    F64_MUL,
    ...F64_STORE,
    ...get(OUT),
    ...i32(8),
    I32_ADD,
    ...set(OUT),
    ...get(N),
    ...i32(1),
    I32_SUB,
    ...tee(N),
    ...BR_IF(0),
    END,
    END,
    END,
  ];
  const fn = [
    ...vec([
      [2, I32],
      [2, V128],
    ]),
    ...body,
  ];
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec([[0x60, ...vec([[I32], [I32], [I32], [I32], [I32], [F64]]), 0]])),
    ...section(2, vec([[...name('env'), ...name('memory'), 0x02, 0x00, 0x01]])),
    ...section(3, vec([[0]])),
    ...section(7, vec([[...name('dots'), 0x00, 0]])),
    ...section(10, vec([[...leb(fn.length), ...fn]])),
  ]);
}

/** The same numbers in JavaScript (used where WebAssembly SIMD is unavailable). */
export const jsKernel: DotKernel = {
  simd: false,
  bind(memory) {
    return (queryByte, rowsByte, rows, stride, outByte, queryScale) => {
      const view = new DataView(memory.buffer);
      const rowData = new Int8Array(memory.buffer, rowsByte, rows * stride);
      const q = new Int16Array(memory.buffer, queryByte, stride);
      const out = new Float64Array(memory.buffer, outByte, rows);
      for (let r = 0, base = 0; r < rows; r++, base += stride) {
        let s = 0;
        for (let d = 0; d < stride; d++) s += rowData[base + d]! * q[d]!;
        const end = rowsByte + base + stride;
        const scale = view.getFloat64(end - 8, true);
        const l1 = view.getInt32(end - ROW_TAIL, true);
        out[r] = scale * queryScale * (s + 0.5 * l1);
      }
    };
  },
};

function wasmKernel(): DotKernel | undefined {
  const bytes = dotsModule();
  if (!wasm?.validate(bytes)) return undefined;
  const module = new wasm.Module(bytes);
  return {
    simd: true,
    bind(memory) {
      const instance = new wasm.Instance(module, { env: { memory } });
      return instance.exports.dots as DotFn;
    },
  };
}

/** WebAssembly SIMD where the runtime has it (Node 16.4+), else the JavaScript loop. */
export const dotKernel: DotKernel = wasmKernel() ?? jsKernel;
