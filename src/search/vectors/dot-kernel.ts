/**
 * The vector scan's inner loop: for every stored row, an upper bound of its score against the query, as float64
 * in an output array (vector-index.ts re-scores in float only the few rows whose bound can matter). Rows are int8
 * (a quarter of float32's memory traffic), the query int16; per row the loop takes the exact 32-bit integer dot
 * product (16 components per step: sign-extend, i32x4.dot_i16x8_s, add) and turns it into the bound
 * `(scale · queryScale) · (dot + l1 / 2)` with the row's scale and Σ|component| kept in the row's last 12 bytes.
 * Computing the bound here, and listing the rows whose bound reaches a threshold, leaves the selection only those
 * rows to visit. The module is assembled here from its few instructions (no build step, no binary file); where
 * WebAssembly SIMD is missing, a JavaScript loop over the same memory layout computes the same numbers.
 *
 * Layout inside the memory: rows of `stride` bytes (dims int8 components, zero padding, then the row's l1 as
 * int32 at stride − 12 and its scale as float64 at stride − 8; stride a multiple of 16), a query of `stride`
 * int16 whose components past dims are zero (so a row's tail never counts in its dot product), one float64 per
 * row for the bounds and one int32 per row for the listed slots (vector-index.ts's layout()).
 */

/** Bytes at the end of each row for its l1 (int32) and scale (float64). */
export const ROW_TAIL = 12;

/** The part of the WebAssembly API used here (the project's TypeScript libs do not declare it). */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Memory: new (descriptor: { initial: number; maximum?: number; shared?: boolean }) => WasmMemory;
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

/** The largest shared memory (4 GiB): only address space is reserved, pages are committed as they are written. */
export const SHARED_MAX_PAGES = 65_536;

/**
 * A zeroed memory of `pages` pages that worker threads can read and write too (its buffer is a
 * SharedArrayBuffer), or undefined where the runtime has no shared WebAssembly memory.
 */
export function newSharedMemory(pages: number): WasmMemory | undefined {
  if (!wasm) return undefined;
  try {
    const memory = new wasm.Memory({ initial: pages, maximum: SHARED_MAX_PAGES, shared: true });
    return memory.buffer instanceof SharedArrayBuffer ? memory : undefined;
  } catch {
    return undefined;
  }
}

const isShared = (memory: WasmMemory) =>
  typeof SharedArrayBuffer !== 'undefined' && memory.buffer instanceof SharedArrayBuffer;

/**
 * Bounds for `rows` rows starting at `rowsByte`, `step` bytes apart (the stride, or a multiple of it to sample),
 * into float64s at `outByte`; appends the slot (`firstSlot` + row number) of each row whose bound is at least
 * `threshold` to the int32s at `slotsByte`, and returns how many.
 */
export type DotFn = (
  queryByte: number,
  rowsByte: number,
  rows: number,
  step: number,
  outByte: number,
  queryScale: number,
  threshold: number,
  slotsByte: number,
  firstSlot: number,
) => number;

