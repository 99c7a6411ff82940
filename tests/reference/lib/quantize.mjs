// Weight quantization as tensorflowjs_converter writes it (tfjs-converter python,
// quantization.py + write_weights.py), re-done here so that quantized bundles come from real
// tfjs-layers models without a Python toolchain.
//
// uint8 / uint16: affine over [min, max] of the tensor, with the range "nudged" (as in TF Lite) so
// that 0.0 is exactly representable when min <= 0 <= max:
//   scale = (max - min) / qmax                         qmax = 255 or 65535, float64 math
//   zero  = round_half_even(-min / scale);  min' = -zero * scale;  max' = qmax * scale + min'
//   q     = round_half_even((clip(x, min', max') - min') / scale)
// A constant tensor becomes all zeros with scale 1 and min = that constant.
// Manifest entry: dtype stays the original ("float32"); quantization = {dtype, min, scale,
// original_dtype} for uint8/uint16, {dtype: "float16", original_dtype} for float16.
// TF.js dequantizes with q * scale + min (float32), or by widening half floats.
// Only float32 weights are quantized; int32 weights are written unchanged.

function roundHalfEven(x) {
  const r = Math.round(x);
  // Math.round sends .5 up; NumPy's round goes to the even neighbour.
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

function affine(values, qmax, Out) {
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const q = new Out(values.length);
  if (min === max) return { q, meta: { min, scale: 1.0 } };
  const scale = (max - min) / qmax;
  let lo = min;
  let hi = max;
  if (min <= 0 && 0 <= max) {
    const zero = roundHalfEven((0 - min) / scale);
    lo = -zero * scale;
    hi = qmax * scale + lo;
  }
  for (let i = 0; i < values.length; ++i) {
    const c = Math.min(Math.max(values[i], lo), hi);
    q[i] = roundHalfEven((c - lo) / scale);
  }
  return { q, meta: { min: lo, scale } };
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** IEEE binary16 bits of a float32 value, round to nearest even, overflow to infinity. */
export function toHalfBits(value) {
  f32[0] = value;
  const x = u32[0];
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0); // inf, NaN
  const e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00; // too large: inf
  if (e <= 0) {
    // Subnormal half (or zero): shift the full significand into place, then round.
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    let h = mant >>> shift;
    const rest = mant & ((1 << shift) - 1);
    const halfway = 1 << (shift - 1);
    if (rest > halfway || (rest === halfway && (h & 1))) h += 1;
    return sign | h;
  }
  let h = (e << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && (h & 1))) h += 1; // a carry into the exponent is right
  return sign | h;
}

/**
 * Quantizes one float32 weight. Returns {bytes: Buffer, quantization} with the manifest
 * `quantization` object, exactly as the converter orders its keys.
 */
export function quantizeWeight(values, dtype) {
  if (dtype === 'uint8' || dtype === 'uint16') {
    const { q, meta } = affine(values, dtype === 'uint8' ? 255 : 65535, dtype === 'uint8' ? Uint8Array : Uint16Array);
    const bytes = Buffer.alloc(q.length * q.BYTES_PER_ELEMENT);
    for (let i = 0; i < q.length; ++i) {
      if (dtype === 'uint8') bytes[i] = q[i];
      else bytes.writeUInt16LE(q[i], i * 2);
    }
    return { bytes, quantization: { dtype, min: meta.min, scale: meta.scale, original_dtype: 'float32' } };
  }
  if (dtype === 'float16') {
    const bytes = Buffer.alloc(values.length * 2);
    for (let i = 0; i < values.length; ++i) bytes.writeUInt16LE(toHalfBits(values[i]), i * 2);
    return { bytes, quantization: { dtype, original_dtype: 'float32' } };
  }
  throw new Error(`quantizeWeight: unsupported dtype ${dtype}`);
}
