// The ops TF.js 4.22's converter maps: every `tfOpName` entry of
// @tensorflow/tfjs-converter/dist/operations/op_list/*.js in tests/reference's node_modules, read
// at run time (never typed by hand).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const referenceDir = path.resolve(here, '../../reference');
export const opListDir = path.join(referenceDir, 'node_modules/@tensorflow/tfjs-converter/dist/operations/op_list');

/** [{op, category, file, inputs, attrs}] in file order, then entry order. */
export function converterOps() {
  if (!fs.existsSync(opListDir)) throw new Error(`${opListDir} is missing: run tests/reference/make-data.sh (npm ci) first`);
  const out = [];
  for (const file of fs.readdirSync(opListDir).filter((f) => f.endsWith('.js')).sort()) {
    const text = fs.readFileSync(path.join(opListDir, file), 'utf8');
    // Each file is `export const json = [...]`: plain data, evaluated without the export.
    const body = text.replace(/export\s+const\s+json\s*=/, 'return ');
    if (body === text) throw new Error(`${file}: no "export const json =" (did the converter's layout change?)`);
    const entries = new Function(body)();
    for (const e of entries) {
      out.push({
        op: e.tfOpName,
        // tfdf.js leaves its category out; the file name says what it is.
        category: e.category ?? path.basename(file, '.js'),
        file,
        inputs: e.inputs ?? [],
        attrs: e.attrs ?? [],
      });
    }
  }
  return out;
}

export function converterVersion() {
  const pkg = path.join(referenceDir, 'node_modules/@tensorflow/tfjs-converter/package.json');
  return JSON.parse(fs.readFileSync(pkg, 'utf8')).version;
}
