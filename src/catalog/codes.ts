/** The small integer code of a repeated string, assigned in order of first sight (typed columns store codes). */
export function codeOf(codes: Map<string, number>, value: string): number {
  let code = codes.get(value);
  if (code === undefined) {
    code = codes.size;
    codes.set(value, code);
  }
  return code;
}
