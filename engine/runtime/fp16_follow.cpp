#include "runtime/fp16_follow.h"

#include <string>

#include "core/error.h"

namespace tfjsi::runtime {

Fp16Follow fp16_follow(const Flags* flags) {
  if (!flags || !flags->has(kFp16FollowFlag)) return Fp16Follow::Webgl;
  const std::string& v = flags->get_string(kFp16FollowFlag);
  if (v == "webgl") return Fp16Follow::Webgl;
  if (v == "accuracy") return Fp16Follow::Accuracy;
  throw UsageError("flag fp16_follow is '" + v + "': use webgl or accuracy");
}

std::string_view to_string(Fp16Follow f) {
  return f == Fp16Follow::Webgl ? "webgl" : "accuracy";
}

std::string_view describe(Fp16Follow f) {
  return f == Fp16Follow::Webgl
             ? "rounds where TF.js webgl stores half floats (fp16_follow=webgl)"
             : "rounds only where this engine's kernels store (fp16_follow=accuracy)";
}

}  // namespace tfjsi::runtime
