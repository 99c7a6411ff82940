// Writes NumPy .npy files, format version 1.0.
//
// Layout of a version 1.0 file:
//   bytes 0-5   magic "\x93NUMPY"
//   byte  6-7   format version: 1, 0
//   bytes 8-9   header length HLEN, uint16 little endian
//   HLEN bytes  ASCII Python dict literal, e.g. {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
//               padded with spaces and ended by '\n' so that 10 + HLEN is a multiple of 64
//   then        the raw elements, C (row-major) order, in the byte order the descr names
// A scalar has shape (), a 1-D array of n elements has shape (n,).
import fs from 'node:fs';

const DESCR = { float32: '<f4', int32: '<i4', bool: '|b1' };

function shapeTuple(shape) {
  if (shape.length === 0) return '()';
  if (shape.length === 1) return `(${shape[0]},)`;
  return `(${shape.join(', ')})`;
}

/** Bytes of an .npy file for `values` (a typed array or plain array) of `dtype` and `shape`. */
export function encodeNpy(values, shape, dtype) {
  const descr = DESCR[dtype];
  if (!descr) throw new Error(`npy: unsupported dtype ${dtype}`);
  const count = shape.reduce((a, b) => a * b, 1);
  if (values.length !== count) {
    throw new Error(`npy: ${values.length} values do not fill shape [${shape}]`);
  }
  let dict = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shapeTuple(shape)}, }`;
  const unpadded = 10 + dict.length + 1;
  dict += ' '.repeat((64 - (unpadded % 64)) % 64) + '\n';
  const header = Buffer.alloc(10);
  Buffer.from([0x93]).copy(header, 0);
  header.write('NUMPY', 1, 'latin1');
  header[6] = 1;
  header[7] = 0;
  header.writeUInt16LE(dict.length, 8);

  let body;
  if (dtype === 'float32') {
    body = Buffer.alloc(count * 4);
    for (let i = 0; i < count; ++i) body.writeFloatLE(values[i], i * 4);
  } else if (dtype === 'int32') {
    body = Buffer.alloc(count * 4);
    for (let i = 0; i < count; ++i) body.writeInt32LE(values[i], i * 4);
  } else {
    body = Buffer.alloc(count);
    for (let i = 0; i < count; ++i) body[i] = values[i] ? 1 : 0;
  }
  return Buffer.concat([header, Buffer.from(dict, 'latin1'), body]);
}

export function writeNpy(file, values, shape, dtype) {
  fs.writeFileSync(file, encodeNpy(values, shape, dtype));
}

/** Reads an .npy file written as above: {shape, dtype, values}. */
export function readNpy(file) {
  const buf = fs.readFileSync(file);
  if (buf[0] !== 0x93 || buf.toString('latin1', 1, 6) !== 'NUMPY' || buf[6] !== 1) {
    throw new Error(`${file}: not a version 1 .npy file`);
  }
  const hlen = buf.readUInt16LE(8);
  const header = buf.toString('latin1', 10, 10 + hlen);
  const descr = /'descr': '([^']+)'/.exec(header)?.[1];
  const shapeText = /'shape': \(([^)]*)\)/.exec(header)?.[1];
  if (!descr || shapeText == null || (10 + hlen) % 64 !== 0 || !header.endsWith('\n')) {
    throw new Error(`${file}: malformed header ${JSON.stringify(header)}`);
  }
  const dtype = Object.keys(DESCR).find((k) => DESCR[k] === descr);
  const shape = shapeText.split(',').map((s) => s.trim()).filter(Boolean).map(Number);
  const count = shape.reduce((a, b) => a * b, 1);
  const body = buf.subarray(10 + hlen);
  const size = dtype === 'bool' ? 1 : 4;
  if (body.length !== count * size) throw new Error(`${file}: ${body.length} data bytes for shape [${shape}]`);
  let values;
  if (dtype === 'float32') {
    values = new Float32Array(count);
    for (let i = 0; i < count; ++i) values[i] = body.readFloatLE(i * 4);
  } else if (dtype === 'int32') {
    values = new Int32Array(count);
    for (let i = 0; i < count; ++i) values[i] = body.readInt32LE(i * 4);
  } else {
    values = Uint8Array.from(body);
  }
  return { shape, dtype, values };
}