export interface DotKernel {
  readonly simd: boolean;
  /**
   * The compiled WebAssembly module for a layout on a shared memory, to instantiate in a worker thread
   * (scan-thread.ts); undefined for the JavaScript kernel.
   */
  sharedModule?(stride: number, dims: number): object;
  /**
   * Binds the kernel to a memory and a row layout (`stride` bytes per row, `dims` components); the function
   * follows the memory as it grows.
   */
  bind(memory: WasmMemory, stride: number, dims: number): DotFn;
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
const EXTEND_LOW_I8 = simd(0x87); // i16x8.extend_low_i8x16_s
const EXTEND_HIGH_I8 = simd(0x88); // i16x8.extend_high_i8x16_s
const I32X4_ADD = simd(0xae);
const I32X4_DOT_I16 = simd(0xba); // i32x4.dot_i16x8_s
const lane = (i: number) => [...simd(0x1b), i]; // i32x4.extract_lane
const I32_ADD = 0x6a;
const I32_SUB = 0x6b;
const I32_EQZ = 0x45;
const F64_STORE = [0x39, 3, 0];
const I32_STORE = [0x36, 2, 0];
const F64_GE = 0x66;
const I32_SHR_U = 0x76;
const IF = [0x04, 0x40];
const F64_ADD = 0xa0;
const F64_MUL = 0xa2;
const F64_FROM_I32 = 0xb7; // f64.convert_i32_s
const F64_HALF = [0x44, ...new Uint8Array(new Float64Array([0.5]).buffer)];
const BLOCK = [0x02, 0x40];
const LOOP = [0x03, 0x40];
const END = 0x0b;
const BR_IF = (depth: number) => [0x0d, depth];

/** The dots function's locals: its parameters, then CP, B, V, ACC, then one per query half-vector (13 + h). */
const [Q, ROW, N, STEP, OUT, QS, THRESHOLD, SLOTS, SLOT, CP, B, V, ACC] = [
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
];

/** A load instruction with its alignment and offset. */
const load = (op: number[], align: number, offset: number) => [...op, align, ...leb(offset)];

/** With the row's i32x4 dot products in ACC: its bound (scale · qs) · (dot + 0.5 · l1), into B. */
function rowBound(stride: number): number[] {
  return [
    ...get(ROW),
    ...load([0x2b], 3, stride - 8), // f64.load: scale
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
    ...get(ROW),
    ...load([0x28], 2, stride - ROW_TAIL), // i32.load: l1
    F64_FROM_I32,
    F64_MUL,
    F64_ADD,
    F64_MUL,
    ...set(B),
  ];
}

/** The module around the dots function's body: its type, the imported memory, the export and the code. */
function moduleOf(params: number[][], fn: number[], shared: boolean): Uint8Array {
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec([[0x60, ...vec(params), ...vec([[I32]])]])),
    // The imported memory: at least one page; a shared one must declare its maximum.
    ...section(
      2,
      vec([
        [
          ...name('env'),
          ...name('memory'),
          0x02,
          ...(shared ? [0x03, 1, ...leb(SHARED_MAX_PAGES)] : [0x00, 1]),
        ],
      ]),
    ),
    ...section(3, vec([[0]])),
    ...section(7, vec([[...name('dots'), 0x00, 0]])),
    ...section(10, vec([[...leb(fn.length), ...fn]])),
  ]);
}

/**
 * (func (export "dots") (param q rows n step out qs threshold slots first) (result i32)) for one row layout: for
 * each of n rows, `step` bytes apart from `rows`, with dot = Σ row[d]·q[d], out[r] = (scale · qs) · (dot + 0.5 ·
 * l1) in float64, the same operations in the same order as the JavaScript loop; and the slot number (first + r)
 * of every row whose bound reaches `threshold` appended to the int32 list at `slots`. Returns how many it
 * appended. The module is specialised to `stride` and `dims`: the query's halves (8 int16 components each) are
 * loaded into locals once per call and the loop over a row's components is unrolled (half-vectors past `dims`
 * are skipped: their query components are zero), so a row costs its loads, extends, dot products and adds with
 * no pointer or counter updates between them, about half the generic loop's time (query reloaded per row).
 * Listing the rows above the threshold here saves the selection a JavaScript pass over every bound.
 */
