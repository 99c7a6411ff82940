// fp16 storage emulated in RGBA32F textures (Storage::Fp16Emulated, gl_tensor.h).
//
// Why. A program's build can depend on the formats of the textures bound to it: without
// GL_EXT_shader_image_load_formatted an image read names its format in the source (rgba16f or
// rgba32f), and Mesa's llvmpipe builds each program's code at its first dispatch for the bound
// formats (its disk cache finds a build only for the same ones). With RGBA16F textures a switch
// fp32 -> fp16 then builds every program again (bench/results/gl-live-2026-11-26-b.md: the first
// fp16 result cost 0.8-1.3 of the cold fp32 one). Emulated, an fp16 tensor lives in an RGBA32F
// texture holding only values an RGBA16F texture could hold: uploads round on the host, and after
// every kernel that writes such a tensor a rounding pass (shaders/half_round.comp, one program for
// every tensor) rounds its texels in place, both exactly as the driver's RGBA16F would. Every
// result is then bit for bit that of RGBA16F storage (tests/gl/gl_fp16_storage_test.cpp), fp16
// runs fp32's programs (and their builds), and the textures take twice the bytes.
//
// Why a pass and not rounding inside each kernel's store: the rounding code inlined at every store
// (one source for both precisions, made the identity for fp32 by uniforms) made llvmpipe's cold
// builds of every program, fp32 ones too, about 2.5x slower (branch fp16emu,
// bench/results/gl-fp16-switch-2026-11-26.md; in store_out under one uniform, 2026-11-28:
// blazeface's cold fp32 compile 0.9 -> 1.5 s). The pass leaves the kernels' code as it is and
// costs one small program built once. It runs lazily (GlBackend::dispatch): a kernel's output is
// marked unrounded, and the pass runs before the first kernel that reads it and cannot round it
// itself, or before a download. The binary kernel can (KernelCall::rounds_inputs): it rounds its
// operands as it loads them and its own store, so the residual add that fp16 following webgl
// runs after a convolution costs no pass (blazeface: 62 passes fewer a run).
//
// Where, and why by default. fp16 is emulated where the build depends on the formats
// (GlLimits::build_per_format) and the driver's rounding was found; elsewhere (a GPU with
// formatted image loads, whose build does not depend on them) fp16 stays in RGBA16F textures
// (flag gl.fp16_storage chooses). Measured on llvmpipe (bench/results/gl-live-2026-11-26-c.md,
// load 8-11): cold fp32 and fp16 builds unchanged; the first fp16 result after fp32 from
// 0.83-1.19 of the cold fp32 first down to 0.04-0.26, nothing built in a live switch; but warm
// fp16 runs 1.09-1.76x slower (the pass). The live switch is what #19 asks for, so emulated is the
// default there; emulate_by_default() is the line to change if warm fp16 speed matters more.
//
// The rule is the driver's, found by a probe at start (never assumed): values that each pair of
// rules treats differently are uploaded to an RGBA16F texture and stored by a kernel into an
// RGBA16F image, and read back. Emulation is offered only when the readings match a rule exactly.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/half_float.h"

namespace tfjsi::gl {

struct KernelCall;   // gl_op.h
class GlTensorData;  // gl_tensor.h

// What the driver's RGBA16F textures do with float32 values written to them.
struct HalfStorageRules {
  HalfRule upload;  // glTexSubImage2D of GL_FLOAT data
  HalfRule store;   // a compute shader's imageStore
};

// Values on which the rules differ (a multiple of 4: whole texels): past 65504 and between half
// steps, in and under half's subnormal range, both signs, zeros, inf and NaN.
std::vector<float> half_probe_values();

// The rule under which `written` reads back as `read` (NaN matching any NaN, zeros by sign);
// nullopt when no rule explains every value.
std::optional<HalfRule> half_rule_of(std::span<const float> written, std::span<const float> read);

// Makes half_round(vec4) (shaders/half_round.glsl) under `rule` part of `call`'s program.
void add_half_round(KernelCall& call, const HalfRule& rule);

// The rounding pass over `t` (an emulated fp16 tensor), in place, under `rule`.
KernelCall half_round_call(GlTensorData& t, const HalfRule& rule);

// "toward-zero, clamp" (the flag gl.fp16_rounding shows it).
std::string rule_text(const HalfRule& rule);

}  // namespace tfjsi::gl
