#include "model/manifest.h"

#include <cmath>
#include <limits>
#include <unordered_set>

#include "model/json_fields.h"
#include "model/limits.h"

namespace tfjsi::model {
namespace {

struct Ctx {
  const std::filesystem::path& file;
  std::string where;  // "weightsManifest[0].weights[3] 'conv/w'"

  [[noreturn]] void fail(const std::string& what) const { fail_model(file, where + ": " + what); }
};

// A dim as TF.js reads it: any JSON number with an integral value, 0 or more.
std::int64_t parse_dim(const Ctx& ctx, const nlohmann::json& d, std::size_t i) {
  const std::string at = "shape[" + std::to_string(i) + "]";
  if (d.is_number_unsigned()) {
    const auto u = d.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      ctx.fail(at + " = " + std::to_string(u) + " is too large");
    return static_cast<std::int64_t>(u);
  }
  if (d.is_number_integer()) {
    const auto v = d.get<std::int64_t>();
    if (v < 0) ctx.fail(at + " = " + std::to_string(v) + ": expected a dim >= 0");
    return v;
  }
  if (d.is_number_float()) {
    const double v = d.get<double>();
    if (!std::isfinite(v) || v != std::floor(v))
      ctx.fail(at + " = " + d.dump() + ": expected a whole number");
    if (v < 0) ctx.fail(at + " = " + d.dump() + ": expected a dim >= 0");
    if (v >= 9.2e18) ctx.fail(at + " = " + d.dump() + " is too large");
    return static_cast<std::int64_t>(v);
  }
  ctx.fail(at + ": expected a number, found " + json_kind(d));
}

double parse_number(const Ctx& ctx, const nlohmann::json& q, const char* key, const char* qtype) {
  const auto* v = find_field(q, key);
  if (!v)
    ctx.fail(std::string("quantization '") + qtype + "' needs a number '" + key + "', found none");
  if (!v->is_number())
    ctx.fail(std::string("quantization.") + key + ": expected a number, found " + json_kind(*v));
  const double x = v->get<double>();
  if (!std::isfinite(x))
    ctx.fail(std::string("quantization.") + key + ": expected a finite number");
  return x;
}

void parse_quantization(const Ctx& ctx, const nlohmann::json& q, WeightSpec& w,
                        std::vector<std::string>& warnings) {
  if (!q.is_object()) ctx.fail("quantization: expected an object, found " + json_kind(q));
  const auto* qd = find_field(q, "dtype");
  if (!qd || !qd->is_string())
    ctx.fail("quantization.dtype: expected \"uint8\", \"uint16\" or \"float16\", found " +
             (qd ? json_kind(*qd) : std::string("none")));
  const auto qtype = qd->get<std::string>();
  if (qtype == "uint8" || qtype == "uint16") {
    w.quantization = qtype == "uint8" ? Quantization::Uint8 : Quantization::Uint16;
    w.stored_element_size = qtype == "uint8" ? 1 : 2;
    w.scale = parse_number(ctx, q, "scale", qtype.c_str());
    w.min = parse_number(ctx, q, "min", qtype.c_str());
    // TF.js dequantizes these to float32, or rounds them to int32.
    if (w.dtype != DType::Float32 && w.dtype != DType::Int32)
      ctx.fail("quantization '" + qtype + "' applies to float32 or int32 weights, not " +
               std::string(to_string(w.dtype)));
  } else if (qtype == "float16") {
    w.quantization = Quantization::Float16;
    w.stored_element_size = 2;
    if (w.dtype != DType::Float32)
      ctx.fail("quantization 'float16' applies to float32 weights only, not " +
               std::string(to_string(w.dtype)));
  } else {
    ctx.fail("quantization.dtype \"" + qtype + "\": expected \"uint8\", \"uint16\" or \"float16\"");
  }
  // The converter writes original_dtype equal to dtype; TF.js decodes to `dtype` and ignores it.
  if (const auto* od = find_field(q, "original_dtype")) {
    if (!od->is_string())
      ctx.fail("quantization.original_dtype: expected a string, found " + json_kind(*od));
    if (od->get<std::string>() != to_string(w.dtype))
      warnings.push_back(ctx.file.string() + ": " + ctx.where + ": quantization.original_dtype \"" +
                         od->get<std::string>() + "\" differs from dtype \"" +
                         std::string(to_string(w.dtype)) + "\"; decoding as " +
                         std::string(to_string(w.dtype)) + " like TF.js");
  }
}

WeightSpec parse_weight(const Ctx& base, const nlohmann::json& e,
                        std::vector<std::string>& warnings) {
  Ctx ctx = base;
  if (!e.is_object()) ctx.fail("expected a weight entry object, found " + json_kind(e));
  WeightSpec w;
  const auto* name = find_field(e, "name");
  if (!name || !name->is_string() || name->get_ref<const std::string&>().empty())
    ctx.fail("name: expected a non-empty string, found " +
             (name ? json_kind(*name) : std::string("none")));
  w.name = name->get<std::string>();
  ctx.where += " '" + w.name + "'";

  const auto* shape = find_field(e, "shape");
  if (!shape || !shape->is_array())
    ctx.fail("shape: expected an array of dims, found " +
             (shape ? json_kind(*shape) : std::string("none")));
  if (shape->size() > kMaxRank)
    ctx.fail("shape has " + std::to_string(shape->size()) + " dims, more than the limit of " +
             std::to_string(kMaxRank) + " (kMaxRank)");
  for (std::size_t i = 0; i < shape->size(); ++i) w.shape.push_back(parse_dim(ctx, (*shape)[i], i));
  const auto n = checked_num_elements(w.shape);
  if (!n) ctx.fail("shape " + shape_to_string(w.shape) + " has too many elements");
  w.elements = static_cast<std::uint64_t>(*n);

  const auto* dt = find_field(e, "dtype");
  if (!dt || !dt->is_string())
    ctx.fail(
        "dtype: expected \"float32\", \"int32\", \"bool\", \"string\" or \"complex64\", found " +
        (dt ? json_kind(*dt) : std::string("none")));
  const auto dname = dt->get<std::string>();
  const auto dtype = dtype_from_string(dname);
  if (!dtype)
    ctx.fail("dtype \"" + dname +
             "\": expected \"float32\", \"int32\", \"bool\", \"string\" or \"complex64\"");
  w.dtype = *dtype;
  w.stored_element_size = element_size(w.dtype);

  if (const auto* q = find_field(e, "quantization")) parse_quantization(ctx, *q, w, warnings);

  if (w.stored_element_size) {
    if (w.elements > std::numeric_limits<std::uint64_t>::max() / w.stored_element_size)
      ctx.fail("shape " + shape_to_string(w.shape) + " needs more bytes than can be addressed");
    w.fixed_bytes = w.elements * w.stored_element_size;
    // String weights are bounded by their shard's bytes as they are decoded.
    if (w.elements > kMaxWeightElements)
      ctx.fail("shape " + shape_to_string(w.shape) + " has more elements than the limit of " +
               std::to_string(kMaxWeightElements) + " for one weight (kMaxWeightElements)");
  }
  return w;
}

}  // namespace

std::vector<ManifestGroup> parse_manifest(const std::filesystem::path& file,
                                          const nlohmann::json& manifest,
                                          std::vector<std::string>& warnings) {
  std::vector<ManifestGroup> groups;
  if (manifest.is_null()) return groups;
  if (!manifest.is_array())
    fail_model(file, "weightsManifest: expected an array of groups, found " + json_kind(manifest));
  std::unordered_set<std::string> names;
  std::uint64_t decoded_bytes = 0;  // of all weights so far; each term is at most 2^32
  for (std::size_t g = 0; g < manifest.size(); ++g) {
    const Ctx gctx{file, "weightsManifest[" + std::to_string(g) + "]"};
    const auto& jg = manifest[g];
    if (!jg.is_object()) gctx.fail("expected a group object, found " + json_kind(jg));
    ManifestGroup group;

    const auto* paths = find_field(jg, "paths");
    if (!paths || !paths->is_array())
      gctx.fail("paths: expected an array of shard file names, found " +
                (paths ? json_kind(*paths) : std::string("none")));
    for (std::size_t i = 0; i < paths->size(); ++i) {
      const auto& p = (*paths)[i];
      if (!p.is_string())
        gctx.fail("paths[" + std::to_string(i) + "]: expected a string, found " + json_kind(p));
      group.paths.push_back(p.get<std::string>());
    }

    const auto* weights = find_field(jg, "weights");
    if (!weights || !weights->is_array())
      gctx.fail("weights: expected an array of weight entries, found " +
                (weights ? json_kind(*weights) : std::string("none")));
    for (std::size_t i = 0; i < weights->size(); ++i) {
      const Ctx wctx{file, gctx.where + ".weights[" + std::to_string(i) + "]"};
      auto w = parse_weight(wctx, (*weights)[i], warnings);
      if (!names.insert(w.name).second)
        wctx.fail("duplicate weight name '" + w.name + "': each weight must appear once");
      decoded_bytes += w.elements * element_size(w.dtype);
      if (decoded_bytes > kMaxWeightBytes)
        wctx.fail("'" + w.name + "': the weights up to this one take " +
                  std::to_string(decoded_bytes) + " bytes once decoded, more than the limit of " +
                  std::to_string(kMaxWeightBytes) + " bytes for all weights (kMaxWeightBytes)");
      group.weights.push_back(std::move(w));
    }
    groups.push_back(std::move(group));
  }
  return groups;
}

}  // namespace tfjsi::model