function dotsModule(stride: number, dims: number, shared = false): Uint8Array {
  const halves = Math.min(stride / 8, Math.ceil(dims / 8));
  const QH = (h: number) => 13 + h;
  const loadQuery: number[] = [];
  for (let h = 0; h < halves; h++) loadQuery.push(...get(Q), ...load(simd(0), 4, 16 * h), ...set(QH(h)));
  // Stack: the running i32x4 sum of every half-vector's dot products so far.
  const row: number[] = [];
  for (let h = 0; h < halves; h++) {
    if (h % 2 === 0) row.push(...get(ROW), ...load(simd(0), 4, 8 * h), ...tee(V));
    else row.push(...get(V));
    row.push(...(h % 2 === 0 ? EXTEND_LOW_I8 : EXTEND_HIGH_I8), ...get(QH(h)), ...I32X4_DOT_I16);
    if (h > 0) row.push(...I32X4_ADD);
  }
  const body = [
    ...loadQuery,
    ...get(SLOTS),
    ...set(CP),
    ...BLOCK,
    ...get(N),
    I32_EQZ,
    ...BR_IF(0),
    ...LOOP, // rows
    ...row,
    ...set(ACC),
    ...rowBound(stride),
    ...get(OUT),
    ...get(B),
    ...F64_STORE,
    ...get(B),
    ...get(THRESHOLD),
    F64_GE,
    ...IF,
    ...get(CP),
    ...get(SLOT),
    ...I32_STORE,
    ...get(CP),
    ...i32(4),
    I32_ADD,
    ...set(CP),
    END,
    ...get(SLOT),
    ...i32(1),
    I32_ADD,
    ...set(SLOT),
    ...get(OUT),
    ...i32(8),
    I32_ADD,
    ...set(OUT),
    ...get(ROW),
    ...get(STEP),
    I32_ADD,
    ...set(ROW),
    ...get(N),
    ...i32(1),
    I32_SUB,
    ...tee(N),
    ...BR_IF(0),
    END,
    END,
    ...get(CP),
    ...get(SLOTS),
    I32_SUB,
    ...i32(2),
    I32_SHR_U,
    END,
  ];
  const fn = [
    ...vec([
      [1, I32],
      [1, F64],
      [2 + halves, V128],
    ]),
    ...body,
  ];
  const params = [I32, I32, I32, I32, I32, F64, F64, I32, I32].map((t) => [t]);
  return moduleOf(params, fn, shared);
}

/** The same numbers in JavaScript (used where WebAssembly SIMD is unavailable). */
export const jsKernel: DotKernel = {
  simd: false,
  bind(memory, stride) {
    return (queryByte, rowsByte, rows, step, outByte, queryScale, threshold, slotsByte, firstSlot) => {
      const view = new DataView(memory.buffer);
      const bytes = new Int8Array(memory.buffer);
      const q = new Int16Array(memory.buffer, queryByte, stride);
      let found = 0;
      for (let r = 0, row = rowsByte; r < rows; r++, row += step) {
        let s = 0;
        for (let d = 0; d < stride; d++) s += bytes[row + d]! * q[d]!;
        const end = row + stride;
        const scale = view.getFloat64(end - 8, true);
        const l1 = view.getInt32(end - ROW_TAIL, true);
        const bound = scale * queryScale * (s + 0.5 * l1);
        view.setFloat64(outByte + 8 * r, bound, true);
        if (bound >= threshold) view.setInt32(slotsByte + 4 * found++, firstSlot + r, true);
      }
      return found;
    };
  },
};

function wasmKernel(): DotKernel | undefined {
  // The layout of this project's embeddings (100 dimensions) tells whether the runtime has SIMD.
  if (!wasm?.validate(dotsModule(112, 100))) return undefined;
  const api = wasm;
  const modules = new Map<string, object>();
  const moduleFor = (stride: number, dims: number, shared: boolean) => {
    const key = `${stride}/${dims}/${shared}`;
    let module = modules.get(key);
    if (!module) {
      module = new api.Module(dotsModule(stride, dims, shared));
      modules.set(key, module);
    }
    return module;
  };
  return {
    simd: true,
    sharedModule: (stride, dims) => moduleFor(stride, dims, true),
    bind(memory, stride, dims) {
      const module = moduleFor(stride, dims, isShared(memory));
      return new api.Instance(module, { env: { memory } }).exports.dots as DotFn;
    },
  };
}

/** WebAssembly SIMD where the runtime has it (Node 16.4+), else the JavaScript loop. */
export const dotKernel: DotKernel = wasmKernel() ?? jsKernel;
